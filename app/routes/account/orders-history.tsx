import { Form, Link } from "react-router";
import { appContext } from "#app-context";
import { ReorderButton } from "../../components/basket/reorder-button.tsx";
import { SelectField } from "../../components/form.tsx";
import { SiteOptions } from "../../components/trade/site-options.tsx";
import { Breadcrumbs, EmptyState, PageHeading } from "../../components/page.tsx";
import { formatOrderDate } from "../../lib/basket-checkout.ts";
import { formatPounds } from "../../lib/money.ts";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/orders-history";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Your orders");

export async function loader({ context, request }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const params = new URL(request.url).searchParams;
  const page = Number(params.get("page") ?? "1");
  // A trade member's company's sites, to read the orders of one; anyone else has none.
  const sites = await app.services.tradeSites.list(app.user!.id).then(
    (answer) => answer.data.map((s) => ({ id: s.id, name: s.name, archived: s.archived })),
    () => [],
  );
  const site = sites.find((s) => s.id === Number(params.get("site")));
  // The signed-in layout has already sent guests to sign in.
  const history = await app.services.orders.history(app.user!.id, Number.isInteger(page) && page > 0 ? page : 1, site?.id);
  // "Buy again" on each order, as on the order's own page, while there is a basket to buy into.
  return { ...history, canReorder: app.config.basketEnabled, sites, site: site ?? null };
}

export default function OrdersHistory({ loaderData }: Route.ComponentProps) {
  const { data: orders, page, last_page: lastPage, total, canReorder, sites, site } = loaderData;
  const pageLink = (to: number) => `?${new URLSearchParams({ ...(site ? { site: String(site.id) } : {}), page: String(to) })}`;
  return (
    <div className="mx-auto max-w-4xl">
      <Breadcrumbs items={[{ label: "Home", to: "/" }, { label: "Your account", to: "/account" }, { label: "Orders" }]} />
      <PageHeading title="Your orders" />
      {sites.length ? (
        <Form method="get" className="mb-4 flex flex-wrap items-end gap-3" aria-label="Orders for a site">
          <SelectField label="Site" name="site" defaultValue={site?.id ?? ""} className="min-w-0 flex-1 sm:max-w-sm">
            <SiteOptions sites={sites} />
          </SelectField>
          <button type="submit" className="btn-secondary">
            Show
          </button>
        </Form>
      ) : null}
      {orders.length === 0 ? (
        site ? (
          <EmptyState title={`You have no orders for ${site.name}.`} action={{ to: "/account/orders/history", label: "Show all your orders" }} />
        ) : (
          <EmptyState title="You have no orders yet." action={{ to: "/products", label: "Start shopping" }} />
        )
      ) : (
        <>
          <p className="mb-3 text-stone-700">
            {total} {total === 1 ? "order" : "orders"}
            {site ? ` for ${site.name}` : ""}
          </p>
          <ul className="grid gap-3">
            {orders.map((o) => (
              <li key={o.id} className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-stone-200 bg-white p-4 shadow-sm" data-testid="order-row">
                <div>
                  <Link to={`/account/orders/${o.id}`} className="text-lg font-semibold hover:underline">
                    Order {o.number}
                  </Link>
                  <p className="text-sm text-stone-600">
                    {formatOrderDate(o.created_at)} · {o.lines} {o.lines === 1 ? "line" : "lines"}
                    {o.site ? ` · ${o.site}` : ""}
                  </p>
                </div>
                <div className="text-right">
                  <p className="font-bold">{formatPounds(o.total)}</p>
                  <p className="text-sm font-semibold">{o.status_label}</p>
                </div>
                {canReorder ? (
                  <div className="w-full border-t border-stone-200 pt-3">
                    <ReorderButton orderId={o.id} orderNumber={o.number} />
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
          {lastPage > 1 ? (
            <nav aria-label="Pages" className="mt-4 flex gap-3">
              {page > 1 ? (
                <Link to={pageLink(page - 1)} className="btn-secondary">
                  Newer orders
                </Link>
              ) : null}
              {page < lastPage ? (
                <Link to={pageLink(page + 1)} className="btn-secondary">
                  Older orders
                </Link>
              ) : null}
            </nav>
          ) : null}
        </>
      )}
    </div>
  );
}

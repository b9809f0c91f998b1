import { Link } from "react-router";
import { appContext } from "#app-context";
import { ReorderButton } from "../../components/basket/reorder-button.tsx";
import { Breadcrumbs, EmptyState, PageHeading } from "../../components/page.tsx";
import { formatOrderDate } from "../../lib/basket-checkout.ts";
import { formatPounds } from "../../lib/money.ts";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/orders-history";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Your orders");

export async function loader({ context, request }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const page = Number(new URL(request.url).searchParams.get("page") ?? "1");
  // The signed-in layout has already sent guests to sign in.
  const history = await app.services.orders.history(app.user!.id, Number.isInteger(page) && page > 0 ? page : 1);
  // "Buy again" on each order, as on the order's own page, while there is a basket to buy into.
  return { ...history, canReorder: app.config.basketEnabled };
}

export default function OrdersHistory({ loaderData }: Route.ComponentProps) {
  const { data: orders, page, last_page: lastPage, total, canReorder } = loaderData;
  return (
    <div className="mx-auto max-w-4xl">
      <Breadcrumbs items={[{ label: "Home", to: "/" }, { label: "Your account", to: "/account" }, { label: "Orders" }]} />
      <PageHeading title="Your orders" />
      {orders.length === 0 ? (
        <EmptyState title="You have no orders yet." action={{ to: "/products", label: "Start shopping" }} />
      ) : (
        <>
          <p className="mb-3 text-stone-700">
            {total} {total === 1 ? "order" : "orders"}
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
                <Link to={`?page=${page - 1}`} className="btn-secondary">
                  Newer orders
                </Link>
              ) : null}
              {page < lastPage ? (
                <Link to={`?page=${page + 1}`} className="btn-secondary">
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

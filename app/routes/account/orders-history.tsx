import { Form, Link, useLocation, useRouteLoaderData } from "react-router";
import { appContext } from "#app-context";
import { ReorderButton } from "../../components/basket/reorder-button.tsx";
import { SelectField } from "../../components/form.tsx";
import { SiteOptions } from "../../components/trade/site-options.tsx";
import { Breadcrumbs, EmptyState, PageHeading } from "../../components/page.tsx";
import { formatOrderDate } from "../../lib/basket-checkout.ts";
import { formatPounds } from "../../lib/money.ts";
import { LoadingBlocks, PersonalDataError } from "../../components/personal-page.tsx";
import { pageMeta } from "../../lib/meta.ts";
import { NOT_LOADED, personalJson, personalUser, WITHOUT_SCRIPTS } from "../../lib/personal-data.ts";
import type { RootData } from "../../lib/root-data.ts";
import type { OrderService } from "../../../server/modules/orders/service.ts";
import type { Route } from "./+types/orders-history";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Your orders");

type History = Awaited<ReturnType<OrderService["history"]>>;
interface SiteChoice {
  id: number;
  name: string;
  archived: boolean;
}

/**
 * A frame every signed-in customer shares (ADR 0061): the server reads the
 * orders only for a page rendered for this customer (`?noscript`, or the page
 * cache off); otherwise the browser reads `GET /api/account/orders` and, for a
 * trade member, their company's sites (`GET /api/trade/sites`, refused for
 * anyone else: they have none) to read the orders of one.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = context.get(appContext);
  if (!app.user) return NOT_LOADED;
  const userId = app.user.id;
  return historyPage(
    new URL(request.url).searchParams,
    async () => (await app.services.tradeSites.list(userId)).data,
    (page, site) => app.services.orders.history(userId, page, site),
  );
}

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  // Who first: signed out since the frame was served goes to sign in before anything else is asked,
  // and only a member of a trade account has sites to ask for (a consumer's browser is never sent a refusal).
  const member = (await personalUser(request)).tradeAccountId !== null;
  return historyPage(
    new URL(request.url).searchParams,
    async () => (member ? (await personalJson<{ data: SiteChoice[] }>(request, "/api/trade/sites")).data : []),
    (page, site) => personalJson<History>(request, "/api/account/orders", { page, site }),
  );
}
clientLoader.hydrate = true as const;

/** One page of the history, by either door: only a site of theirs narrows it. */
async function historyPage(params: URLSearchParams, readSites: () => Promise<SiteChoice[]>, readHistory: (page: number, site?: number) => Promise<History>) {
  const page = Number(params.get("page") ?? "1");
  const valid = Number.isInteger(page) && page > 0 ? page : 1;
  const wanted = Number(params.get("site"));
  const sitesOf = () =>
    readSites().then(
      (list) => list.map((s) => ({ id: s.id, name: s.name, archived: s.archived })),
      (error: unknown) => {
        // A session gone is sign-in's; no company is no sites.
        if (error instanceof Response) throw error;
        return [] as SiteChoice[];
      },
    );
  // The sites first when one is named (it must be theirs); otherwise both at once.
  if (wanted) {
    const sites = await sitesOf();
    const site = sites.find((s) => s.id === wanted) ?? null;
    return { loaded: true as const, ...(await readHistory(valid, site?.id)), sites, site };
  }
  const [sites, history] = await Promise.all([sitesOf(), readHistory(valid)]);
  return { loaded: true as const, ...history, sites, site: null };
}

function Frame({ children }: { children: React.ReactNode }) {
  return (
    <div className="mx-auto max-w-4xl">
      <Breadcrumbs items={[{ label: "Home", to: "/" }, { label: "Your account", to: "/account" }, { label: "Orders" }]} />
      <PageHeading title="Your orders" />
      {children}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <Frame>
      <PersonalDataError error={error} what="your orders" />
    </Frame>
  );
}

export default function OrdersHistory({ loaderData }: Route.ComponentProps) {
  // "Buy again" on each order, as on the order's own page, while there is a basket to buy into.
  const canReorder = Boolean(useRouteLoaderData<RootData>("root")?.config.basketEnabled);
  // A page rendered for a browser without scripts keeps to such pages as it moves on.
  const withoutScripts = new URLSearchParams(useLocation().search).has(WITHOUT_SCRIPTS);
  if (!loaderData.loaded) {
    return (
      <Frame>
        <LoadingBlocks label="Loading your orders…" blocks={4} height="h-32" withoutScripts="Show your orders" />
      </Frame>
    );
  }
  const { data: orders, page, last_page: lastPage, total, sites, site } = loaderData;
  const pageLink = (to: number) => `?${new URLSearchParams({ ...(site ? { site: String(site.id) } : {}), page: String(to), ...(withoutScripts ? { [WITHOUT_SCRIPTS]: "" } : {}) })}`;
  return (
    <Frame>
      {sites.length ? (
        <Form method="get" className="mb-4 flex flex-wrap items-end gap-3" aria-label="Orders for a site">
          {withoutScripts ? <input type="hidden" name={WITHOUT_SCRIPTS} value="" /> : null}
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
    </Frame>
  );
}

import { appContext } from "#app-context";
import { ReorderButton } from "../../components/basket/reorder-button.tsx";
import { OrderDetails } from "../../components/checkout/order-details.tsx";
import { Breadcrumbs, PageHeading } from "../../components/page.tsx";
import { OrderReturns } from "../../components/returns/order-returns.tsx";
import type { OrderView } from "../../lib/basket-checkout.ts";
import { pageMeta } from "../../lib/meta.ts";
import { notFound } from "../../lib/not-found.ts";
import { returnsFormAction } from "../../lib/returns.server.ts";
import { type OrderReturnsView, returnsAction } from "../../lib/returns.ts";
import type { Route } from "./+types/order";

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData ? `Order ${loaderData.order.number}` : "Order");

export async function loader({ context, params }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const id = Number(params.orderId);
  // Only the user's own orders: another's is not found.
  const order = Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647 ? await app.services.orders.forUser(app.user!.id, id) : null;
  if (!order) notFound();
  // What can still be returned, and the order's returns (issue 31).
  const returns = (await app.services.returns.forOrder(order.id)) as OrderReturnsView;
  return { order: order as OrderView, returns, canReorder: app.config.basketEnabled };
}

/** The returns forms without scripts, and a return with photos (multipart): through the services, as the customer. */
export async function action({ context, params, request }: Route.ActionArgs) {
  const app = context.get(appContext);
  const id = Number(params.orderId);
  // Only the user's own orders, as the loader: another's is not found.
  const order = Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647 ? await app.services.orders.forUser(app.user!.id, id) : null;
  if (!order) notFound();
  return returnsFormAction(app, request, order.number, { userId: app.user!.id });
}

export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  return returnsAction(request, {}, serverAction);
}

export default function Order({ loaderData }: Route.ComponentProps) {
  const { order, returns, canReorder } = loaderData;
  return (
    <>
      <Breadcrumbs items={[{ label: "Home", to: "/" }, { label: "Your account", to: "/account" }, { label: "Orders", to: "/account/orders/history" }, { label: order.number }]} />
      <PageHeading title={`Order ${order.number}`} intro={order.status_label} />
      {canReorder ? (
        <div className="mb-6">
          <ReorderButton orderId={order.id} />
        </div>
      ) : null}
      <OrderDetails order={order} />
      <OrderReturns order={order} view={returns} />
    </>
  );
}

import { appContext } from "#app-context";
import { OrderDetails } from "../../components/checkout/order-details.tsx";
import { Breadcrumbs, PageHeading } from "../../components/page.tsx";
import { OrderReturns } from "../../components/returns/order-returns.tsx";
import type { OrderView } from "../../lib/basket-checkout.ts";
import { pageMeta } from "../../lib/meta.ts";
import { notFound } from "../../lib/not-found.ts";
import { returnsFormAction, withOrderLink } from "../../lib/returns.server.ts";
import { type OrderReturnsView, returnsAction } from "../../lib/returns.ts";
import type { Route } from "./+types/order";

/**
 * An order's own page behind the signed link in its emails (issue 31): a
 * guest sees the order, returns items or cancels it here without an account.
 * Without a valid link it is not found (whoever placed it while signed in
 * has it under their account).
 */
export const meta: Route.MetaFunction = ({ matches, loaderData }) => [...pageMeta(matches, loaderData ? `Order ${loaderData.order.number}` : "Order"), { name: "robots", content: "noindex" }];

// Personal: never kept by the page cache, a browser or a proxy.
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" });

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const number = (params.number ?? "").toUpperCase();
  const url = new URL(request.url);
  if (!/^TC-\d{6,}$/.test(number) || !app.services.orderLinks.verifyOrderLink(number, url.searchParams.get("expires") ?? undefined, url.searchParams.get("signature") ?? undefined)) notFound();
  const order = await app.services.orders.byNumber(number);
  if (!order) notFound();
  const found = await app.services.returns.forOrder(order.id);
  // The photos' URLs carry the link's signature, as the guest's own requests do.
  const link = { expires: url.searchParams.get("expires"), signature: url.searchParams.get("signature") };
  const returns = { ...found, returns: withOrderLink(found!.returns, link) } as OrderReturnsView;
  return { order: order as OrderView, returns };
}

/** The returns forms without scripts, and a return with photos (multipart): through the services, as the link's holder. */
export async function action({ context, params, request }: Route.ActionArgs) {
  const app = context.get(appContext);
  const number = (params.number ?? "").toUpperCase();
  const url = new URL(request.url);
  const signature = url.searchParams.get("signature") ?? undefined;
  // Without a valid link it is not found, as the page.
  if (!/^TC-\d{6,}$/.test(number) || !app.services.orderLinks.verifyOrderLink(number, url.searchParams.get("expires") ?? undefined, signature)) notFound();
  return returnsFormAction(app, request, number, { userId: app.user?.id ?? null, signedFor: number, triedLink: true });
}

export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  const url = new URL(request.url);
  return returnsAction(request, { expires: url.searchParams.get("expires"), signature: url.searchParams.get("signature") }, serverAction);
}

export default function GuestOrder({ loaderData }: Route.ComponentProps) {
  const { order, returns } = loaderData;
  return (
    <>
      <Breadcrumbs items={[{ label: "Home", to: "/" }, { label: `Order ${order.number}` }]} />
      <PageHeading title={`Order ${order.number}`} intro={order.status_label} />
      <OrderDetails order={order} />
      <OrderReturns order={order} view={returns} />
    </>
  );
}

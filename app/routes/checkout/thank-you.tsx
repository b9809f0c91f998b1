import { useEffect, useRef, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { appContext } from "#app-context";
import { thankYouOrder } from "../../../server/modules/checkout/thank-you.ts";
import { OrderDetails } from "../../components/checkout/order-details.tsx";
import { EmptyState, PageHeading } from "../../components/page.tsx";
import { type OrderView, PAYMENT_LABELS } from "../../lib/basket-checkout.ts";
import { browserApi } from "../../lib/browser-api.ts";
import { formatPounds } from "../../lib/money.ts";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/thank-you";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Thank you"), { name: "robots", content: "noindex" }];

// Personal: never kept by the page cache, a browser or a proxy; the signed link stays off other sites' logs.
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" });

/**
 * The order comes with the page (issue 34): no "Loading your order…" after
 * paying. Only whoever placed it signed in, or holds the signed link, sees it;
 * anyone else gets the page's empty state.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const url = new URL(request.url);
  const number = url.searchParams.get("order") ?? "";
  const link = { expires: url.searchParams.get("expires"), signature: url.searchParams.get("signature") };
  const order = await thankYouOrder({ orders: app.services.orders, verify: app.services.checkout.verifyThankYou }, number, link, app.user?.id ?? null);
  return { order: order as OrderView | null };
}
/** A card payment not yet confirmed is asked about again this often, this many times (a minute), then the page says it will email. */
const CONFIRM_EVERY_MS = 2_000;
const CONFIRM_TRIES = 30;
const ORDER_NUMBER = /^TC-\d{6,}$/;

export default function ThankYou({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const number = params.get("order") ?? "";
  const expires = params.get("expires") ?? undefined;
  const signature = params.get("signature") ?? undefined;
  const [order, setOrder] = useState<OrderView | null>(loaderData.order);
  const [missing, setMissing] = useState(loaderData.order === null);
  // The page came with the order; a card payment the shop has not heard of yet is asked about again.
  const waiting = (o: OrderView | null) => o?.payment_method === "card" && o.status === "awaiting_payment";
  const [tries, setTries] = useState(waiting(loaderData.order) ? 1 : 0);
  const heading = useRef<HTMLHeadingElement>(null);

  // Until the payment service's word arrives, the order is read again every two seconds, for a minute.
  useEffect(() => {
    if (tries === 0 || !ORDER_NUMBER.test(number)) return;
    const controller = new AbortController();
    const timer = setTimeout(
      () => {
        browserApi()
          .get<{ data: OrderView }>(`/api/checkout/orders/${number}`, { query: { expires, signature }, signal: controller.signal })
          .then((answer) => {
            setOrder(answer.data);
            if (waiting(answer.data) && tries < CONFIRM_TRIES) setTries(tries + 1);
          })
          .catch(() => {
            if (!controller.signal.aborted) setMissing(true);
          });
      },
      CONFIRM_EVERY_MS,
    );
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [number, expires, signature, tries]);


  // Focus once, when the order first shows: the card payment's checks update it in place.
  const shown = order !== null;
  useEffect(() => {
    if (shown) heading.current?.focus();
  }, [shown]);

  if (missing || !order) {
    return (
      <>
        <PageHeading title="Thank you" />
        <EmptyState title="There is no recent order to show." action={{ to: "/", label: "Continue shopping" }}>
          When you place an order, its confirmation appears here. The link in your confirmation email shows it too.
        </EmptyState>
      </>
    );
  }
  if (order.payment_method === "card" && order.status === "cancelled") {
    return (
      <>
        <div className="mb-6 rounded-lg border border-amber-600 bg-amber-50 p-6" role="status">
          <h1 ref={heading} tabIndex={-1} className="text-2xl font-bold">
            Order {order.number} was not placed
          </h1>
          <p className="mt-2">The card payment was not completed, so the order was cancelled. If any money was taken, it is refunded in full automatically and we email you.</p>
        </div>
        <Link to="/basket" className="btn-primary">
          Back to your basket
        </Link>
      </>
    );
  }

  return (
    <>
      <div className="mb-6 rounded-lg border border-green-700 bg-green-50 p-6" role="status">
        <h1 ref={heading} tabIndex={-1} className="text-2xl font-bold text-green-900">
          Thank you for your order
        </h1>
        <p className="mt-2 text-lg">
          Your order number is <strong data-testid="order-number">{order.number}</strong>.
        </p>
        <p className="mt-1">
          A confirmation is on its way to {order.email}. {order.payment_method === "bank_transfer" ? "We send the goods once your bank transfer arrives: the details are in the email." : null}
          {order.payment_method === "pay_on_collection" ? "You pay when you collect from the branch." : null}
          {order.payment_method === "pay_on_account" ? "We invoice this order to your trade account: pay by the due date on the invoice." : null}
        </p>
        {order.payment_method === "card" ? (
          <p className="mt-2 font-semibold" data-testid="card-payment">
            {order.status === "awaiting_payment"
              ? tries < CONFIRM_TRIES
                ? "We are waiting for the payment service to confirm your card payment…"
                : "Your card payment is not confirmed yet. We email you as soon as it is; there is no need to pay again."
              : `Payment received: ${formatPounds(order.total)} by card. Thank you.`}
          </p>
        ) : null}
        <p className="mt-1 text-sm text-stone-700">Payment: {PAYMENT_LABELS[order.payment_method] ?? order.payment_method}</p>
      </div>
      <OrderDetails order={order} />
      <div className="mt-6 flex flex-wrap gap-3">
        <Link to="/category" className="btn-secondary">
          Continue shopping
        </Link>
        <Link to="/account/orders/history" className="btn-secondary">
          Your orders
        </Link>
      </div>
    </>
  );
}

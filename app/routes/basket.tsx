import { Link } from "react-router";
import { appContext } from "#app-context";
import { BasketLine } from "../components/basket/basket-line.tsx";
import { BasketScreen, type TotalsRow } from "../components/basket/basket-screen.tsx";
import { TOTAL_ROW } from "../components/totals-list.tsx";
import { DiscountCode } from "../components/basket/discount-code.tsx";
import { useBasketLines } from "../components/basket/use-basket-lines.ts";
import { EmptyState, PageHeading } from "../components/page.tsx";
import { QuoteRequest, QuoteRequestAlert } from "../components/quotes/quote-request.tsx";
import { BASKET_MESSAGES, basketStore, refreshBasket, useBasket } from "../lib/basket.ts";
import { pageMeta } from "../lib/meta.ts";
import { useSignedIn } from "../lib/use-session.ts";
import { notFound } from "../lib/not-found.ts";
import { requestQuote } from "../lib/quotes.server.ts";
import type { Route } from "./+types/basket";

export function loader({ context }: Route.LoaderArgs) {
  // With BASKET_ENABLED off the basket does not exist at all.
  if (!context.get(appContext).config.basketEnabled) notFound();
  // The basket itself is fetched in the browser: this page carries no per-visitor data, so a
  // signed-in customer's copy is a frame kept for all with their price view (ADR 0061).
  return null;
}

/** "Request a quote" (issue 32): the basket's lines become a quote, and the customer goes to its page; a refusal comes back here. */
export async function action({ context, request }: Route.ActionArgs) {
  const app = context.get(appContext);
  if (!app.config.basketEnabled) notFound();
  return requestQuote(app, request);
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Your basket", "Your basket: change quantities, see delivery options and check out securely.");

const CONTINUE = "/category";

export default function Basket({ actionData }: Route.ComponentProps) {
  const state = useBasket(true);
  const control = useBasketLines(basketStore, "/api/basket", BASKET_MESSAGES);
  const { lineErrors, busyLine, change, remove } = control;
  // The page is a frame every signed-in customer shares (ADR 0061): it knows someone is signed in, not who.
  const signedIn = useSignedIn();

  return (
    <BasketScreen
      heading={
        <>
          <PageHeading title="Your basket" />
          {/* A refused quote request, said here: with an empty basket there is no form below to say it. */}
          <QuoteRequestAlert failure={actionData} />
          {/* The quick-order pad is for signed-in customers; a visitor's page names no one. */}
          {signedIn ? (
            <p className="-mt-3 mb-5">
              <Link to="/trade/quick-order" className="link">
                Quick order: paste or upload a list of SKUs
              </Link>
            </p>
          ) : null}
        </>
      }
      state={state}
      control={control}
      idOf={(item) => item.cart_item_id}
      loadingText="Loading your basket…"
      onRetry={() => void refreshBasket()}
      empty={
        <EmptyState title="Your basket is empty." action={{ to: CONTINUE, label: "Continue shopping" }}>
          Browse the catalogue and add products to your basket.
        </EmptyState>
      }
      title={(lines) => {
        const count = lines.reduce((n, i) => n + i.quantity, 0);
        return `${count} ${count === 1 ? "item" : "items"}`;
      }}
      clearLabel="Clear basket"
      renderLine={(item) => (
        <BasketLine
          // A new answer from the server resets the line's quantity box.
          key={`${item.cart_item_id}-${item.quantity}`}
          item={item}
          error={lineErrors[item.cart_item_id]}
          busy={busyLine === item.cart_item_id}
          onQuantity={(quantity) => void change(item.cart_item_id, { quantity })}
          onRemove={() => void remove(item.cart_item_id)}
        />
      )}
      summaryTitle="Order summary"
      totals={(cart) => [
        ["Subtotal (ex VAT)", cart.subtotal],
        // Each promotion's saving, ex VAT like the subtotal it comes off.
        ...cart.discounts.map((d): TotalsRow => [d.code ? `${d.description} (${d.code})` : d.description, -d.amount, "text-green-800"]),
        ["VAT", cart.taxes],
        ["Total (inc VAT)", cart.total, TOTAL_ROW],
      ]}
      totalsTestId="basket-totals"
      summary={(lines, cart) => (
        <>
          <DiscountCode cart={cart} />
          <CheckoutLinks blocked={lines.some((i) => i.exceeds_stock || !i.in_stock)} />
        </>
      )}
    >
      <QuoteRequest signedIn={signedIn} failure={actionData} />
    </BasketScreen>
  );
}

/** Delivery is priced at checkout; lines short of stock hold checkout back. */
function CheckoutLinks({ blocked }: { blocked: boolean }) {
  return (
    <>
      <p className="mt-3 text-sm text-stone-700">
        Delivery is worked out at checkout from your postcode.{" "}
        <Link to="/delivery" className="link">
          Delivery charges
        </Link>
      </p>
      {blocked ? (
        <p className="mt-3 text-sm font-semibold text-amber-800" role="status">
          Some items are short of stock. Lower their quantities to check out.
        </p>
      ) : null}
      <div className="mt-5 grid gap-3">
        {blocked ? (
          <span className="btn-primary cursor-not-allowed opacity-75" aria-disabled="true">
            Checkout
          </span>
        ) : (
          <Link to="/checkout" className="btn-primary">
            Checkout
          </Link>
        )}
        <Link to={CONTINUE} className="btn-secondary">
          Continue shopping
        </Link>
      </div>
    </>
  );
}

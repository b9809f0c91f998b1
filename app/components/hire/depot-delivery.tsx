import { useEffect, useState } from "react";
import { ApiError, fieldMessage } from "../../lib/api-client.ts";
import { browserApi } from "../../lib/browser-api.ts";
import { type HireBasketAnswer } from "../../lib/hire.ts";
import { cartFromAnswer, setHireCart } from "../../lib/hire-basket.ts";
import { formatPounds } from "../../lib/money.ts";
import { readMyBranch } from "../branches/my-branch.ts";

export interface DepotOption {
  slug: string;
  name: string;
}

export interface DeliveryQuote {
  miles: number;
  band_up_to_miles: number;
  price: number;
  vat: number;
  total: number;
}

/**
 * The hire depot the request goes out from (issue 30): the basket's, else my
 * branch when it is a depot, else the default. A change is kept on the basket.
 */
export function DepotSelect({ depots, basketDepot, value, onChange, error }: { depots: DepotOption[]; basketDepot: { slug: string; chosen: boolean } | null; value: string; onChange: (slug: string) => void; error?: string }) {
  // The first answer settles the starting depot: the basket's own choice, else my branch's.
  useEffect(() => {
    if (!basketDepot || value) return;
    const mine = readMyBranch();
    onChange(!basketDepot.chosen && mine && depots.some((d) => d.slug === mine) ? mine : basketDepot.slug);
  }, [basketDepot, value, depots, onChange]);

  const choose = async (slug: string) => {
    onChange(slug);
    try {
      const answer = await browserApi().put<HireBasketAnswer>("/api/hire-basket/depot", { depot: slug });
      setHireCart(answer.cart);
    } catch (failure) {
      const cart = cartFromAnswer(failure);
      if (cart) setHireCart(cart);
    }
  };
  if (depots.length < 2) return <input type="hidden" name="depot" value={value} />;
  return (
    <div className="grid gap-1.5">
      <label htmlFor="hire-request-depot" className="font-semibold">
        Hire depot
      </label>
      <p id="hire-request-depot-hint" className="text-sm text-stone-600">
        The equipment goes out from and comes back to this depot; delivery is priced by the distance from it.
      </p>
      {error ? (
        <p id="hire-request-depot-error" className="text-sm font-semibold text-red-700">
          {error}
        </p>
      ) : null}
      <select
        id="hire-request-depot"
        name="depot"
        value={value}
        onChange={(e) => void choose(e.target.value)}
        aria-describedby={error ? "hire-request-depot-hint hire-request-depot-error" : "hire-request-depot-hint"}
        aria-invalid={error ? true : undefined}
        className="max-w-sm rounded-md border border-stone-400 bg-white px-3 py-2 text-base focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-500"
      >
        {depots.map((d) => (
          <option key={d.slug} value={d.slug}>
            {d.name}
          </option>
        ))}
      </select>
    </div>
  );
}

const POSTCODE = /^[A-Za-z]{1,2}\d[A-Za-z\d]?\s*\d[A-Za-z]{2}$/;

/** The delivery charge for the site postcode from the depot, asked as the postcode is typed: a price, "not priced online", or the server's reason it cannot be delivered. */
export function useDeliveryQuote(depot: string, postcode: string, wanted: boolean) {
  const [state, setState] = useState<{ key: string; quote: DeliveryQuote | null; error: string | null }>({ key: "", quote: null, error: null });
  const trimmed = postcode.trim();
  const key = `${depot}|${trimmed.toUpperCase()}`;
  const ready = wanted && depot !== "" && POSTCODE.test(trimmed);
  useEffect(() => {
    if (!ready || key === state.key) return;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const answer = await browserApi().get<{ data: DeliveryQuote | null }>(`/api/hire-depots/${depot}/delivery`, { query: { postcode: trimmed }, signal: controller.signal });
        setState({ key, quote: answer.data, error: null });
      } catch (error) {
        if (controller.signal.aborted) return;
        const message = error instanceof ApiError && error.status === 422 ? (fieldMessage(error.errors, "postcode") ?? error.message) : "We could not price delivery just now; the hire desk will confirm it.";
        setState({ key, quote: null, error: message });
      }
    }, 300);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [ready, key]); // eslint-disable-line react-hooks/exhaustive-deps
  if (!ready) return { quote: null, error: null, loading: false, asked: false };
  const fresh = state.key === key;
  return { quote: fresh ? state.quote : null, error: fresh ? state.error : null, loading: !fresh, asked: fresh };
}

/** What delivery costs, shown before the request is sent. */
export function DeliveryPrice({ depotName, delivery }: { depotName: string; delivery: ReturnType<typeof useDeliveryQuote> }) {
  let text: React.ReactNode = "Enter the site postcode to see the delivery charge.";
  if (delivery.loading) text = "Working out the delivery charge…";
  else if (delivery.error) text = <span className="font-semibold text-red-800">{delivery.error}</span>;
  else if (delivery.quote)
    text = (
      <>
        Delivery and collection: <strong>{formatPounds(delivery.quote.price)}</strong> + VAT {formatPounds(delivery.quote.vat)} = <strong>{formatPounds(delivery.quote.total)}</strong> ({delivery.quote.miles} miles from {depotName}, up to {delivery.quote.band_up_to_miles} miles), added to what you pay.
      </>
    );
  else if (delivery.asked) text = "The hire desk confirms the delivery charge with your request.";
  return (
    <p className="rounded-md bg-stone-100 px-3 py-2 text-stone-800" data-testid="hire-delivery-price" aria-live="polite">
      {text}
    </p>
  );
}

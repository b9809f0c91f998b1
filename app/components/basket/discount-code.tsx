// The basket's discount code box (issue 32): apply a code, see it applied or
// why not (the server's words), and take it off again.
import { useId, useState } from "react";
import { type Cart, basketStore, setCart } from "../../lib/basket.ts";
import { lineMessage } from "../../lib/basket-store.ts";
import { browserApi } from "../../lib/browser-api.ts";

export function DiscountCode({ cart }: { cart: Cart }) {
  const id = useId();
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const codes = [...new Set([...cart.discounts.flatMap((d) => (d.code ? [d.code] : [])), ...(cart.free_delivery_code ? [cart.free_delivery_code] : [])])];

  const remove = (c: string) => void send(() => browserApi().delete(`/api/basket/discount?code=${encodeURIComponent(c)}`));

  async function send(run: () => Promise<{ cart: Cart; message: string }>) {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const answer = await run();
      setCart(answer.cart);
      setDone(answer.message);
      setCode("");
    } catch (failure) {
      const refused = basketStore.cartFromError(failure);
      if (refused) setCart(refused);
      setError(lineMessage(failure, "Sorry, the code could not be checked. Please try again."));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="mt-4 border-t border-stone-200 pt-4">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!code.trim()) return setError("Enter a code.");
          void send(() => browserApi().post("/api/basket/discount", { code: code.trim() }));
        }}
        noValidate
      >
        <label htmlFor={`${id}-code`} className="block text-sm font-semibold">
          Discount code
        </label>
        <div className="mt-1 flex gap-2">
          <input
            id={`${id}-code`}
            name="code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={40}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            className="min-h-11 min-w-0 flex-1 rounded-md border border-stone-400 px-3 uppercase"
          />
          <button type="submit" className="btn-secondary min-h-11 px-4" disabled={busy}>
            {busy ? "Checking…" : "Apply"}
          </button>
        </div>
      </form>
      <div aria-live="polite" className="text-sm">
        {error ? (
          <p id={`${id}-error`} className="mt-2 font-semibold text-red-700" data-testid="discount-error">
            {error}
          </p>
        ) : null}
        {done ? <p className="mt-2 text-green-800">{done}</p> : null}
      </div>
      {cart.discount_notices.length ? (
        <ul className="mt-2 grid gap-1 text-sm text-amber-800" data-testid="discount-notices">
          {cart.discount_notices.map((n) => (
            <li key={n.code} className="flex flex-wrap items-center justify-between gap-2">
              <span>{n.message}</span>
              <RemoveCode code={n.code} busy={busy} onRemove={remove} />
            </li>
          ))}
        </ul>
      ) : null}
      {codes.length ? (
        <ul className="mt-2 grid gap-1 text-sm">
          {codes.map((c) => (
            <li key={c} className="flex flex-wrap items-center justify-between gap-2">
              <span>
                Code <span className="font-semibold">{c}</span> applied
              </span>
              <RemoveCode code={c} busy={busy} onRemove={remove} />
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function RemoveCode({ code, busy, onRemove }: { code: string; busy: boolean; onRemove: (code: string) => void }) {
  return (
    <button type="button" className="link min-h-11 text-sm" disabled={busy} onClick={() => onRemove(code)} aria-label={`Remove the code ${code}`}>
      Remove
    </button>
  );
}

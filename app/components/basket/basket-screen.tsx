import type { ReactNode } from "react";
import type { CartStoreState } from "../../lib/basket-store.ts";
import { formatPounds } from "../../lib/money.ts";
import { FormAlert } from "../form.tsx";
import { TotalsList } from "../totals-list.tsx";
import type { BasketLines } from "./use-basket-lines.ts";

const ALERT = "rounded-md border-l-4 border-red-700 bg-red-50 px-4 py-3 font-semibold text-red-800";

/** The type of a basket's line. */
type LineOf<C extends { items: unknown[] }> = C["items"][number];

/** A totals row: label, pounds, and classes for the row (e.g. the final total's rule). */
export type TotalsRow = readonly [label: string, pounds: number, className?: string];

/**
 * The frame the purchase basket and the hire basket share: loading or the fetch
 * message with a retry until the first answer, the empty state, then the lines
 * (without those being removed) beside a summary of totals.
 */
export function BasketScreen<C extends { items: unknown[] }>({
  heading,
  state,
  control,
  idOf,
  loadingText,
  onRetry,
  empty,
  title,
  clearLabel,
  renderLine,
  summaryTitle,
  totals,
  totalsTestId,
  summary,
  children,
}: {
  heading: ReactNode;
  state: CartStoreState<C>;
  control: BasketLines;
  idOf: (item: LineOf<C>) => number;
  loadingText: string;
  onRetry: () => void;
  empty: ReactNode;
  /** The heading over the lines, from the lines shown. */
  title: (lines: LineOf<C>[], cart: C) => ReactNode;
  clearLabel: string;
  renderLine: (item: LineOf<C>) => ReactNode;
  summaryTitle: string;
  totals: (cart: C) => TotalsRow[];
  totalsTestId: string;
  /** Below the totals. */
  summary: (lines: LineOf<C>[], cart: C) => ReactNode;
  /** Below the lines and summary. */
  children?: ReactNode;
}) {
  const { cart, error, loading } = state;
  if (!cart) {
    return (
      <>
        {heading}
        {error ? (
          <div role="alert" className={ALERT}>
            {error}{" "}
            <button type="button" className="link ml-2 min-h-11" onClick={onRetry}>
              Try again
            </button>
          </div>
        ) : (
          // The same box and height as the empty state, so the page does not jump when the basket arrives.
          <p role="status" className="flex min-h-52 items-center justify-center rounded-lg border border-dashed border-stone-300 bg-white px-6 py-10 text-center text-stone-700">
            {loadingText}
          </p>
        )}
      </>
    );
  }

  const lines = (cart.items as LineOf<C>[]).filter((i) => !control.hidden.has(idOf(i)));
  if (lines.length === 0) {
    return (
      <>
        {heading}
        {empty}
      </>
    );
  }

  return (
    <>
      {heading}
      {error ? (
        <p role="alert" className={`mb-4 ${ALERT}`}>
          {error}
        </p>
      ) : null}
      <FormAlert message={control.pageError} className="mb-4" />
      <div className="grid gap-8 lg:grid-cols-[1fr_22rem]">
        <section aria-labelledby="lines-heading" className="grid content-start gap-4">
          <div className="flex items-center justify-between gap-4">
            <h2 id="lines-heading" className="text-lg font-semibold">
              {title(lines, cart)}
            </h2>
            <button type="button" className="btn-secondary disabled:opacity-75" onClick={() => void control.clear()} disabled={control.clearing}>
              {control.clearing ? "Clearing…" : clearLabel}
            </button>
          </div>
          <ul className="grid gap-4" aria-busy={loading}>
            {lines.map((item) => (
              <li key={idOf(item)}>{renderLine(item)}</li>
            ))}
          </ul>
        </section>

        <aside aria-labelledby="totals-heading" className="h-fit rounded-lg border border-stone-200 bg-white p-5 shadow-sm lg:sticky lg:top-4">
          <h2 id="totals-heading" className="text-lg font-semibold">
            {summaryTitle}
          </h2>
          <TotalsList className="mt-3 grid gap-1.5" testId={totalsTestId} rows={totals(cart).map(([label, pounds, className]) => [label, formatPounds(pounds), className])} />
          {summary(lines, cart)}
        </aside>
      </div>
      {children}
    </>
  );
}

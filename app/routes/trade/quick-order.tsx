import { type RefObject, useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { appContext } from "#app-context";
import { QUICK_ORDER_MAX_LINES, type PastedLine, parseQuickOrder } from "../../../server/modules/basket/quick-order-text.ts";
import { UNIT_LABELS, type SaleUnit } from "../../../server/modules/catalog/products/units.ts";
import { AccountPage } from "../../components/account-page.tsx";
import { BasketNextLinks } from "../../components/basket/basket-next-links.tsx";
import { FormAlert } from "../../components/form.tsx";
import { lineHref } from "../../lib/basket.ts";
import { formatPounds } from "../../lib/money.ts";
import { pageMeta } from "../../lib/meta.ts";
import { notFound } from "../../lib/not-found.ts";
import { showsExVat, usePriceDisplay } from "../../lib/price-display.ts";
import { type BulkLine, type QuickOrderAnswer, lineErrors, sendQuickOrder } from "../../lib/quick-order.ts";
import { useHydrated } from "../../lib/use-session.ts";
import type { Route } from "./+types/quick-order";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Quick order");

export function loader({ context }: Route.LoaderArgs) {
  // With BASKET_ENABLED off there is no basket to fill. The signed-in layout has already sent guests to sign in.
  if (!context.get(appContext).config.basketEnabled) notFound();
  return null;
}

/** A CSV file bigger than this is not a list of at most 1,000 SKUs. */
const MAX_FILE_BYTES = 1_000_000;

interface Checked {
  rows: PastedLine[];
  answer: QuickOrderAnswer;
}

type AddedLine = NonNullable<BulkLine["product"]> & { quantity: number };

const plural = (n: number, word = "line") => `${n} ${word}${n === 1 ? "" : "s"}`;
const optionsText = (options: Record<string, string>) => Object.entries(options).map(([name, value]) => `${name}: ${value}`).join(" · ");

/**
 * The quick-order pad (issue 32): paste or upload lines of SKU and quantity,
 * check them (each shown with its product, price, stock or its error), then
 * add the good ones to the basket in one step; the refused ones stay in the
 * box to fix and check again.
 */
export default function QuickOrder() {
  const hydrated = useHydrated();
  const [text, setText] = useState("");
  const [checked, setChecked] = useState<Checked | null>(null);
  const [added, setAdded] = useState<AddedLine[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState<"check" | "add" | null>(null);
  // Read out by screen readers when it changes: what the check or the add did.
  const [status, setStatus] = useState("");
  const alert = useRef<HTMLDivElement>(null);
  const results = useRef<HTMLHeadingElement>(null);
  const confirmation = useRef<HTMLDivElement>(null);
  // Where focus goes once the next render is on the screen, so keyboard and screen-reader users land on the outcome.
  const focusNext = useRef<RefObject<HTMLElement | null> | null>(null);
  useEffect(() => {
    if (!focusNext.current) return;
    focusNext.current.current?.focus();
    focusNext.current = null;
  });

  const fail = (message: string) => {
    setProblem(message);
    focusNext.current = alert;
  };

  async function check(source: string, before = ""): Promise<void> {
    setProblem(null);
    setChecked(null);
    const parsed = parseQuickOrder(source);
    if (!parsed.ok) return fail(parsed.message);
    if (parsed.lines.length === 0) {
      if (!before) fail("Type or paste at least one line: a SKU, then the quantity.");
      return;
    }
    setBusy("check");
    const result = await sendQuickOrder(parsed.lines, false);
    setBusy(null);
    if ("message" in result) return fail(result.message);
    setChecked({ rows: parsed.lines, answer: result.answer });
    setStatus(`${before}${result.answer.message}`);
    if (!before) focusNext.current = results;
  }

  async function add(): Promise<void> {
    if (!checked) return;
    const good = checked.rows.filter((_, i) => checked.answer.lines[i]?.ok);
    const refused = checked.rows.filter((_, i) => !checked.answer.lines[i]?.ok);
    setProblem(null);
    setBusy("add");
    const result = await sendQuickOrder(good, true);
    setBusy(null);
    if ("message" in result) return fail(result.message);
    const { answer } = result;
    const went = answer.lines.flatMap((l) => (l.ok && l.product && l.quantity !== null ? [{ ...l.product, quantity: l.quantity }] : []));
    // Lines refused now (the stock moved since the check) join those refused before, in the order they were typed.
    const left = [...refused, ...good.filter((_, i) => !answer.lines[i]?.ok)].sort((a, b) => a.row - b.row);
    const remaining = left.map((l) => l.text).join("\n");
    setAdded(went.length ? went : null);
    setText(remaining);
    setStatus(answer.message);
    if (went.length) focusNext.current = confirmation;
    // The lines left are checked again, so each shows its error beside it in the box's new order.
    if (remaining) await check(remaining, `${answer.message} `);
    else setChecked(null);
  }

  async function upload(file: File): Promise<void> {
    if (file.size > MAX_FILE_BYTES) return fail(`That file is too big for a quick order: at most ${QUICK_ORDER_MAX_LINES.toLocaleString("en-GB")} lines of SKU and quantity.`);
    const content = await file.text();
    setText(content);
    await check(content);
  }

  const good = checked ? checked.answer.lines.filter((l) => l.ok).length : 0;

  return (
    <AccountPage
      wide
      title="Quick order"
      intro="Type or paste lines from a spreadsheet, one product a line: the SKU, then the quantity. Check them, fix any we cannot add, then add the rest to your basket in one step."
    >
      <div className="grid gap-6">
        <p role="status" aria-live="polite" className="sr-only" data-testid="quick-order-status">
          {status}
        </p>
        {added ? (
          <div ref={confirmation} tabIndex={-1} className="rounded-md border-l-4 border-green-700 bg-green-50 px-4 py-3 text-green-900" data-testid="quick-order-added">
            <p className="font-semibold">
              Added {plural(added.length)} to your basket:
            </p>
            <ul className="mt-2 grid gap-1">
              {added.map((l) => (
                <li key={l.variant_id}>
                  {l.quantity} × {l.name}
                  {Object.keys(l.options).length ? ` (${optionsText(l.options)})` : ""}
                </li>
              ))}
            </ul>
            <BasketNextLinks className="mt-3" />
          </div>
        ) : null}
        <FormAlert message={problem ?? undefined} ref={alert} />

        <form
          className="grid gap-4 rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:p-5"
          onSubmit={(event) => {
            event.preventDefault();
            void check(text);
          }}
        >
          <div className="grid gap-1.5">
            <label htmlFor="quick-order-lines" className="font-semibold text-stone-900">
              SKUs and quantities
            </label>
            <p id="quick-order-lines-hint" className="text-sm text-stone-600">
              Separate the SKU and quantity with a tab (as a spreadsheet pastes them), a comma, a semicolon or a space. A heading line such as “SKU, Qty” is skipped, and no quantity means 1. Up to{" "}
              {QUICK_ORDER_MAX_LINES.toLocaleString("en-GB")} lines.
            </p>
            <textarea
              id="quick-order-lines"
              name="lines"
              rows={8}
              value={text}
              onChange={(event) => {
                setText(event.target.value);
                // What was checked no longer matches the box.
                setChecked(null);
              }}
              aria-describedby="quick-order-lines-hint"
              spellCheck={false}
              autoCapitalize="characters"
              placeholder={"TCL-CLS3863\t12\nSCR-4X40, 3"}
              className="w-full rounded-md border border-stone-400 bg-white px-3 py-2 font-mono text-base"
            />
          </div>
          <div className="grid gap-1.5">
            <label htmlFor="quick-order-file" className="font-semibold text-stone-900">
              Or upload a CSV file
            </label>
            <p id="quick-order-file-hint" className="text-sm text-stone-600">
              Its first two columns: SKU and quantity. It is read here and checked straight away.
            </p>
            <input
              id="quick-order-file"
              type="file"
              accept=".csv,.tsv,.txt,text/csv,text/plain"
              aria-describedby="quick-order-file-hint"
              disabled={!hydrated || busy !== null}
              className="max-w-full text-sm file:mr-3 file:min-h-11 file:rounded-md file:border file:border-stone-300 file:bg-white file:px-3 file:font-semibold"
              onChange={(event) => {
                const file = event.target.files?.[0];
                // Cleared, so choosing the same file again (after fixing it) reads it again.
                event.target.value = "";
                if (file) void upload(file);
              }}
            />
          </div>
          <div>
            <button type="submit" className="btn-primary disabled:cursor-not-allowed disabled:opacity-75" disabled={!hydrated || busy !== null}>
              {busy === "check" ? "Checking…" : "Check lines"}
            </button>
          </div>
        </form>

        {checked ? (
          <section aria-labelledby="quick-order-results" className="grid gap-4">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <h2 id="quick-order-results" ref={results} tabIndex={-1} className="text-lg font-semibold">
                {checked.answer.message}
              </h2>
              {good ? (
                <button type="button" className="btn-primary disabled:cursor-not-allowed disabled:opacity-75" disabled={busy !== null} onClick={() => void add()}>
                  {busy === "add" ? "Adding…" : `Add ${plural(good)} to basket`}
                </button>
              ) : null}
            </div>
            {good < checked.rows.length ? <p className="text-stone-700">Fix the lines marked below in the box above, then check them again.</p> : null}
            <ol className="grid gap-3" data-testid="quick-order-lines">
              {checked.rows.map((row, i) => (
                <CheckedLine key={row.row} row={row} verdict={checked.answer.lines[i]} error={lineErrors(checked.answer, i)} />
              ))}
            </ol>
          </section>
        ) : null}
      </div>
    </AccountPage>
  );
}

/** One checked line: what it is, its quantity, price and stock, or its error beside it. */
function CheckedLine({ row, verdict, error }: { row: PastedLine; verdict: BulkLine | undefined; error: string }) {
  const exVat = showsExVat(usePriceDisplay());
  const product = verdict?.product ?? null;
  const headingId = `quick-line-${row.row}`;
  const errorId = `quick-line-${row.row}-error`;
  const per = product ? (UNIT_LABELS[product.unit as SaleUnit]?.per ?? "each") : "";
  return (
    <li
      aria-labelledby={headingId}
      aria-describedby={error ? errorId : undefined}
      className={`grid gap-3 rounded-lg border p-4 shadow-sm sm:grid-cols-[minmax(0,1fr)_auto] ${error ? "border-red-300 bg-red-50" : "border-stone-200 bg-white"}`}
      data-testid="quick-order-line"
    >
      <div className="min-w-0">
        <h3 id={headingId} className="font-semibold break-words">
          <span className="text-stone-600">Line {row.row}: </span>
          {product ? (
            <Link to={lineHref(product)} className="hover:underline">
              {product.name}
            </Link>
          ) : (
            <span className="break-all">{row.sku || "no SKU"}</span>
          )}
        </h3>
        {product ? (
          <p className="text-sm text-stone-700">
            {Object.keys(product.options).length ? `${optionsText(product.options)} · ` : ""}SKU {product.sku}
          </p>
        ) : null}
      </div>
      <dl className="grid grid-cols-3 gap-x-4 gap-y-1 text-sm sm:min-w-80">
        <div>
          <dt className="text-stone-600">Quantity</dt>
          <dd className="font-semibold break-all">{verdict?.quantity ?? String(row.quantity)}</dd>
        </div>
        <div>
          <dt className="text-stone-600">Price {per}</dt>
          <dd className="font-semibold">{product ? formatPounds(exVat ? product.unit_price_ex_vat : product.unit_price) : "–"}</dd>
          {product ? <dd className="text-stone-600">{exVat ? "ex VAT" : "inc VAT"}</dd> : null}
        </div>
        <div>
          <dt className="text-stone-600">Stock</dt>
          <dd className="font-semibold">{product ? (product.in_stock ? `${product.stock} in stock` : "Out of stock") : "–"}</dd>
          {product?.in_basket ? <dd className="text-stone-600">{product.in_basket} in your basket</dd> : null}
        </div>
      </dl>
      {error ? (
        <p id={errorId} className="font-semibold text-red-800 sm:col-span-2">
          <span className="sr-only">Error: </span>
          {error}
        </p>
      ) : (
        <p className="font-semibold text-green-800 sm:col-span-2">Ready to add.</p>
      )}
    </li>
  );
}

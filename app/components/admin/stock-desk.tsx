// The stock desk's one form (issue 34): receive, count or adjust, chosen by a
// mode; rows added as needed, each with a product lookup that shows the name
// and the stock at the branch before anything is booked; and a scanner field
// where a barcode or SKU and Enter adds its row (or one more to it).
import { useEffect, useId, useRef, useState } from "react";
import { Form } from "react-router";
import { useHydrated } from "../../lib/use-session.ts";
import { FieldError } from "./field-error.tsx";
import { control } from "./stock-lines.tsx";
import { DataTable } from "./table-or-cards.tsx";
import { Options } from "./options.tsx";

export type DeskMode = "receive" | "count" | "adjust";
export const DESK_MODES: readonly DeskMode[] = ["receive", "count", "adjust"];

/** What the lookup answers (GET /api/admin/stock/lookup). */
interface Found {
  sku: string;
  name: string;
  barcode: string | null;
  stock: number;
  exact: boolean;
}

interface Row {
  key: number;
  sku: string;
  quantity: string;
  /** The product the SKU names, once looked up; `missing` when nothing has it. */
  product: { name: string; stock: number } | "missing" | null;
}

/** Row keys: React's only, never rendered, so they need not match between server and browser. */
let lastKey = 0;
const newKey = () => ++lastKey;
const blank = (sku = "", quantity = ""): Row => ({ key: newKey(), sku, quantity, product: null });

/** Rows a desk starts with without scripts: room for a short delivery note; with scripts, one and "Add row". */
const PLAIN_ROWS = 5;

const WORDS: Record<DeskMode, { number: string; submit: string; legend: string }> = {
  receive: { number: "Quantity", submit: "Book the delivery in", legend: "Receive a delivery" },
  count: { number: "Counted", submit: "Record the count", legend: "Stock count" },
  adjust: { number: "Change (+/−)", submit: "Record the change", legend: "Adjust or return" },
};

async function lookup(q: string, branchId: number | undefined, signal?: AbortSignal): Promise<Found[]> {
  const params = new URLSearchParams({ q });
  if (branchId) params.set("branch_id", String(branchId));
  const response = await fetch(`/api/admin/stock/lookup?${params}`, { headers: { accept: "application/json" }, signal });
  if (!response.ok) return [];
  return ((await response.json()) as { data: Found[] }).data;
}

/** The row's messages from the service (`lines.2.sku`, `counts.2.counted`…), whichever list the mode sends. */
function rowMessages(errors: Record<string, string[]> | undefined, index: number): string[] {
  if (!errors) return [];
  const own = Object.entries(errors).filter(([k]) => new RegExp(`^\\w+\\.${index}\\.\\w+$`).test(k));
  return [...new Set(own.flatMap(([, v]) => v))];
}

export function StockDesk({
  branches,
  chosenBranch,
  result,
  busy,
}: {
  branches: { id: number; name: string }[];
  chosenBranch: number | undefined;
  result?: { ok: boolean; form: string; errors?: Record<string, string[]>; rows?: { sku: string; quantity: string }[] };
  busy: boolean;
}) {
  const hydrated = useHydrated();
  const refused = result && !result.ok ? result : undefined;
  const [mode, setMode] = useState<DeskMode>(() => DESK_MODES.find((m) => m === refused?.form) ?? "receive");
  const [branchId, setBranchId] = useState<number | undefined>(chosenBranch ?? branches[0]?.id);
  const [rows, setRows] = useState<Row[]>(() => (refused?.rows?.length ? refused.rows.map((r) => blank(r.sku, r.quantity)) : Array.from({ length: PLAIN_ROWS }, () => blank())));
  const [scan, setScan] = useState("");
  const [said, setSaid] = useState("");
  const scanRef = useRef<HTMLInputElement>(null);
  const errors = refused?.errors;
  const generalErrors = Object.entries(errors ?? {}).filter(([k]) => !/\.\d+\./.test(k) && k !== "branch_id").flatMap(([, v]) => v);
  const branchErrors = [...new Set(Object.entries(errors ?? {}).flatMap(([k, v]) => (k === "branch_id" || k.endsWith(".branch_id") ? v : [])))];
  const branchName = branches.find((b) => b.id === branchId)?.name ?? "the branch";

  // Rows sent back after a refusal, and rows kept when the branch changes: their names and stock looked up again.
  const branchLooked = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (!hydrated || branchLooked.current === branchId) return;
    branchLooked.current = branchId;
    const controller = new AbortController();
    const named = rows.filter((r) => r.sku.trim());
    void Promise.all(named.map(async (r) => [r.key, (await lookup(r.sku.trim(), branchId, controller.signal)).find((f) => f.exact)] as const)).then(
      (found) => setRows((was) => was.map((r) => {
        const hit = found.find(([key]) => key === r.key);
        return hit ? { ...r, product: hit[1] ? { name: hit[1].name, stock: hit[1].stock } : "missing" } : r;
      })),
      () => undefined,
    );
    return () => controller.abort();
  }, [hydrated, branchId, rows]);

  const setRow = (key: number, change: Partial<Row>) => setRows((was) => was.map((r) => (r.key === key ? { ...r, ...change } : r)));

  /** A scanned code: its row gets one more, or a new row is added for it; the focus stays in the field. */
  async function scanned(code: string) {
    const term = code.trim();
    if (!term) return;
    const hit = (await lookup(term, branchId)).find((f) => f.exact);
    if (!hit) {
      setSaid(`Nothing has the barcode or SKU ${term}.`);
      return;
    }
    setScan("");
    const at = rows.findIndex((r) => r.sku.trim().toLowerCase() === hit.sku.toLowerCase());
    const product = { name: hit.name, stock: hit.stock };
    if (at >= 0) {
      const quantity = String((Number(rows[at]!.quantity) || 0) + 1);
      setRows((was) => was.map((r) => (r.key === rows[at]!.key ? { ...r, quantity, product } : r)));
      setSaid(`${hit.name}: ${quantity}.`);
    } else {
      // The first empty row takes it, else a new one at the end.
      const empty = rows.findIndex((r) => !r.sku.trim() && !r.quantity.trim());
      const row = { key: newKey(), sku: hit.sku, quantity: "1", product };
      setRows((was) => (empty >= 0 ? was.map((r, i) => (i === empty ? row : r)) : [...was, row]));
      setSaid(`${hit.name} added: 1. ${hit.stock} in stock at ${branchName}.`);
    }
    scanRef.current?.focus();
  }

  const words = WORDS[mode];
  return (
    <Form method="post" className="grid gap-4 rounded-lg border border-stone-200 bg-white p-4" aria-labelledby="desk-title" data-testid="stock-desk">
      <h2 id="desk-title" className="text-lg font-bold">
        Book stock in, count or adjust
      </h2>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-semibold">What are you recording?</legend>
        <div className="flex flex-wrap gap-2">
          {DESK_MODES.map((m) => (
            <label key={m} className={`inline-flex min-h-10 cursor-pointer items-center gap-2 rounded-md border px-3 text-sm font-semibold ${mode === m ? "border-brand-700 bg-brand-50" : "border-stone-300 bg-white"}`}>
              <input type="radio" name="intent" value={m} checked={mode === m} onChange={() => setMode(m)} className="size-4" />
              {WORDS[m].legend}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {branches.length > 1 ? (
          <label className="grid content-start gap-1 text-sm font-semibold">
            Branch
            <select name="branch_id" value={branchId} onChange={(e) => setBranchId(Number(e.currentTarget.value))} className={control} aria-invalid={branchErrors.length ? true : undefined}>
              <Options of={branches} value={(b) => b.id} label={(b) => b.name} />
            </select>
            <FieldError messages={branchErrors} />
          </label>
        ) : null}
        {mode === "receive" ? (
          <label className="grid content-start gap-1 text-sm font-semibold">
            Delivery note or purchase order
            <input name="reference" maxLength={200} placeholder="e.g. PO-4471" className={control} />
          </label>
        ) : null}
        {mode === "count" ? (
          <label className="grid content-start gap-1 text-sm font-semibold">
            Where or why (optional)
            <input name="note" maxLength={200} placeholder="e.g. Aisle 4, monthly count" className={control} />
          </label>
        ) : null}
        {mode === "adjust" ? (
          <>
            <label className="grid content-start gap-1 text-sm font-semibold">
              What happened
              <select name="kind" className={control} defaultValue="adjusted">
                <option value="adjusted">Adjustment (damage, loss, found)</option>
                <option value="returned">Customer return (back on the shelf)</option>
                <option value="received">Received without a delivery note</option>
              </select>
            </label>
            <label className="grid content-start gap-1 text-sm font-semibold">
              Reason
              <input name="reason" maxLength={200} placeholder="e.g. Dropped in the yard" className={control} />
            </label>
          </>
        ) : null}
        {hydrated ? (
          <div className="grid content-start gap-1 text-sm sm:col-span-2 lg:col-span-2">
            <label htmlFor="desk-scan" className="font-semibold">
              Scan or type a barcode or SKU, then Enter
            </label>
            <input
              id="desk-scan"
              ref={scanRef}
              value={scan}
              onChange={(e) => setScan(e.currentTarget.value)}
              onKeyDown={(e) => {
                // Enter adds the row; it never sends the form.
                if (e.key !== "Enter") return;
                e.preventDefault();
                void scanned(scan);
              }}
              autoComplete="off"
              spellCheck={false}
              aria-describedby="desk-scan-said"
              className={`${control} font-mono`}
              data-testid="scan"
            />
            <span id="desk-scan-said" role="status" className="min-h-5 text-stone-700">
              {said}
            </span>
          </div>
        ) : null}
      </div>
      <FieldError messages={generalErrors} />
      <DataTable
        caption={`Rows to book: product and ${words.number.toLowerCase()}`}
        rows={rows}
        rowKey={(row) => row.key}
        rowProps={() => ({ "data-testid": "desk-row" })}
        columns={[
          {
            label: "Product (name, SKU or barcode)",
            cell: (row, i) => <ProductLookup index={i} row={row} branchId={branchId} branchName={branchName} messages={rowMessages(errors, i)} onChange={(change) => setRow(row.key, change)} />,
          },
          {
            label: words.number,
            className: "lg:w-36",
            cell: (row, i) => <input name="quantity" value={row.quantity} onChange={(e) => setRow(row.key, { quantity: e.currentTarget.value })} aria-label={`Row ${i + 1} ${words.number.toLowerCase()}`} inputMode="numeric" className={control} />,
          },
          hydrated && {
            label: "Remove",
            header: <span className="sr-only">Remove</span>,
            className: "w-10",
            cell: (row, i) =>
              rows.length > 1 ? (
                <button type="button" onClick={() => setRows((was) => was.filter((r) => r.key !== row.key))} className="btn-secondary min-h-10 px-2" aria-label={`Remove row ${i + 1}`}>
                  ✕
                </button>
              ) : null,
          },
        ]}
      />
      <div className="flex flex-wrap items-center gap-3">
        {hydrated ? (
          <button type="button" className="btn-secondary min-h-10" onClick={() => setRows((was) => [...was, blank()])}>
            Add row
          </button>
        ) : null}
        <button type="submit" className="btn-primary min-h-10" disabled={busy}>
          {busy ? "Booking…" : words.submit}
        </button>
        <span className="text-sm text-stone-700">All rows are booked together, or none.</span>
      </div>
    </Form>
  );
}

/** A row's product: the lookup (a combobox of suggestions) and what it found. */
function ProductLookup({
  index,
  row,
  branchId,
  branchName,
  messages,
  onChange,
}: {
  index: number;
  row: Row;
  branchId: number | undefined;
  branchName: string;
  messages: string[];
  onChange: (change: Partial<Row>) => void;
}) {
  const id = useId();
  const [suggestions, setSuggestions] = useState<Found[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const typed = useRef(false);
  const listId = `${id}-list`;

  useEffect(() => {
    const term = row.sku.trim();
    if (!typed.current || term.length < 2) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      lookup(term, branchId, controller.signal).then((found) => {
        setSuggestions(found);
        setOpen(found.length > 0);
        setActive(-1);
        const exact = found.find((f) => f.exact);
        onChange({ product: exact ? { name: exact.name, stock: exact.stock } : null });
      }, () => undefined);
    }, 200);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
    // onChange is a new function each render; the lookup follows what is typed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [row.sku, branchId]);

  const choose = (f: Found) => {
    typed.current = false;
    onChange({ sku: f.sku, product: { name: f.name, stock: f.stock }, quantity: row.quantity || "" });
    setOpen(false);
  };
  const described = [`${id}-found`, messages.length ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <div className="relative grid">
      <input
        name="sku"
        value={row.sku}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && active >= 0 ? `${id}-opt-${active}` : undefined}
        aria-label={`Row ${index + 1} product`}
        aria-describedby={described}
        aria-invalid={messages.length ? true : undefined}
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => {
          typed.current = true;
          onChange({ sku: e.currentTarget.value, product: null });
        }}
        onKeyDown={(e) => {
          if (!open) return;
          if (e.key === "ArrowDown") {
            e.preventDefault();
            setActive((a) => Math.min(a + 1, suggestions.length - 1));
          } else if (e.key === "ArrowUp") {
            e.preventDefault();
            setActive((a) => Math.max(a - 1, 0));
          } else if (e.key === "Enter" && active >= 0) {
            e.preventDefault();
            choose(suggestions[active]!);
          } else if (e.key === "Escape") {
            setOpen(false);
          }
        }}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        className={`${control} font-mono`}
      />
      <ul id={listId} role="listbox" aria-label={`Products for row ${index + 1}`} hidden={!open} className="absolute left-0 right-0 z-10 mt-1 max-h-64 overflow-y-auto rounded-md border border-stone-300 bg-white shadow-lg">
        {suggestions.map((f, i) => (
          <li
            key={f.sku}
            id={`${id}-opt-${i}`}
            role="option"
            aria-selected={i === active}
            onMouseDown={(e) => {
              e.preventDefault();
              choose(f);
            }}
            className={`cursor-pointer px-3 py-2 ${i === active ? "bg-brand-50" : ""}`}
          >
            <span className="block font-semibold">{f.name}</span>
            <span className="block text-xs text-stone-700">
              <span className="font-mono">{f.sku}</span> · {f.stock} in stock at {branchName}
            </span>
          </li>
        ))}
      </ul>
      <span id={`${id}-found`} className="mt-0.5 block text-xs text-stone-700" aria-live="polite" data-testid="desk-row-product">
        {row.product === "missing" ? "No product has this SKU." : row.product ? `${row.product.name} · ${row.product.stock} in stock at ${branchName}` : ""}
      </span>
      <FieldError id={`${id}-error`} messages={messages} className="mt-0.5 block" />
    </div>
  );
}

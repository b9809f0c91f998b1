import type { ReactNode } from "react";
import { Form } from "react-router";
import type { DeskQuoteJson } from "../../../server/modules/quotes/desk.ts";
import { formatDate } from "../../lib/admin/format.ts";
import { type QuoteFormAnswer, lineField } from "../../lib/admin/quotes.ts";
import { formatPounds } from "../../lib/money.ts";
import { FieldError } from "./field-error.tsx";
import { ADMIN_CONTROL, type FieldErrors, FormField, fieldProps } from "./form-field.tsx";
import { type DataColumn, DataTable } from "./table-or-cards.tsx";

const P = "quote";
const BOX = "rounded-lg border border-stone-200 bg-white p-4";
const SMALL = `${ADMIN_CONTROL} max-w-40`;
const DANGER = "btn justify-self-start border border-red-700 bg-white text-red-800 hover:bg-red-50 disabled:opacity-75";

/** A quote's lines as the desk reads them. */
type DeskLine = DeskQuoteJson["lines"][number];

/** A control of one line, with its accessible name, its error read out after it, and any hint. */
function LineControl({ id, label, errors, hint, children }: { id: string; label: string; errors: string[] | undefined; hint?: ReactNode; children: (props: { id: string; name: string; "aria-label": string; "aria-invalid"?: true; "aria-describedby"?: string }) => ReactNode }) {
  const by = [hint ? `${id}-hint` : "", errors?.length ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <div className="grid content-start gap-1">
      {children({ id, name: id, "aria-label": label, ...(errors?.length ? { "aria-invalid": true } : {}), ...(by ? { "aria-describedby": by } : {}) })}
      {hint ? (
        <span id={`${id}-hint`} className="text-xs text-stone-600">
          {hint}
        </span>
      ) : null}
      <FieldError id={`${id}-error`} messages={errors} />
    </div>
  );
}

/** The lines' columns: each line's fields while the quote may be priced, else what it says. */
function lineColumns(editable: boolean, errors: FieldErrors, typed: (name: string, stored: string) => string): (DataColumn<DeskLine> | false)[] {
  const f = (l: DeskLine, name: Parameters<typeof lineField>[1]) => lineField(l.id, name);
  const price = (l: DeskLine) => (l.unit_price_ex_vat ?? 0).toFixed(2);
  const discount = (l: DeskLine) => (l.discount_percent ? `${l.discount_percent}% off their price` : "Their price");
  return [
    {
      label: "Product",
      head: true,
      cellClassName: "font-normal",
      cell: (l) => (
        <span className="grid min-w-0 gap-0.5 [overflow-wrap:anywhere]">
          <span className="font-semibold">{l.name}</span>
          <span className="font-mono text-xs text-stone-600">{l.sku}</span>
          {editable ? (
            <>
              <input type="hidden" name="line" value={l.id} />
              <input type="hidden" name={f(l, "was_quantity")} value={l.quantity} />
              <input type="hidden" name={f(l, "was_price")} value={price(l)} />
            </>
          ) : null}
          <FieldError messages={errors?.[f(l, "line")]} />
        </span>
      ),
    },
    {
      label: "Quantity",
      cellClassName: "lg:w-28",
      cell: (l) =>
        editable ? (
          <LineControl id={f(l, "quantity")} label={`Quantity of ${l.sku}`} errors={errors?.[f(l, "quantity")]}>
            {(props) => <input {...props} defaultValue={typed(f(l, "quantity"), String(l.quantity))} inputMode="numeric" autoComplete="off" className={SMALL} />}
          </LineControl>
        ) : (
          <span>
            {l.quantity} {l.unit}
          </span>
        ),
    },
    {
      label: "Unit price ex VAT",
      cellClassName: "lg:w-36",
      cell: (l) =>
        editable ? (
          <LineControl id={f(l, "price")} label={`Unit price for ${l.sku} (£ ex VAT)`} errors={errors?.[f(l, "price")]} hint={l.floor_ex_vat === null ? undefined : `Lowest you may quote: ${formatPounds(l.floor_ex_vat)}`}>
            {(props) => <input {...props} defaultValue={typed(f(l, "price"), price(l))} inputMode="decimal" autoComplete="off" className={SMALL} />}
          </LineControl>
        ) : (
          <span>{formatPounds(l.unit_price_ex_vat ?? 0)}</span>
        ),
    },
    {
      label: "Discount %",
      cellClassName: "lg:w-32",
      cell: (l) =>
        editable ? (
          <LineControl id={f(l, "discount")} label={`Discount % for ${l.sku}, off the customer's price (wins over the unit price)`} errors={errors?.[f(l, "discount")]} hint={`Now: ${discount(l).toLowerCase()}`}>
            {(props) => <input {...props} defaultValue={typed(f(l, "discount"), "")} inputMode="decimal" autoComplete="off" className={SMALL} />}
          </LineControl>
        ) : (
          <span>{discount(l)}</span>
        ),
    },
    { label: "Their price", numeric: true, cell: (l) => formatPounds(l.base_price_ex_vat) },
    { label: "Line ex VAT", numeric: true, cell: (l) => formatPounds(l.line_total_ex_vat ?? 0) },
    editable && {
      label: "Remove",
      cell: (l) => (
        <label className="flex min-h-10 items-center gap-2">
          <input type="checkbox" name={f(l, "remove")} defaultChecked={typed(f(l, "remove"), "") === "on"} className="size-4" />
          Remove<span className="sr-only"> {l.sku}</span>
        </label>
      ),
    },
  ];
}

/** Goods, VAT, delivery and the total, as the quote stands (saved). */
function Totals({ quote: q }: { quote: DeskQuoteJson }) {
  return (
    <dl className="grid w-full max-w-sm grid-cols-[minmax(0,1fr)_auto] gap-x-4 gap-y-1 justify-self-end text-sm" data-testid="quote-totals">
      <dt>Goods ex VAT</dt>
      <dd className="text-right">{formatPounds(q.subtotal ?? 0)}</dd>
      <dt>VAT</dt>
      <dd className="text-right">{formatPounds(q.vat ?? 0)}</dd>
      <dt>Delivery{q.delivery === null ? "" : " inc VAT"}</dt>
      <dd className="text-right">{q.delivery === null ? "Usual rates, when accepted" : formatPounds(q.delivery)}</dd>
      <dt className="font-bold">Total</dt>
      <dd className="text-right font-bold">{formatPounds(q.total ?? 0)}</dd>
    </dl>
  );
}

/**
 * The quote's prices and terms as one form (intent `save`): each line's
 * quantity, unit price ex VAT or a discount off the customer's own price
 * (a discount typed wins), and removal; lines to add by SKU; delivery, the
 * last day and terms. Read-only words instead when the quote can no longer be
 * changed or the member may not change quotes. A refused save shows what was
 * typed, each error beside its field.
 */
export function QuoteForm({ quote: q, answer, canManage, busy, validDays }: { quote: DeskQuoteJson; answer: QuoteFormAnswer | undefined; canManage: boolean; busy: boolean; validDays: number }) {
  const refused = answer && !answer.ok ? answer : undefined;
  const errors: FieldErrors = refused?.errors;
  const typed = (name: string, stored: string) => (refused?.intent === "save" ? (refused.values[name] ?? (name.endsWith("_remove") ? "" : stored)) : stored);
  const editable = canManage && q.can.edit;
  const next = q.status === "sent" || q.status === "expired" ? `Saving starts revision ${q.revision + 1}, drafting: the customer keeps revision ${q.revision} until you send it again.` : q.status === "requested" ? "Saving moves it to Drafting." : null;
  const field = (id: string, hint = false) => fieldProps(P, id, errors, hint);

  return (
    <Form method="post" noValidate className="grid gap-4" aria-labelledby="quote-lines-heading">
      <input type="hidden" name="intent" value="save" />
      <section aria-labelledby="quote-lines-heading" className="grid min-w-0 gap-2">
        <h2 id="quote-lines-heading" className="text-lg font-bold">
          Lines and prices
        </h2>
        {editable ? <p className="text-sm text-stone-600">Unit prices are ex VAT. A discount typed takes that percentage off the customer's own price, and wins over the unit price.</p> : null}
        <FieldError id="quote-lines-error" messages={errors?.lines} />
        <DataTable caption={`The quote's lines${editable ? ", each with its quantity, unit price and discount to change" : ""}`} columns={lineColumns(editable, errors, typed)} rows={q.lines} rowKey={(l) => l.id} />
        <Totals quote={q} />
      </section>

      {editable ? (
        <fieldset className={`${BOX} grid gap-4 sm:grid-cols-2`}>
          <legend className="px-1 text-lg font-bold">More lines, delivery and terms</legend>
          <FormField prefix={P} id="add_lines" label="Add lines" errors={errors} hint="A SKU and how many, one a line: “DR-1001 3”. They start at the customer's own price." className="sm:col-span-2">
            <textarea {...field("add_lines", true)} defaultValue={typed("add_lines", "")} rows={3} spellCheck={false} className={`${ADMIN_CONTROL} py-2 font-mono`} />
          </FormField>
          <FormField prefix={P} id="delivery_ex_vat" label="Delivery ex VAT (£)" errors={errors} hint="Blank: the usual delivery rates, worked out when the customer accepts.">
            <input {...field("delivery_ex_vat", true)} defaultValue={typed("delivery_ex_vat", q.delivery_ex_vat === null ? "" : q.delivery_ex_vat.toFixed(2))} inputMode="decimal" autoComplete="off" className={ADMIN_CONTROL} />
          </FormField>
          <FormField prefix={P} id="valid_until" label="Valid until" errors={errors} hint={`The last day the customer may accept it. Blank: ${validDays} days from the day it is sent.`}>
            <input {...field("valid_until", true)} type="date" defaultValue={typed("valid_until", q.valid_until ?? "")} className={ADMIN_CONTROL} />
          </FormField>
          <FormField prefix={P} id="terms" label="Terms" errors={errors} hint="Printed on the quote and its PDF." className="sm:col-span-2">
            <textarea {...field("terms", true)} defaultValue={typed("terms", q.terms)} rows={3} maxLength={4000} className={`${ADMIN_CONTROL} py-2`} />
          </FormField>
          <div className="grid gap-2 sm:col-span-2">
            <button type="submit" className="btn-primary justify-self-start disabled:opacity-75" disabled={busy}>
              {busy ? "Saving…" : "Save"}
            </button>
            {next ? <p className="text-sm text-stone-600">{next}</p> : null}
          </div>
        </fieldset>
      ) : (
        <section aria-labelledby="quote-terms-heading" className={`${BOX} grid gap-2 text-sm`}>
          <h2 id="quote-terms-heading" className="text-lg font-bold">
            Delivery and terms
          </h2>
          <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1">
            <dt className="font-semibold">Delivery ex VAT</dt>
            <dd>{q.delivery_ex_vat === null ? "The usual rates" : formatPounds(q.delivery_ex_vat)}</dd>
            <dt className="font-semibold">Valid until</dt>
            <dd>{q.valid_until ? formatDate(q.valid_until) : `Not set (${validDays} days from sending)`}</dd>
            <dt className="font-semibold">Terms</dt>
            <dd className="whitespace-pre-line [overflow-wrap:anywhere]">{q.terms || "None"}</dd>
          </dl>
          <p className="text-stone-700">{canManage ? `This quote is ${q.status_label.toLowerCase()}: it can no longer be changed.` : "Your role may read quotes but not change them."}</p>
        </section>
      )}
    </Form>
  );
}

/**
 * Sending (the PDF emailed, its prices held until the last day) and declining
 * (with the reason the customer is told), each a plain form; only the moves
 * the quote's status allows.
 */
export function QuoteMoves({ quote: q, answer, busyWith, validDays }: { quote: DeskQuoteJson; answer: QuoteFormAnswer | undefined; busyWith: string; validDays: number }) {
  if (!q.can.send && !q.can.decline) return null;
  const refused = answer && !answer.ok && answer.intent === "decline" ? answer : undefined;
  const errors: FieldErrors = refused?.errors;
  return (
    <section aria-labelledby="quote-moves-heading" className={`${BOX} grid gap-4 md:grid-cols-2`}>
      <h2 id="quote-moves-heading" className="text-lg font-bold md:col-span-2">
        {q.can.send && q.can.decline ? "Send or decline" : q.can.send ? "Send" : "Decline"}
      </h2>
      {q.can.send ? (
        <Form method="post" className="grid content-start gap-3" aria-label="Send to the customer">
          <input type="hidden" name="intent" value="send" />
          <p className="text-sm">
            Emails {q.customer.email} the quote as a PDF, with a link to accept it.{" "}
            {q.valid_until ? `Its prices hold until ${formatDate(q.valid_until)}.` : `No last day is set, so its prices hold for ${validDays} days from today.`} Save any changes first.
          </p>
          <button type="submit" className="btn-primary justify-self-start disabled:opacity-75" disabled={busyWith !== ""}>
            {busyWith === "send" ? "Sending…" : "Send to customer"}
          </button>
        </Form>
      ) : null}
      {q.can.decline ? (
        <Form method="post" noValidate className="grid content-start gap-3" aria-label="Decline the quote">
          <input type="hidden" name="intent" value="decline" />
          <FormField prefix="decline" id="reason" label="Why it is declined (the customer is told)" errors={errors}>
            <textarea {...fieldProps("decline", "reason", errors)} defaultValue={refused?.values.reason ?? ""} rows={2} maxLength={1000} required className={`${ADMIN_CONTROL} py-2`} />
          </FormField>
          <button type="submit" className={DANGER} disabled={busyWith !== ""}>
            {busyWith === "decline" ? "Declining…" : "Decline"}
          </button>
        </Form>
      ) : null}
    </section>
  );
}

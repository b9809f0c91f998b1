// The quotes desk's forms to the service's calls (server only). Lines are
// typed as `SKU quantity`, one a line, read by the quick-order pad's own
// parser; a save sends a line's price or quantity only where the member
// changed it (a price left alone is not judged by their floor again), and a
// discount typed wins over the price. Each is checked by the API's own schema,
// then by the service, which authorises, checks the rest and audits; a
// refusal comes back with each error on the form's own field, and the form as
// typed.
import { ValidationError, parseInput } from "../../../server/http-errors.ts";
import { type PastedLine, parseQuickOrder } from "../../../server/modules/basket/quick-order-text.ts";
import { quoteCreateBody, quoteDeclineBody, quotePatchBody } from "../../../server/modules/quotes/contract.ts";
import type { DeskQuoteJson, QuoteDesk } from "../../../server/modules/quotes/desk.ts";
import { MAX_QUOTE_LINES } from "../../../server/modules/quotes/lines.ts";
import type { StaffActor } from "../../../server/modules/staff/actor.ts";
import { serviceError } from "./access.ts";
import { type QuoteFormAnswer, lineField } from "./quotes.ts";
import { penceOf } from "./returns.ts";

type Errors = Record<string, string[]>;
type Refusal = Extract<QuoteFormAnswer, { ok: false }>;
export type QuoteFormResult = { ok: true; quote: DeskQuoteJson } | Refusal;

const CHECK_BELOW = "Nothing was saved. Check the fields marked below.";

/** The form's text fields as typed (cut to a sane length), to show again beside a refusal's errors. */
function valuesOf(form: FormData): Record<string, string> {
  return Object.fromEntries([...form.entries()].flatMap(([k, v]) => (typeof v === "string" && k.length <= 40 ? [[k, v.slice(0, 10_000)]] : [])).slice(0, 4 * MAX_QUOTE_LINES + 20));
}

/** Lines typed as `SKU quantity`: what the API takes, and the lines as typed (to name them in errors). */
function typedLines(typed: string): { lines: { sku: string; quantity: number }[]; pasted: PastedLine[]; error: string | null } {
  const parsed = parseQuickOrder(typed);
  if (!parsed.ok) return { lines: [], pasted: [], error: `A quote has at most ${MAX_QUOTE_LINES} lines.` };
  // A quantity that is not a whole number goes on as NaN, for the schema to refuse beside its line.
  return { lines: parsed.lines.map((l) => ({ sku: l.sku, quantity: typeof l.quantity === "number" ? l.quantity : Number.NaN })), pasted: parsed.lines, error: null };
}

/** `lines.3.sku` and the like, for a textarea of typed lines: onto the box itself, each message naming its line as typed. */
function ontoTyped(errors: Errors, field: string, pasted: PastedLine[]): Errors {
  const out: Errors = {};
  for (const [key, messages] of Object.entries(errors)) {
    const m = new RegExp(`^${field}\\.(\\d+)\\.(\\w+)$`).exec(key);
    const line = m ? pasted[Number(m[1])] : undefined;
    if (!m || !line) {
      (out[key] ??= []).push(...messages);
      continue;
    }
    const said = m[2] === "quantity" && typeof line.quantity === "string" ? [`the quantity “${line.quantity}” is not a whole number.`] : messages;
    (out[field] ??= []).push(...said.map((message) => `Line ${line.row} (${line.sku || "no SKU"}): ${message}`));
  }
  return out;
}

/**
 * A refusal from what was thrown (a schema's or the service's 4xx): errors on
 * the form's own fields (`onto`); those the form has no place for (`shown`
 * says which it has) are said in the banner after its `lead`.
 */
function refusal(intent: string, error: unknown, values: Record<string, string>, how: { lead: string; onto?: (errors: Errors) => Errors; shown: (field: string) => boolean }): Refusal {
  const known = serviceError(error);
  if (!known) throw error;
  const errors = how.onto ? how.onto(known.errors ?? {}) : (known.errors ?? {});
  const elsewhere = Object.entries(errors).flatMap(([field, messages]) => (how.shown(field) ? [] : messages));
  return { intent, ok: false, status: known.status, message: known.errors ? [how.lead, ...elsewhere].join(" ") : known.message, errors, values };
}

const NEW_FIELDS = ["customer_email", "lines", "notes", "needed_by"];

/** The new quote's form: a customer by email, lines typed, notes and the date needed by. */
export async function createQuote(desk: QuoteDesk, actor: StaffActor, form: FormData): Promise<QuoteFormResult> {
  const values = valuesOf(form);
  const typed = typedLines(values.lines ?? "");
  try {
    if (typed.error) throw new ValidationError({ lines: [typed.error] });
    const input = parseInput(quoteCreateBody, { customer_email: values.customer_email ?? "", lines: typed.lines, notes: values.notes ?? "", needed_by: values.needed_by ?? "" });
    return { ok: true, quote: await desk.create(actor, input) };
  } catch (error) {
    return refusal("create", error, values, { lead: CHECK_BELOW, onto: (e) => ontoTyped(e, "lines", typed.pasted), shown: (f) => NEW_FIELDS.includes(f) });
  }
}

/** The line fields a save's errors land on, by the API's names. */
const LINE_FIELDS = { unit_price_ex_vat: "price", discount_percent: "discount", quantity: "quantity", line_id: "line", remove: "line" } as const;
/** The save form's own fields; a line's own error (one removed meanwhile) is said in the banner too. */
const SAVE_FIELDS = ["lines", "add_lines", "delivery_ex_vat", "valid_until", "terms"];

/**
 * The quote's form: per line (`line` names each id) its quantity, unit price
 * or discount, and removal; lines to add; delivery (blank: the usual rates),
 * the last day and terms. Only what changed from what the form showed is sent for a line.
 */
export async function saveQuote(desk: QuoteDesk, actor: StaffActor, number: string, form: FormData): Promise<QuoteFormResult> {
  const values = valuesOf(form);
  const field = (id: string, name: Parameters<typeof lineField>[1]) => (values[lineField(id, name)] ?? "").trim();
  const ids = [...new Set(form.getAll("line").map(String))].filter((id) => /^\d{1,10}$/.test(id)).slice(0, MAX_QUOTE_LINES);
  const changed: string[] = [];
  const lines = ids.flatMap((id) => {
    const change: Record<string, unknown> = {};
    const remove = form.has(lineField(id, "remove"));
    if (remove) change.remove = true;
    const discount = field(id, "discount").replace(/[%\s]/g, "");
    if (discount !== "") change.discount_percent = Number(discount);
    else {
      const price = penceOf(field(id, "price"));
      // Unreadable or blank: NaN, for the schema to refuse beside the line (unless it is being removed).
      if (price === null || Number.isNaN(price)) {
        if (!remove) change.unit_price_ex_vat = Number.NaN;
      } else if (price !== penceOf(field(id, "was_price"))) change.unit_price_ex_vat = price / 100;
    }
    if (field(id, "quantity") !== field(id, "was_quantity") && !remove) change.quantity = Number(field(id, "quantity"));
    if (!Object.keys(change).length) return [];
    changed.push(id);
    return [{ line_id: Number(id), ...change }];
  });
  const added = typedLines(values.add_lines ?? "");
  try {
    if (added.error) throw new ValidationError({ add_lines: [added.error] });
    const delivery = form.has("delivery_ex_vat") ? penceOf(values.delivery_ex_vat ?? "") : undefined;
    const patch = parseInput(quotePatchBody, {
      ...(lines.length ? { lines } : {}),
      ...(added.lines.length ? { add_lines: added.lines } : {}),
      ...(delivery !== undefined ? { delivery_ex_vat: delivery === null ? null : delivery / 100 } : {}),
      ...(values.valid_until?.trim() ? { valid_until: values.valid_until.trim() } : {}),
      ...(form.has("terms") ? { terms: values.terms ?? "" } : {}),
    });
    return { ok: true, quote: await desk.update(actor, number, patch) };
  } catch (error) {
    const onto = (errors: Errors) => {
      const out: Errors = {};
      for (const [key, messages] of Object.entries(ontoTyped(errors, "add_lines", added.pasted))) {
        const m = /^lines\.(\d+)\.(\w+)$/.exec(key);
        const id = m ? changed[Number(m[1])] : undefined;
        const name = m ? LINE_FIELDS[m[2] as keyof typeof LINE_FIELDS] : undefined;
        (out[id && name ? lineField(id, name) : key] ??= []).push(...messages);
      }
      return out;
    };
    return refusal("save", error, values, { lead: CHECK_BELOW, onto, shown: (f) => SAVE_FIELDS.includes(f) || /^line_\d+_(quantity|price|discount)$/.test(f) });
  }
}

/** Sending it: the PDF emailed, the version kept as a revision. */
export async function sendQuote(desk: QuoteDesk, actor: StaffActor, number: string): Promise<QuoteFormResult> {
  try {
    return { ok: true, quote: await desk.send(actor, number) };
  } catch (error) {
    // Its errors (no lines, the last day passed) are the save form's fields: the banner says them too.
    return refusal("send", error, {}, { lead: "Not sent.", shown: () => false });
  }
}

/** Declining it, with the reason the customer is told. */
export async function declineQuote(desk: QuoteDesk, actor: StaffActor, number: string, form: FormData): Promise<QuoteFormResult> {
  const values = valuesOf(form);
  try {
    const { reason } = parseInput(quoteDeclineBody, { reason: values.reason ?? "" });
    return { ok: true, quote: await desk.decline(actor, number, reason) };
  } catch (error) {
    return refusal("decline", error, values, { lead: "Not declined: say why below.", shown: (f) => f === "reason" });
  }
}

// The audit log in the shop's words (issue 34): what happened as a sentence
// ("Payment of £237.58 recorded against INV-000043"), fields by their names,
// money in pounds, statuses by their labels, lists as lists and days as
// "27 Nov 2026". Entries are stored as the services wrote them, so old
// entries read the same way; this file is the one place that knows which
// fields hold pence and which hold pounds.
import { STATUS_LABELS } from "../../../server/modules/orders/statuses.ts";
import { formatPence, formatPounds } from "../money.ts";
import { formatDay } from "./format.ts";

type Values = Record<string, unknown> | null;

/** Fields written in pence (integers), by action: the trade ledger's amounts. Every other money field is in pounds. */
const PENCE: Record<string, readonly string[]> = {
  "trade_account.payment": ["amount"],
  "trade_account.remittance_confirmed": ["amount"],
  "trade_account.credit_note": ["total", "applied"],
  "trade_account.terms": ["credit_limit"],
  "trade_account.credit_allocation": ["from.amount"],
};

/** Fields that hold pounds (numbers with pence after the point). */
const POUNDS = new Set(["amount", "refund", "refunded", "closing_balance", "paid_amount", "price", "total", "balance", "deposit", "credit_limit", "value"]);

const FIELD_NAMES: Record<string, string> = {
  discount_basis_points: "trade discount",
  terms_days: "payment terms",
  po_required: "PO required",
  remittances_confirmed: "remittances confirmed",
  tracking_number: "tracking number",
  paid_on: "received on",
  paid_amount: "amount received",
  payment_reference: "reference",
  entity_id: "record",
};

/** Actions whose name alone would read as code. */
const ACTION_NAMES: Record<string, string> = {
  "order.transition": "Order status changed",
  "return.transition": "Return status changed",
  "order.created_by_staff": "Order taken by staff",
  "order.price_changed": "Price changed on an order",
  "trade_account.payment": "Trade payment recorded",
  "set_vat": "VAT rate set",
  "price_percent": "Prices changed by a percentage",
  "move_category": "Products moved to a category",
};

/** `trade_account.credit_note` → "Trade account: credit note", for actions without a name of their own. */
export function actionWords(action: string): string {
  if (ACTION_NAMES[action]) return ACTION_NAMES[action];
  const [entity, verb] = action.includes(".") ? action.split(".", 2) : ["", action];
  const words = (s: string) => s.replaceAll("_", " ");
  const head = entity ? `${words(entity).charAt(0).toUpperCase()}${words(entity).slice(1)}: ` : "";
  const tail = words(verb ?? "");
  return head ? `${head}${tail}` : `${tail.charAt(0).toUpperCase()}${tail.slice(1)}`;
}

export function fieldWords(field: string): string {
  return FIELD_NAMES[field] ?? field.replaceAll("_", " ");
}

const isPence = (action: string, path: string) => PENCE[action]?.includes(path) ?? false;

/** One value in words: money, a status label, a day, yes/no; a list or a record as text. */
export function valueWords(action: string, path: string, value: unknown): string {
  if (value === null || value === undefined || value === "") return "none";
  const field = path.split(".").at(-1) ?? path;
  if (typeof value === "number") {
    if (isPence(action, path)) return formatPence(value);
    if (POUNDS.has(field)) return formatPounds(value);
    if (field === "discount_basis_points") return `${value / 100}%`;
    if (field === "terms_days") return `${value} days`;
    return value.toLocaleString("en-GB");
  }
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "string") {
    if (field === "status" || field === "from_status" || field === "to_status") return STATUS_LABELS[value as keyof typeof STATUS_LABELS] ?? value.replaceAll("_", " ");
    if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return formatDay(value);
    return value;
  }
  if (Array.isArray(value)) return value.length ? value.map((v) => valueWords(action, path, v)).join("; ") : "none";
  if (typeof value === "object") {
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${fieldWords(k)} ${valueWords(action, `${path}.${k}`, v)}`)
      .join(", ");
  }
  return String(value);
}

/** The entry as one sentence where the shop has words for it; null for the rest (their fields are listed). */
export function auditSentence(e: { action: string; entity_id: string; before: Values; after: Values }): string | null {
  const a = e.after ?? {};
  const b = e.before ?? {};
  const money = (path: string) => valueWords(e.action, path, a[path]);
  switch (e.action) {
    case "trade_account.payment": {
      const allocations = Array.isArray(a.allocations) ? (a.allocations as { invoice?: string; invoice_number?: string; amount?: number }[]) : [];
      const against = allocations
        .map((x) => `${x.amount !== undefined ? formatPounds(x.amount) : ""} against ${x.invoice ?? x.invoice_number ?? "an invoice"}`.trim())
        .join(", ");
      return `Payment of ${money("amount")} recorded${a.payment ? ` (${String(a.payment)})` : ""}${a.reference ? `, reference ${String(a.reference)}` : ""}${against ? `: ${against}` : ""}.`;
    }
    case "trade_account.remittance_confirmed":
      return `Remittance ${String(a.remittance ?? "")} of ${money("amount")} confirmed.`;
    case "trade_account.credit_note":
      return `Credit note ${String(a.credit_note ?? "")} for ${money("total")} against ${String(a.invoice ?? "")}${a.reason ? `: ${String(a.reason)}` : ""}.`;
    case "order.transition": {
      const to = valueWords(e.action, "status", a.status);
      const from = b.status ? valueWords(e.action, "status", b.status) : null;
      const paid = a.paid_amount !== undefined && a.paid_amount !== null ? `: ${money("paid_amount")} received${a.paid_on ? ` on ${valueWords(e.action, "paid_on", a.paid_on)}` : ""}${a.payment_reference ? `, reference ${String(a.payment_reference)}` : ""}` : "";
      return `Order ${e.entity_id} ${from ? `moved from ${from} to ${to}` : `moved to ${to}`}${paid}.`;
    }
    case "order.refund":
      return `Refund of ${valueWords(e.action, "refund", a.refund)} to the card${a.reason ? `: ${String(a.reason)}` : ""}.`;
    case "order.note":
      return `Note added to order ${e.entity_id}.`;
    case "invoice.paid":
      return `Invoice ${e.entity_id} marked paid.`;
    default:
      return null;
  }
}

/** The fields an entry changed, in words: `[name, before, after]`, before null for a new record. Fields the sentence already says are kept: the list is the record. */
export function changedFields(e: { action: string; before: Values; after: Values }): [string, string | null, string][] {
  const fields = [...new Set([...Object.keys(e.before ?? {}), ...Object.keys(e.after ?? {})])];
  return fields
    .filter((f) => JSON.stringify(e.before?.[f] ?? null) !== JSON.stringify(e.after?.[f] ?? null) || !e.before)
    .map((f) => [fieldWords(f), e.before ? valueWords(e.action, f, e.before[f]) : null, valueWords(e.action, f, e.after?.[f])]);
}

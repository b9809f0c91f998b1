// A quote's life (issue 32), as a transition table like the orders' and the
// returns': which action may move a quote from which status, and to what.
// Plain data, shared by the server and the screens.
import { labelledList } from "../../lib/labelled.ts";

export const { values: QUOTE_STATUSES, labels: QUOTE_STATUS_LABELS } = labelledList({
  requested: "Requested",
  drafting: "Drafting",
  sent: "Sent",
  accepted: "Accepted",
  declined: "Declined",
  expired: "Expired",
});
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

/**
 * What may be done to a quote in each status:
 * - `edit` (staff): prices, lines, delivery, validity, terms. A sent or expired quote edited becomes the next revision, drafting.
 * - `send` (staff): the PDF and the email; needs lines and a validity date from today.
 * - `accept` (the customer): an order at the quoted prices, once, until its last day.
 * - `changes` (the customer): asks for a new revision of a sent quote.
 * - `decline` (either side, with a reason).
 * - `expire` (the daily job): a sent quote past its last day.
 */
export const QUOTE_TRANSITIONS = {
  edit: { from: ["requested", "drafting", "sent", "expired"], to: "drafting" },
  send: { from: ["requested", "drafting"], to: "sent" },
  accept: { from: ["sent"], to: "accepted" },
  changes: { from: ["sent"], to: "requested" },
  decline: { from: ["requested", "drafting", "sent"], to: "declined" },
  expire: { from: ["sent"], to: "expired" },
} as const satisfies Record<string, { from: readonly QuoteStatus[]; to: QuoteStatus }>;
export type QuoteAction = keyof typeof QUOTE_TRANSITIONS;

export function quoteMay(action: QuoteAction, status: string): boolean {
  return (QUOTE_TRANSITIONS[action].from as readonly string[]).includes(status);
}

/** The desk's tabs: the work waiting first. */
export const QUOTE_DESK_TABS: readonly QuoteStatus[] = ["requested", "drafting", "sent", "accepted", "declined", "expired"];

/** A sent version as kept in quote_revisions: what the customer was shown. Pence ex VAT. */
export interface QuoteSnapshot {
  lines: { sku: string; name: string; unit: string; quantity: number; unit_price: number; base_price: number; vat_rate: number }[];
  delivery_ex_vat: number | null;
  valid_until: string;
  terms: string;
}

export const quoteNumberPattern = /^Q-\d{6,}$/;

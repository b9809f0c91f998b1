// The customer's quotes on the storefront (issue 32): what the list and the
// quote's page read, and the words they show. The shapes are the API's own
// (server/modules/quotes/read.ts), imported as types only: no server code
// reaches the browser.
import type { CustomerQuoteJson } from "../../server/modules/quotes/service.ts";
import type { QuoteSummaryJson } from "../../server/modules/quotes/read.ts";
import type { QuoteStatus } from "../../server/modules/quotes/statuses.ts";
import type { QuoteAcceptance } from "../../server/modules/quotes/accept.ts";
import type { PaymentOffer } from "../../server/modules/checkout/payment.ts";
import { addDays, formatLongDate } from "./hire.ts";

export type { CustomerQuoteJson, QuoteSummaryJson, QuoteStatus };

/** A quote as its page holds it: the API's, without the email address of whoever asked (the page never shows it, and a colleague may not read it). */
export type QuoteView = Omit<CustomerQuoteJson, "customer"> & { customer: { id: number; name: string } };

export function quoteView(quote: CustomerQuoteJson): QuoteView {
  return { ...quote, customer: { id: quote.customer.id, name: quote.customer.name } };
}

/** Shown wherever a figure is not the shop's word yet (requested, drafting). */
export const BEING_PRICED = "Being priced";
/** Delivery the quote leaves to the shop's usual price for the method and postcode. */
export const USUAL_DELIVERY = "At our usual rates";
/** Why a trade accounts user reads a colleague's quote without the buttons. */
export const READ_ONLY = "Only the buyer who asked, or an owner or admin of your company, can answer this quote.";

/** What each status means to the customer, and its badge's colours. */
export const QUOTE_STATUS: Record<QuoteStatus, { meaning: string; tone: string }> = {
  requested: { meaning: "We have your request and will price it. We will email you when the quote is ready.", tone: "bg-amber-100 text-amber-900" },
  drafting: { meaning: "We are pricing it now. We will email you when the quote is ready.", tone: "bg-amber-100 text-amber-900" },
  sent: { meaning: "Priced and sent to you. Accept it by its last day to order at these prices, ask for changes, or decline it.", tone: "bg-sky-100 text-sky-900" },
  accepted: { meaning: "Accepted: it became an order at the quoted prices.", tone: "bg-green-100 text-green-900" },
  declined: { meaning: "Declined: it can no longer be accepted.", tone: "bg-stone-200 text-stone-900" },
  expired: { meaning: "Expired: its last day has passed, so its prices no longer hold. Ask for a new quote from your basket.", tone: "bg-red-100 text-red-900" },
};

/** The statuses in which someone may still answer the quote (accept, ask for changes or decline). */
const OPEN: readonly QuoteStatus[] = ["requested", "drafting", "sent"];

/**
 * A quote the viewer may only read: it is still open, yet they may do nothing
 * with it (the one who asked, an owner or an admin may always decline an open quote).
 */
export function readOnlyFor(quote: Pick<QuoteView, "status" | "can">): boolean {
  return OPEN.includes(quote.status) && !quote.can.accept && !quote.can.decline && !quote.can.changes;
}

/** How close a sent quote is to its last day: a warning within 3 days, a refusal once it has passed. */
export function validityWarning(quote: Pick<QuoteView, "status" | "valid_until" | "past_valid_until">, today: string): string | null {
  if (quote.status !== "sent" || !quote.valid_until) return null;
  if (quote.past_valid_until || quote.valid_until < today) return "This quote's last day has passed: it can no longer be accepted. Ask for changes to have it priced again.";
  if (quote.valid_until === today) return "Today is this quote's last day: accept it today to order at these prices.";
  if (quote.valid_until <= addDays(today, 3)) return `This quote ends soon: accept it by ${formatLongDate(quote.valid_until)} to order at these prices.`;
  return null;
}

/** A quote's page. */
export const quoteHref = (number: string) => `/account/quotes/${number}`;

/** The PDF of the latest sent version, or of one revision. */
export const quotePdfHref = (number: string, revision?: number) => `/api/quotes/${number}/pdf${revision ? `?revision=${revision}` : ""}`;

/** The confirmations a quote's page shows after a write, by the `done` its redirect carries. */
export const QUOTE_DONE = {
  requested: (number: string) => `We have your quote request ${number}; we will email you when it is priced. Your basket has been emptied: the quote holds its lines.`,
  changes: () => "We have your changes: we will price the quote again and email you when the new version is ready.",
  declined: () => "You declined this quote. Thank you for letting us know.",
} as const;
export type QuoteDone = keyof typeof QUOTE_DONE;

export function isQuoteDone(value: string | null): value is QuoteDone {
  return value !== null && Object.hasOwn(QUOTE_DONE, value);
}

/** The delivery methods, payment methods and collection branches a quote may be accepted with (GET /api/quotes/{number}/delivery-options). */
export type AcceptOptions = Omit<Awaited<ReturnType<QuoteAcceptance["options"]>>["data"], "payment"> & { payment: PaymentOffer[] };

// The quote screens' writes (issue 32), on the server: the basket's "Request a
// quote", and the quote page's accept, ask for changes and decline. Plain form
// posts, so they work without scripts; each goes through the same services as
// the JSON API (/api/quotes…), its input checked by the API's own schemas, and
// the service has the last word on who may do what. A refusal comes back with
// its message, each field's errors and the form as sent.
import { redirect, redirectDocument } from "react-router";
import type { AppContext } from "#app-context";
import { type FieldErrors, parseInput } from "../../server/http-errors.ts";
import { ukPostcode } from "../../server/modules/account/contract.ts";
import type { PriceChangedError } from "../../server/modules/checkout/types.ts";
import { quoteAcceptBody, quoteChangesBody, quoteDeclineBody, quoteNumberParams, quoteRequestBody } from "../../server/modules/quotes/contract.ts";
import { serviceError } from "./admin/access.ts";
import { CHECK_BELOW, customerRefusal, signedInPoster } from "./customer-forms.server.ts";
import { text } from "./form-result.ts";
import { formatPounds } from "./money.ts";
import { notFound } from "./not-found.ts";
import { type AcceptOptions, type QuoteDone, quoteHref } from "./quotes.ts";

/** What a refused write hands back to its form. */
export interface QuoteFormFailure {
  intent: "request" | "accept" | "changes" | "decline";
  message: string;
  errors: FieldErrors;
  /** The form as sent, so nothing typed is lost. */
  values: Record<string, string>;
  /** Accepting: the delivery prices for the address given, when they changed the total. */
  repriced?: { options: AcceptOptions; priced_for: string };
}

/** What a service refused, as the quote's form shows it. */
function refusal(error: unknown, intent: QuoteFormFailure["intent"], values: Record<string, string>, fields: readonly string[]): QuoteFormFailure {
  return { intent, ...customerRefusal(error, values, fields) };
}

/** The string values of a form, for showing it again. */
function valuesOf(form: FormData, leave: readonly string[] = []): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of form) if (typeof value === "string" && !leave.includes(name)) values[name] = value;
  return values;
}

/** The basket page's "Request a quote": a quote of the basket's lines, then its page with the confirmation. */
export async function requestQuote(app: AppContext, request: Request): Promise<QuoteFormFailure> {
  const userId = signedInPoster(app, request);
  const form = await request.formData();
  const values = { notes: text(form, "notes"), needed_by: text(form, "needed_by"), site_id: text(form, "site_id") };
  const site = Number(values.site_id);
  let number: string;
  try {
    const input = parseInput(quoteRequestBody, { notes: values.notes, needed_by: values.needed_by, ...(values.site_id ? { site_id: Number.isSafeInteger(site) ? site : -1 } : {}) });
    number = (await app.services.quotes.request(userId, input)).number;
  } catch (error) {
    // Said in full at the top of the basket page: its form shows only while the basket has lines.
    const failed = refusal(error, "request", values, ["notes", "needed_by", "site_id"]);
    const fields = Object.values(failed.errors).flat();
    return fields.length ? { ...failed, message: [...fields, ...(failed.message === CHECK_BELOW ? [] : [failed.message])].join(" ") } : failed;
  }
  throw redirect(doneHref(number, "requested"));
}

const doneHref = (number: string, done: QuoteDone) => `${quoteHref(number)}?done=${done}`;

/** A quote's page: its number from the path, or the page is not found. */
export function quoteNumberOf(params: { number?: string }): string {
  const parsed = quoteNumberParams.safeParse({ number: (params.number ?? "").toUpperCase() });
  if (!parsed.success) notFound();
  return parsed.data.number;
}

/** A postcode as the delivery options take it, or null. */
export function postcodeOrNull(value: string | null | undefined): string | null {
  const parsed = ukPostcode.safeParse(value ?? "");
  return parsed.success ? parsed.data : null;
}

const ACCEPT_FIELDS = ["delivery_method", "branch_id", "payment_method", "site_id", "po_reference", "notes", "delivery_address"] as const;
const ADDRESS_FIELDS = ["line_1", "line_2", "line_3", "town", "county", "postcode"] as const;
const KEY = /^[A-Za-z0-9_-]{8,100}$/;

/** The quote page's writes, by the form's `intent`. */
export async function quoteAction(app: AppContext, request: Request, number: string): Promise<QuoteFormFailure> {
  const userId = signedInPoster(app, request);
  const form = await request.formData();
  const intent = text(form, "intent");
  /** Asking for changes or declining: the one field checked by the API's schema, the service's word, then the page saying what happened. */
  async function answer(values: Record<string, string>, done: QuoteDone, run: () => Promise<unknown>): Promise<QuoteFormFailure> {
    try {
      await run();
    } catch (error) {
      return refusal(error, intent === "changes" ? "changes" : "decline", values, Object.keys(values));
    }
    throw redirect(doneHref(number, done));
  }
  if (intent === "changes") {
    const values = { message: text(form, "message") };
    return answer(values, "changes", () => app.services.quotes.askForChanges(userId, number, parseInput(quoteChangesBody, values).message));
  }
  if (intent === "decline") {
    const values = { reason: text(form, "reason") };
    return answer(values, "declined", () => app.services.quotes.decline(userId, number, parseInput(quoteDeclineBody, values).reason));
  }
  if (intent === "accept") return accept(app, userId, number, form);
  return { intent: "accept", message: "Choose what to do with the quote.", errors: {}, values: {} };
}

/**
 * Accepting: checkout's fields to the acceptance service, with the total the
 * page showed (the quoted goods and the delivery as priced for the postcode it
 * showed), so a delivery priced otherwise for the address given is shown and
 * confirmed first. The form's key makes a second post of the same form the same order.
 */
async function accept(app: AppContext, userId: number, number: string, form: FormData): Promise<QuoteFormFailure> {
  const values = valuesOf(form, ["idempotency_key", "intent"]);
  const key = text(form, "idempotency_key");
  const acceptance = app.services.quoteAcceptance;
  const method = text(form, "delivery_method");
  const address = Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, text(form, `delivery_${f}`)])) as Record<(typeof ADDRESS_FIELDS)[number], string>;
  try {
    const quote = await app.services.quotes.get(userId, number);
    const shown = (await acceptance.options(userId, number, postcodeOrNull(text(form, "priced_for")))).data;
    const chosen = shown.delivery.find((d) => d.id === method);
    const collecting = chosen?.kind === "collect";
    const branch = Number(text(form, "branch_id"));
    const site = Number(text(form, "site_id"));
    const input = parseInput(quoteAcceptBody, {
      delivery_method: method,
      payment_method: text(form, "payment_method"),
      ...(Number.isSafeInteger(site) && site > 0 ? { site_id: site } : {}),
      notes: text(form, "notes"),
      po_reference: text(form, "po_reference"),
      ...(collecting ? { branch_id: Number.isSafeInteger(branch) && branch > 0 ? branch : undefined } : { delivery_address: { name: app.user!.name, ...address } }),
      ...(chosen && quote.subtotal !== null && quote.vat !== null ? { expected_total: Math.round((quote.subtotal + quote.vat + chosen.price) * 100) / 100 } : {}),
    });
    const done = await acceptance.accept(userId, number, input, KEY.test(key) ? key : null);
    if (done.payment) throw redirectDocument(done.payment.redirect_url);
    throw redirect(done.order.redirect);
  } catch (error) {
    // Checkout's PriceChangedError, known by its shape: the storefront's build holds its own copy of the class.
    const changed = serviceError(error)?.status === 409 ? (error as Partial<PriceChangedError>).totals : undefined;
    if (changed) {
      // Delivery to the address given costs otherwise than the page said: its prices, and the new total to confirm.
      const postcode = postcodeOrNull(address.postcode) ?? "";
      const options = (await acceptance.options(userId, number, postcode || null)).data;
      const message = `Delivery to ${postcode || "that address"} makes the total ${formatPounds(changed.total)}, not what the page showed. Check the delivery prices below and accept again.`;
      return { intent: "accept", message, errors: {}, values: { ...values, priced_for: postcode }, repriced: { options, priced_for: postcode } };
    }
    return refusal(error, "accept", values, ACCEPT_FIELDS);
  }
}

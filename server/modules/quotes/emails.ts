// The quotes' emails (issue 32), each written into the outbox in the
// transaction that makes the change it tells of.
import type { Db } from "../../db/client.ts";
import type { Outbox } from "../auth/service.ts";
import { renderEmail } from "../mail/templates.ts";
import { dayLabel } from "../trade/calendar.ts";

export interface QuoteMailOptions {
  mail: Outbox;
  appName: string;
  publicUrl: string;
  shopEmail: string;
}

/** A page of the shop, as an email links it. */
const shopLink = (o: QuoteMailOptions, path: string) => `${o.publicUrl.replace(/\/+$/, "")}${path}`;
const pageOf = (o: QuoteMailOptions, number: string) => shopLink(o, `/account/quotes/${number}`);
const deskOf = (o: QuoteMailOptions, number: string) => shopLink(o, `/admin/quotes/${number}`);

async function send(tx: Db, o: QuoteMailOptions, to: string, subject: string, title: string, paragraphs: string[], action?: { label: string; url: string }, attachments?: { filename: string; contentType: string; content: Buffer }[]): Promise<void> {
  const rendered = renderEmail({ appName: o.appName, publicUrl: o.publicUrl, title, paragraphs, ...(action ? { action } : {}) });
  await o.mail.enqueue(tx, { to, subject, ...rendered, ...(attachments ? { attachments } : {}) });
}

/** To the customer and to the shop: a request from the basket has arrived. */
export async function mailRequested(tx: Db, o: QuoteMailOptions, quote: { number: string; email: string; name: string; lines: number; notes: string; neededBy: string | null }): Promise<void> {
  await send(tx, o, quote.email, `Quote request ${quote.number} received`, "We have your quote request", [
    `Thank you, ${quote.name}. We have your request for a quote on ${quote.lines === 1 ? "1 line" : `${quote.lines} lines`}, number ${quote.number}.`,
    quote.neededBy ? `You need the goods by ${dayLabel(quote.neededBy)}; we will price it with that in mind.` : "",
    "We will email you when it is priced. You can follow it from your account.",
  ].filter(Boolean), { label: "See your quote request", url: pageOf(o, quote.number) });
  await send(tx, o, o.shopEmail, `New quote request ${quote.number}`, "A customer asks for a quote", [
    `${quote.name} (${quote.email}) asks for a quote on ${quote.lines === 1 ? "1 line" : `${quote.lines} lines`}: ${quote.number}.`,
    quote.notes ? `Their notes: ${quote.notes}` : "",
    quote.neededBy ? `Needed by ${dayLabel(quote.neededBy)}.` : "",
  ].filter(Boolean), { label: "Open the quotes desk", url: deskOf(o, quote.number) });
}

/** To the customer: the priced quote, its PDF attached and the link to accept it. */
export async function mailSent(tx: Db, o: QuoteMailOptions, quote: { number: string; email: string; name: string; revision: number; validUntil: string; total: string; pdf: Buffer }): Promise<void> {
  await send(
    tx,
    o,
    quote.email,
    `Your quote ${quote.number}${quote.revision > 1 ? ` (revision ${quote.revision})` : ""}`,
    "Your quote is ready",
    [
      `Hello ${quote.name}, your quote ${quote.number}${quote.revision > 1 ? `, revision ${quote.revision},` : ""} is ready: ${quote.total} including VAT.`,
      `The prices hold until ${dayLabel(quote.validUntil)}. The quote is attached as a PDF.`,
      "Accept it from your account to place the order at these prices, or ask us for changes.",
    ],
    { label: "View and accept your quote", url: pageOf(o, quote.number) },
    [{ filename: `${quote.number}.pdf`, contentType: "application/pdf", content: quote.pdf }],
  );
}

/** To the customer, a few days before the last day of a quote not yet accepted. */
export async function mailReminder(tx: Db, o: QuoteMailOptions, quote: { number: string; email: string; name: string; validUntil: string }): Promise<void> {
  await send(tx, o, quote.email, `Your quote ${quote.number} ends on ${dayLabel(quote.validUntil)}`, "Your quote ends soon", [
    `Hello ${quote.name}, the prices in your quote ${quote.number} hold until ${dayLabel(quote.validUntil)}.`,
    "Accept it before then to order at these prices. If you need more time or changes, ask us from the quote's page.",
  ], { label: "View your quote", url: pageOf(o, quote.number) });
}

/** To the customer when the shop declines their request, with the reason. */
export async function mailDeclined(tx: Db, o: QuoteMailOptions, quote: { number: string; email: string; name: string; reason: string }): Promise<void> {
  await send(tx, o, quote.email, `Your quote ${quote.number}`, "We cannot quote for this", [
    `Hello ${quote.name}, we are sorry: we cannot offer a quote for ${quote.number}.`,
    quote.reason ? `The reason: ${quote.reason}` : "",
    "Reply to this email if you would like to talk it over.",
  ].filter(Boolean), { label: "See the quote", url: pageOf(o, quote.number) });
}

/** To the shop: the customer asked for changes, or declined. */
export async function mailShop(tx: Db, o: QuoteMailOptions, number: string, subject: string, paragraphs: string[]): Promise<void> {
  await send(tx, o, o.shopEmail, `${subject}: ${number}`, subject, paragraphs, { label: "Open the quote", url: deskOf(o, number) });
}

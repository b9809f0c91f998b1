import { and, asc, desc, eq, inArray, type SQL } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { HttpError } from "../../../http-errors.ts";
import { recordAudit } from "../../audit/service.ts";
import { renderEmail } from "../../mail/templates.ts";
import type { StaffActor } from "../../staff/actor.ts";
import { type CreditNoteInput, type IssuedCreditNote, issueCreditNote } from "../credit/ledger.ts";
import { tradeCreditNoteLines, tradeCreditNotes } from "../credit/ledger-schema.ts";
import type { ReceiptOptions } from "../credit/receipts.ts";
import { memberWithRole } from "../accounts/users.ts";
import { tradeAccounts } from "../schema.ts";
import { creditNotePdf } from "./credit-note-pdf.ts";
import type { CreditNoteDocument, CreditNoteJson } from "./documents.ts";
import { tradeInvoices, type TradeInvoice } from "./invoice-schema.ts";
import { INVOICE_READERS, type ShopDetails } from "./invoices.ts";

/**
 * Credit notes (ADR 0040): issued against an invoice (the ledger's
 * `issueCreditNote` moves the money), emailed with their PDF, and read back as
 * JSON and as the document their PDF prints, for staff and for the company.
 */

const pounds = (pence: number) => pence / 100;
const money = (p: number) => `£${pounds(p).toLocaleString("en-GB", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/**
 * A credit note against an invoice (ledger.ts `issueCreditNote`, in the
 * caller's transaction), audited against the account and emailed to its
 * accounts address with its PDF attached (and a link to it). The desk's "credit" and the orders
 * desk's cancellation of an order on account both go through here.
 */
export async function creditInvoice(
  tx: Db,
  options: ReceiptOptions & { shop: ShopDetails },
  actor: StaffActor,
  invoice: Pick<TradeInvoice, "id" | "number">,
  input: Omit<CreditNoteInput, "invoiceId" | "createdBy">,
): Promise<IssuedCreditNote> {
  const issued = await issueCreditNote(tx, { ...input, invoiceId: invoice.id, createdBy: actor.staffId });
  const n = issued.creditNote;
  await recordAudit(tx, actor, {
    action: "trade_account.credit_note",
    entity: "trade_account",
    entityId: issued.account.id,
    after: { credit_note: n.number, invoice: invoice.number, total: n.total, applied: n.applied, reason: n.reason, lines: issued.lines.map((l) => ({ source: l.source, quantity: l.quantity })) },
  });
  const url = `${options.publicUrl}/api/trade/credit-notes/${n.number}/pdf`;
  const mail = renderEmail({
    appName: options.appName,
    publicUrl: options.publicUrl,
    title: `Credit note ${n.number}`,
    paragraphs: [
      `We have issued credit note ${n.number} for ${money(n.total)} against invoice ${invoice.number}: ${n.reason}`,
      n.applied === n.total
        ? `It comes off what is left to pay on ${invoice.number}.`
        : n.applied > 0
          ? `${money(n.applied)} comes off ${invoice.number}; the other ${money(n.total - n.applied)} is credit on your account.`
          : `${invoice.number} was already paid, so it is credit on your account.`,
      issued.account.balance < 0 ? `${issued.account.companyName} has ${money(-issued.account.balance)} in credit.` : `${issued.account.companyName} now owes ${money(issued.account.balance)}.`,
      `The credit note is attached as a PDF.`,
    ],
    action: { label: "Download the credit note (PDF)", url },
  });
  // The PDF as the download route makes it, from this transaction's rows.
  const doc = await creditNoteDocument(tx, options.shop, eq(tradeCreditNotes.id, n.id));
  const attachments = [{ filename: `${n.number}.pdf`, contentType: "application/pdf", content: await creditNotePdf(doc!) }];
  await options.mail.enqueue(tx, { to: issued.account.accountsEmail, subject: `Credit note ${n.number} for ${invoice.number}`, ...mail, attachments });
  return issued;
}

/** Credit notes with their lines, newest first (the latest 100). */
export async function creditNotesOf(handle: Db, where: SQL): Promise<CreditNoteJson[]> {
  const notes = await handle
    .select({ note: tradeCreditNotes, invoiceNumber: tradeInvoices.number, companyName: tradeAccounts.companyName })
    .from(tradeCreditNotes)
    .innerJoin(tradeInvoices, eq(tradeInvoices.id, tradeCreditNotes.invoiceId))
    .innerJoin(tradeAccounts, eq(tradeAccounts.id, tradeCreditNotes.tradeAccountId))
    .where(where)
    .orderBy(desc(tradeCreditNotes.id))
    .limit(100);
  const lines = notes.length ? await handle.select().from(tradeCreditNoteLines).where(inArray(tradeCreditNoteLines.creditNoteId, notes.map((n) => n.note.id))).orderBy(asc(tradeCreditNoteLines.id)) : [];
  return notes.map(({ note: n, invoiceNumber, companyName }) => ({
    number: n.number,
    invoice_number: invoiceNumber,
    company_name: companyName,
    reason: n.reason,
    issued_on: n.issuedOn,
    subtotal: pounds(n.subtotal),
    vat: pounds(n.vat),
    delivery: pounds(n.delivery),
    total: pounds(n.total),
    applied: pounds(n.applied),
    on_account: pounds(n.total - n.applied),
    lines: lines.filter((l) => l.creditNoteId === n.id).map((l) => ({ source: l.source, description: l.description, quantity: l.quantity, net: pounds(l.net), vat: pounds(l.vat), discount: pounds(l.discount) })),
  }));
}

/** A credit note and what its PDF prints: the shop, the company, the lines. */
export async function creditNoteDocument(handle: Db, shop: ShopDetails, where: SQL): Promise<CreditNoteDocument | null> {
  const [found] = await handle.select({ note: tradeCreditNotes, account: tradeAccounts }).from(tradeCreditNotes).innerJoin(tradeAccounts, eq(tradeAccounts.id, tradeCreditNotes.tradeAccountId)).where(where);
  if (!found) return null;
  const [json] = await creditNotesOf(handle, eq(tradeCreditNotes.id, found.note.id));
  const s = shop;
  const a = found.account;
  return {
    ...json!,
    account_id: a.id,
    shop: { name: s.name, email: s.email, address: s.address, vat_number: s.vatNumber },
    company: { name: a.companyName, address: [a.line1, a.line2, a.town, a.county, a.postcode].filter((x) => x !== ""), company_number: a.companyNumber, vat_number: a.vatNumber },
  };
}

/** A credit note by its number, for a member of the company who may read its invoices (owner, admin, accounts); 404 for anyone else. */
export async function creditNoteForMember(db: Db, shop: ShopDetails, userId: number, number: string): Promise<CreditNoteDocument> {
  const { account: mine } = await memberWithRole(db, userId, INVOICE_READERS);
  const doc = await creditNoteDocument(db, shop, and(eq(tradeCreditNotes.number, number.trim().toUpperCase()), eq(tradeCreditNotes.tradeAccountId, mine.id))!);
  if (!doc) throw new HttpError(404, "Not Found");
  return doc;
}

/** The company's credit notes, newest first (the latest 100), for its owners, admins and accounts users; 404 for anyone else. */
export async function creditNotesOfMember(db: Db, userId: number): Promise<CreditNoteJson[]> {
  const { account: mine } = await memberWithRole(db, userId, INVOICE_READERS);
  return creditNotesOf(db, eq(tradeCreditNotes.tradeAccountId, mine.id));
}

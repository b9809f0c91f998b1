import { randomBytes } from "node:crypto";
import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { ValidationError } from "../../../http-errors.ts";
import { recordAudit } from "../../audit/service.ts";
import { sha256 } from "../../auth/tokens.ts";
import type { StaffActor } from "../../staff/actor.ts";
import { tradeInvoices } from "../../trade/invoices/invoice-schema.ts";
import { tradeAccounts } from "../../trade/schema.ts";
import { hireRequests } from "../schema.ts";
import { settlementOf } from "./charges.ts";
import { type HireOperationsOptions, emailCustomer, lockRequest, money, reference, tradeAccountOf } from "./common.ts";
import { hireCharges } from "./schema.ts";
import { checkMove } from "./states.ts";

export type SettlementMethod = "account" | "card" | "arranged";

const LONDON_TODAY = sql`(now() at time zone 'Europe/London')::date`;

/**
 * Settling a returned hire (ADR 0039). A trade customer's charges become an
 * invoice on their account (its balance raised in the same transaction, as
 * an order on account is). Anyone else pays what is left after what they
 * paid up front by the emailed card link — or is refunded the excess through
 * the payments module — or settles as the shop arranges, recorded.
 */
export function createSettlement(db: Db, options: HireOperationsOptions) {
  return {
    async settle(actor: StaffActor, number: string, input: { method?: SettlementMethod; note?: string }) {
      let refund: { amount: number; reason: string } | null = null;
      const done = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const request = await lockRequest(tx, number);
        checkMove(number, request.status, "settle");
        const trade = await tradeAccountOf(tx, request.userId);
        const method: SettlementMethod = input.method ?? (trade ? "account" : options.cardPayments ? "card" : "arranged");
        if (method === "account" && !trade) throw new ValidationError({ method: ["Only a trade customer's hire goes on an account invoice."] });
        if (method !== "account" && trade) throw new ValidationError({ method: [`${trade.companyName} has a trade account: its hire charges go on an invoice.`] });
        if (method === "card" && !options.cardPayments) throw new ValidationError({ method: ["Card payment is not offered by this shop."] });
        const lines = await tx.select().from(hireCharges).where(eq(hireCharges.requestId, request.id)).orderBy(asc(hireCharges.id));
        const s = settlementOf(lines, request.paidAmount ?? 0);
        const note = input.note?.trim() ?? "";
        const summary = [
          ...lines.map((l) => `${l.description}: ${money(l.net + l.vat)}${l.reason && l.kind !== "hire" ? ` (${l.reason})` : ""}`),
          `Your hire's charges: ${money(s.charges)} including VAT of ${money(s.vat)}.`,
          ...(request.paidAmount ? [`Paid up front by card, with the deposit: ${money(request.paidAmount)}.`] : []),
        ];
        let status = "completed";
        let due = s.due;
        let action: { label: string; url: string } | undefined;
        let invoiceNumber: string | null = null;
        let closing: string;
        if (method === "account") {
          due = 0;
          const [account] = await tx
            .update(tradeAccounts)
            .set({ balance: sql`${tradeAccounts.balance} + ${s.charges}`, updatedAt: sql`now()` })
            .where(eq(tradeAccounts.id, trade!.id))
            .returning({ termsDays: tradeAccounts.termsDays });
          const [invoice] = await tx
            .insert(tradeInvoices)
            .values({
              number: `pending-${crypto.randomUUID()}`,
              tradeAccountId: trade!.id,
              hireRequestId: request.id,
              invoiceDate: LONDON_TODAY,
              dueDate: sql`${LONDON_TODAY} + ${account!.termsDays}::int`,
              subtotal: s.net,
              vat: s.vat,
              delivery: 0,
              total: s.charges,
              poReference: request.number,
            })
            .returning({ id: tradeInvoices.id });
          invoiceNumber = reference("INV", invoice!.id);
          await tx.update(tradeInvoices).set({ number: invoiceNumber }).where(eq(tradeInvoices.id, invoice!.id));
          closing = `The charges are on invoice ${invoiceNumber} to ${trade!.companyName}'s trade account; pay it by its due date.`;
        } else if (method === "card" && s.due > 0) {
          status = "returned";
          const token = randomBytes(24).toString("base64url");
          await tx.update(hireRequests).set({ payTokenHash: sha256(token) }).where(eq(hireRequests.id, request.id));
          action = { label: `Pay ${money(s.due)} by card`, url: `${options.publicUrl}/api/payments/hire/${token}` };
          closing = `Left to pay: ${money(s.due)}. Pay by card with the link below, on a secure payment page.`;
        } else if (method === "card" && s.due < 0) {
          refund = { amount: -s.due, reason: `The final charges of hire request ${number} came to less than was paid up front.` };
          closing = `We are refunding ${money(-s.due)} to the card you paid with; it usually arrives within 5 to 10 working days.`;
        } else if (method === "card") {
          closing = "Nothing is left to pay. Thank you.";
        } else {
          closing = s.due > 0 ? `Left to pay: ${money(s.due)}, as arranged with the hire desk.${note ? ` ${note}` : ""}` : s.due < 0 ? `We owe you ${money(-s.due)}, which we return as arranged with you.${note ? ` ${note}` : ""}` : "Nothing is left to pay. Thank you.";
        }
        await tx
          .update(hireRequests)
          .set({ status, finalTotal: s.charges, settlement: method, settlementDue: due, settlementNote: note, ...(status === "completed" ? { settledAt: sql`now()` } : {}), updatedAt: sql`now()` })
          .where(eq(hireRequests.id, request.id));
        await recordAudit(tx, actor, {
          action: "hire_request.settled",
          entity: "hire_request",
          entityId: number,
          before: { status: request.status },
          after: { status, method, final_total: s.charges / 100, due: due / 100, ...(invoiceNumber ? { invoice: invoiceNumber } : {}), ...(note ? { note } : {}) },
        });
        await emailCustomer(options, tx, request, `Final charges for hire request ${number}`, `Final charges for ${number}`, [...summary, closing], action);
        return { number, status, settlement: method, final_total: s.charges, due, invoice_number: invoiceNumber };
      });
      options.mail.kick?.();
      const owed = refund as { amount: number; reason: string } | null;
      if (owed && options.refundHire) await options.refundHire(number, owed.amount, owed.reason);
      return done;
    },
  };
}

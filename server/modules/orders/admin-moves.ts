import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { dayText } from "../../lib/london.ts";
import { londonDate } from "../hire/calendar.ts";
import { putOrderStockBack } from "../stock/ledger.ts";
import { recordAudit } from "../audit/service.ts";
import { branches } from "../branches/schema.ts";
import type { Outbox } from "../auth/service.ts";
import { pounds } from "../catalog/products/products.ts";
import { renderEmail } from "../mail/templates.ts";
import { type StaffActor, authorize } from "../staff/actor.ts";
import { can } from "../staff/permissions.ts";
import { creditInvoice } from "../trade/invoices/credit-notes.ts";
import type { ShopDetails } from "../trade/invoices/invoices.ts";
import { tradeInvoices } from "../trade/invoices/invoice-schema.ts";
import { creditableLines, lockAccount } from "../trade/credit/ledger.ts";
import { DEFAULT_HOLD_DAYS, codeMatches, collectionQrPng, keptUntil, newCollectionCode } from "./collection.ts";
import { trackingUrl } from "./fulfilment.ts";
import { FULFILMENT_SQL, ofMyBranches } from "./read.ts";
import { orderStatusLabel } from "./statuses.ts";
import { ORDER_STATUSES, type OrderStatus, orderStatusHistory, orders } from "./schema.ts";
import { type Fulfilment, type Transition, checkTransition } from "./transitions.ts";
import { byNumber, isCalendarDay, money } from "./admin-list.ts";

/**
 * Staff moving orders on (the transition table, transitions.ts): one order,
 * or several chosen on the list, each in its own transaction with its
 * timeline, audit entry, stock back on a cancel, an invoice on account
 * credited, and the customer's email.
 */

export const NOTE_MAX = 2000;
/** Orders one bulk action moves at most: a page of the list. */
export const BULK_MAX = 100;
export const CARRIER_MAX = 60;
export const TRACKING_MAX = 60;

export interface TransitionRequest {
  to: OrderStatus;
  carrier?: string | null;
  tracking_number?: string | null;
  note?: string | null;
  /** Collected: the code the customer shows, typed or scanned (orders/collection.ts). */
  collection_code?: string | null;
  /** The status the member saw: if the order has moved since, the move is refused (409). */
  expected_status?: OrderStatus | null;
  /**
   * Marking paid (issue 34): what arrived, in pounds (the order's total when
   * not given), the day it arrived (today when not given) and the bank's
   * reference. An amount other than the total is refused unless confirmed.
   */
  paid_amount?: number | null;
  paid_on?: string | null;
  payment_reference?: string | null;
  amount_confirmed?: boolean | null;
}

/** What a marked-paid order records: pence, the London day and the reference. */
interface Receipt {
  pence: number;
  day: string;
  reference: string;
}

/** The receipt a mark-paid records, or why not (422): a day that is real and not ahead, an amount that is the total or confirmed. */
function receiptOf(input: TransitionRequest, total: number): Receipt {
  const errors: Record<string, string[]> = {};
  const today = londonDate();
  const day = input.paid_on?.trim() || today;
  if (!isCalendarDay(day)) errors.paid_on = ["Enter the day the payment arrived as YYYY-MM-DD."];
  else if (day > today) errors.paid_on = ["The payment cannot have arrived after today."];
  const pence = input.paid_amount == null ? total : Math.round(input.paid_amount * 100);
  if (!Number.isFinite(pence) || pence <= 0) errors.paid_amount = ["Enter the amount received, such as 237.58."];
  else if (pence !== total && !input.amount_confirmed) {
    errors.paid_amount = [`£${money(pence)} is ${pence < total ? "less" : "more"} than the order's total of £${money(total)}. Check the amount, or confirm it to record it anyway.`];
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return { pence, day, reference: input.payment_reference?.trim() ?? "" };
}

/** The timeline's words for a payment recorded by hand. */
function receiptNote(receipt: Receipt, total: number): string {
  const differs = receipt.pence === total ? "" : ` That is £${money(Math.abs(total - receipt.pence))} ${receipt.pence < total ? "less" : "more"} than the total.`;
  return `Payment of £${money(receipt.pence)} received on ${dayText(receipt.day)}${receipt.reference ? `, reference ${receipt.reference}` : ""}.${differs}`;
}

export interface AdminOrderOptions {
  mail: Outbox;
  appName: string;
  publicUrl: string;
  shopEmail: string;
  /** The branch's address for collections (`SHOP_ADDRESS`), when the shop has one. */
  branchAddress?: readonly string[];
  /** The seller on a credit note's PDF, attached to its email. */
  shop: ShopDetails;
  /** The order's own page behind its signed link (orders/links.ts), absolute: a guest returns or cancels items there. */
  orderLink?: (number: string) => string;
}

/** An order on account's invoice at its cancellation, and the credit note that credited it (null: it already was). */
export interface InvoiceCredit {
  invoice: string;
  creditNote: string | null;
}

export function createAdminOrderMoves(db: Db, options: AdminOrderOptions) {
  /** The customer's email about a move, or null for a move they do not hear about. */
  function customerEmail(order: typeof orders.$inferSelect, fulfilment: Fulfilment, from: OrderStatus, move: Transition, input: { carrier: string; tracking: string; note: string; credit: InvoiceCredit | null }) {
    if (!move.emailsCustomer) return null;
    const n = order.number;
    const contact = `Any questions? Email us at ${options.shopEmail}, quoting ${n}.`;
    let title: string;
    let paragraphs: string[];
    let action: { label: string; url: string } | undefined;
    switch (move.to) {
      case "paid":
        title = `Order ${n}: payment received`;
        paragraphs = [
          `Thank you: we have received your payment for order ${n}.`,
          fulfilment === "collection" ? "We are getting it ready and will email you when it is ready to collect." : "We are getting it ready and will email you when it is on its way.",
        ];
        break;
      case "dispatched": {
        const url = trackingUrl(input.carrier, input.tracking);
        title = `Order ${n} is on its way`;
        paragraphs = [
          `Your order ${n} has been dispatched with ${input.carrier}.`,
          `Tracking number: ${input.tracking}`,
          ...(options.orderLink ? [`Your order's page, where you can return items once they arrive: ${options.orderLink(n)}`] : []),
        ];
        if (url) action = { label: "Track your delivery", url };
        break;
      }
      case "cancelled":
        title = `Order ${n} has been cancelled`;
        paragraphs = [
          `We have cancelled your order ${n}.`,
          `Reason: ${input.note}`,
          ...(order.paymentMethod === "bank_transfer" && from !== "awaiting_payment" ? ["We will refund your payment to the account it came from."] : []),
          ...(input.credit
            ? [
                input.credit.creditNote
                  ? `Its invoice ${input.credit.invoice} has been credited in full with credit note ${input.credit.creditNote}, sent to your accounts email.`
                  : `Its invoice ${input.credit.invoice} had already been credited in full.`,
              ]
            : []),
        ];
        break;
      default:
        return null;
    }
    const rendered = renderEmail({ appName: options.appName, publicUrl: options.publicUrl, title, paragraphs: [...paragraphs, contact], action });
    return { to: order.email, subject: title, ...rendered };
  }

  /**
   * "Ready to collect" (issue 30): where (the order's branch, its address and
   * a link to its hours), the collection code with its QR code attached, how
   * to pay, and how long the branch keeps it before it goes back to stock.
   */
  async function readyEmail(tx: Db, order: typeof orders.$inferSelect & { collectionCode: string | null }) {
    const n = order.number;
    const code = order.collectionCode!;
    const [branch] = order.branchId === null ? [] : await tx.select().from(branches).where(eq(branches.id, order.branchId));
    const where = branch ? [branch.name, branch.line1, branch.line2, branch.town, branch.postcode].filter(Boolean).join(", ") : options.branchAddress?.join(", ");
    const until = keptUntil(new Date(), branch?.holdDays ?? DEFAULT_HOLD_DAYS);
    const title = `Order ${n} is ready to collect`;
    const paragraphs = [
      `Your order ${n} is ready to collect${branch ? ` from ${branch.name}` : " from the branch"}.`,
      `Your collection code: ${code}`,
      "Show this code, or the QR code attached to this email, at the counter. Whoever collects needs it.",
      ...(where ? [`Where: ${where}`] : []),
      order.paymentMethod === "pay_on_collection" ? `Please pay £${money(order.total)} when you collect.` : "It is paid for: nothing more to pay.",
      `We keep it for you until ${until}. After that it goes back into stock and your payment is refunded.`,
      `Any questions? Email us at ${options.shopEmail}, quoting ${n}.`,
    ];
    const action = branch ? { label: "Opening hours and directions", url: `${options.publicUrl}/branches/${branch.slug}` } : undefined;
    const rendered = renderEmail({ appName: options.appName, publicUrl: options.publicUrl, title, paragraphs, action });
    const qr = await collectionQrPng(n, code);
    return { to: order.email, subject: title, ...rendered, attachments: [{ filename: `collection-code-${n}.png`, contentType: "image/png", content: qr }] };
  }

  function cleanTransition(input: TransitionRequest) {
    const carrier = input.carrier?.trim() ?? "";
    const tracking = input.tracking_number?.trim() ?? "";
    const note = input.note?.trim() ?? "";
    const errors: Record<string, string[]> = {};
    if (!(ORDER_STATUSES as readonly string[]).includes(input.to)) errors.to = [`Choose one of: ${ORDER_STATUSES.join(", ")}.`];
    if (carrier.length > CARRIER_MAX) errors.carrier = [`The carrier may be at most ${CARRIER_MAX} characters.`];
    if (tracking.length > TRACKING_MAX) errors.tracking_number = [`The tracking number may be at most ${TRACKING_MAX} characters.`];
    if (note.length > NOTE_MAX) errors.note = [`The note may be at most ${NOTE_MAX} characters.`];
    if (Object.keys(errors).length) throw new ValidationError(errors);
    return { carrier, tracking, note };
  }

  /**
   * Cancelling an order on account: its invoice, with its trade account
   * locked. Called before the order row is locked, for the lock order:
   * the account, the order row, its products (stock back), then the invoice.
   * Checkout holds a key-share lock on the account from its order's insert
   * (the foreign key) while it takes the products, and the ledger's
   * `lockAccount` (FOR UPDATE) waits for that; taking the account after the
   * stock here would let a checkout of the same products wait for this
   * while this waits for it. Account first, as payments and credit notes
   * also lock it (then its invoices), so no two wait in a cycle (tested
   * on PostgreSQL in cancel-on-account.test.ts).
   */
  async function lockInvoicedAccount(tx: Db, number: string): Promise<{ invoiceId: number } | null> {
    const [found] = await tx
      .select({ invoiceId: tradeInvoices.id, accountId: tradeInvoices.tradeAccountId })
      .from(orders)
      .innerJoin(tradeInvoices, eq(tradeInvoices.orderId, orders.id))
      .where(and(byNumber(number), eq(orders.paymentMethod, "pay_on_account")));
    if (!found) return null;
    await lockAccount(tx, found.accountId);
    return { invoiceId: found.invoiceId };
  }

  /**
   * An order on account being cancelled (its account and row locked, its
   * stock already back): the whole of its invoice not yet credited gets a
   * credit note with the cancellation's reason, audited and emailed to the
   * accounts address with its PDF (trade/invoices/credit-notes.ts `creditInvoice`).
   */
  async function creditCancelledOrder(tx: Db, actor: StaffActor, order: typeof orders.$inferSelect, invoiceId: number, reason: string): Promise<InvoiceCredit> {
    const [invoice] = await tx.select().from(tradeInvoices).where(eq(tradeInvoices.id, invoiceId)).for("update");
    // Credited in full already (by the trade desk): the cancellation alone.
    const left = (await creditableLines(tx, invoice!)).some((l) => l.quantity > l.creditedQuantity);
    if (!left) return { invoice: invoice!.number, creditNote: null };
    const { creditNote } = await creditInvoice(tx, options, actor, invoice!, { reason: `Order ${order.number} cancelled: ${reason}`, whole: true });
    return { invoice: invoice!.number, creditNote: creditNote.number };
  }

  /**
   * Moves the order on, in one transaction: the row locked, the move checked
   * against the table, the status (and carrier and tracking number on
   * dispatch) written, the timeline and the audit log written, the stock put
   * back on a cancel (and an order on account's invoice credited), and the
   * customer's email queued. Two members acting at
   * once: the second waits for the lock, then sees the new status and is
   * refused with 409.
   */
  async function moveOne(actor: StaffActor, number: string, input: TransitionRequest): Promise<{ number: string; credit: InvoiceCredit | null }> {
    authorize(actor, "orders.view");
    const { carrier, tracking, note } = cleanTransition(input);
    const done = await db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const invoiced = input.to === "cancelled" && can(actor.role, "orders.cancel") ? await lockInvoicedAccount(tx, number) : null;
      const [row] = await tx.select({ order: orders, fulfilment: FULFILMENT_SQL }).from(orders).where(and(byNumber(number), ofMyBranches(actor))).for("update", { of: orders });
      if (!row) throw new HttpError(404, `No order ${number.trim().toUpperCase()}.`);
      const { order, fulfilment } = row;
      const from = order.status as OrderStatus;
      if (input.expected_status && input.expected_status !== from) {
        throw new HttpError(409, `Order ${order.number} changed while you were looking: it is now ${orderStatusLabel(from).toLowerCase()}.`);
      }
      const move = checkTransition({ number: order.number, status: from, payment_method: order.paymentMethod, fulfilment, has_collection_code: order.collectionCode !== null }, input.to, actor.role, {
        carrier,
        tracking_number: tracking,
        note,
        collection_code: input.collection_code,
      });
      // Handed over only for the code on the customer's ready email.
      if (from === "ready_for_collection" && move.to === "completed" && order.collectionCode && !codeMatches(order.number, order.collectionCode, input.collection_code ?? "")) {
        throw new ValidationError({ collection_code: [`That is not the collection code for ${order.number}. Check the code on the customer's email, or their order number.`] });
      }
      const dispatch = move.to === "dispatched";
      const ready = move.to === "ready_for_collection";
      // A bank transfer marked paid records what arrived, when and with what reference.
      const receipt = from === "awaiting_payment" && move.to === "paid" ? receiptOf(input, order.total) : null;
      const collectionCode = ready ? newCollectionCode() : order.collectionCode;
      await tx
        .update(orders)
        .set({
          status: move.to,
          updatedAt: sql`now()`,
          ...(dispatch ? { carrier, trackingNumber: tracking } : {}),
          ...(ready ? { collectionCode, collectionRemindedAt: null } : {}),
          ...(receipt ? { paidAmount: receipt.pence, paidOn: receipt.day, paymentReference: receipt.reference } : {}),
        })
        .where(eq(orders.id, order.id));
      // The customer's timeline shows the move; a dispatch says how it went.
      const historyNote = dispatch ? [`Sent with ${carrier}, tracking number ${tracking}.`, note].filter(Boolean).join(" ") : receipt ? [receiptNote(receipt, order.total), note].filter(Boolean).join(" ") : note;
      await tx.insert(orderStatusHistory).values({ orderId: order.id, status: move.to, note: historyNote, kind: "status", staffId: actor.staffId });
      let credit: InvoiceCredit | null = null;
      if (move.to === "cancelled") {
        await putOrderStockBack(tx, order.id, actor.staffId);
        if (invoiced) credit = await creditCancelledOrder(tx, actor, order, invoiced.invoiceId, note);
      }
      await recordAudit(tx, actor, {
        action: "order.transition",
        entity: "order",
        entityId: order.number,
        before: { status: from, carrier: order.carrier, tracking_number: order.trackingNumber },
        after: {
          status: move.to,
          carrier: dispatch ? carrier : order.carrier,
          tracking_number: dispatch ? tracking : order.trackingNumber,
          ...(note ? { note } : {}),
          ...(receipt ? { paid_amount: pounds(receipt.pence), paid_on: receipt.day, payment_reference: receipt.reference } : {}),
          ...(credit?.creditNote ? { invoice: credit.invoice, credit_note: credit.creditNote } : {}),
        },
      });
      const email = ready ? await readyEmail(tx, { ...order, collectionCode }) : customerEmail(order, fulfilment, from, move, { carrier, tracking, note, credit });
      if (email) await options.mail.enqueue(tx, email);
      return { number: order.number, credit };
    });
    options.mail.kick?.();
    return done;
  }

  return {
    moveOne,

    /**
     * The same move for several orders chosen on the list, each in its own
     * transaction: one refused order (another status, another member's change)
     * leaves the others moved, and the answer says which and why.
     */
    async bulkTransition(actor: StaffActor, numbers: readonly string[], to: OrderStatus) {
      authorize(actor, "orders.view");
      const chosen = [...new Set(numbers.map((n) => n.trim().toUpperCase()).filter(Boolean))];
      if (chosen.length === 0) throw new ValidationError({ numbers: ["Choose at least one order."] });
      if (chosen.length > BULK_MAX) throw new ValidationError({ numbers: [`Choose at most ${BULK_MAX} orders at a time.`] });
      const moved: string[] = [];
      const refused: { number: string; message: string }[] = [];
      for (const number of chosen) {
        try {
          moved.push((await moveOne(actor, number, { to })).number);
        } catch (error) {
          if (!(error instanceof HttpError || error instanceof ValidationError)) throw error;
          refused.push({ number, message: error instanceof ValidationError ? Object.values(error.errors).flat().join(" ") : error.message });
        }
      }
      return { to, moved, refused };
    },

  };
}

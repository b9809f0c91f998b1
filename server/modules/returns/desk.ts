import { type SQL, and, asc, count, desc, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { escapeLike } from "../../db/like.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { releasePromotions } from "../promotions/redeem.ts";
import { recordAudit } from "../audit/service.ts";
import { pounds } from "../catalog/products/products.ts";
import { productVariants, products } from "../catalog/schema.ts";
import { lineName } from "../catalog/variants/variant-names.ts";
import { orderAddresses, orderLines, orderStatusHistory, orders } from "../orders/schema.ts";
import { ofMyBranches } from "../orders/read.ts";
import { paymentLabel } from "../orders/fulfilment.ts";
import { orderNumberOf } from "../orders/statuses.ts";
import type { PaymentService } from "../payments/service.ts";
import { type StaffActor, authorize } from "../staff/actor.ts";
import { can } from "../staff/permissions.ts";
import { checkRefundLimit } from "../staff/refund-limit.ts";
import { staff } from "../staff/schema.ts";
import { applyMovements, defaultBranchId } from "../stock/ledger.ts";
import { branchStock } from "../stock/schema.ts";
import { creditInvoice } from "../trade/invoices/credit-notes.ts";
import { tradeInvoices } from "../trade/invoices/invoice-schema.ts";
import type { ShopDetails } from "../trade/invoices/invoices.ts";
import { lockAccount } from "../trade/credit/ledger.ts";
import { type ReturnForMail, type ReturnsMail, emailReturn } from "./emails.ts";
import { deskPhotosJson, photosOf } from "./photos/rows.ts";
import { returnHeadJson, returnLineJson } from "./read.ts";
import { REFUND_DAYS, overdueForRefund, proposalFor } from "./refund.ts";
import { returnEvents, returnLines, returns } from "./schema.ts";
import { returnBranch } from "./service.ts";
import { RETURN_STATUSES, RETURN_STATUS_LABELS, type RefundMethod, type ReturnMethod, type ReturnStatus, returnStatusLabel } from "./statuses.ts";
import { allowedReturnMoves, checkReturnMove } from "./transitions.ts";
import { idCursor } from "../../lib/id-cursor.ts";

export const RETURNS_PAGE = 50;
export const RETURNS_PAGE_MAX = 200;
export const REASON_MAX = 1000;

export interface ReturnsDeskOptions extends ReturnsMail {
  /** The seller on a credit note's PDF. */
  shop: ShopDetails;
  payments: Pick<PaymentService, "recordRefund" | "sendRefund">;
  now?: () => Date;
}

export interface ReturnsFilters {
  status?: ReturnStatus;
  /** A return's or its order's number, or the customer's email (its start). */
  q?: string;
  cursor?: string;
  limit?: number;
  /** Only those received more than 14 days ago and not refunded (the dashboard's figure). */
  overdue?: boolean;
}

export interface ReturnMoveInput {
  to: ReturnStatus;
  /** Rejecting: told to the customer. Closing without refund: why, for the timeline. */
  reason?: string | null;
  /** Receiving: per line, units back in resaleable condition and units received damaged; the rest did not arrive. All resaleable when not given. */
  lines?: { line_id: number; received: number; damaged: number }[];
  /** Receiving: the branch the goods came back to (the return's, the member's own, the order's, or the default). */
  branch_id?: number | null;
  /** Refunding: the amount in pence when not what the rules propose (never above the goods and delivery back). */
  refund_pence?: number | null;
  /** Refunding: a deduction for handling beyond inspecting the goods, in pence, with its reason. */
  deduction_pence?: number | null;
  deduction_reason?: string | null;
  /** Exchanging: per line, the variant to send instead (the same when not given). */
  exchange?: { line_id: number; variant_id?: number | null }[];
  /** The status the member saw: refused (409) if the return moved since. */
  expected_status?: ReturnStatus | null;
}

type ReturnRow = typeof returns.$inferSelect;
type OrderRow = typeof orders.$inferSelect;

const { encode: encodeCursor, decode: decodeCursor } = idCursor("r");

const money = (pence: number) => `£${(pence / 100).toFixed(2)}`;
const DAY_MS = 86_400_000;

/**
 * The returns desk (issue 31): the list by status, a return's page, and its
 * moves through the table in transitions.ts, each in one transaction with its
 * effects (stock back through the ledger, the refund by card, credit note or
 * by hand, a replacement order), audited, and the customer emailed through
 * the outbox.
 */
export function createReturnsDesk(db: Db, options: ReturnsDeskOptions) {
  const now = () => options.now?.() ?? new Date();

  function filterWhere(actor: StaffActor, filters: ReturnsFilters, withStatus: boolean): SQL[] {
    const where: SQL[] = [];
    if (withStatus && filters.status) where.push(eq(returns.status, filters.status));
    if (filters.overdue) where.push(overdueForRefund(now())!);
    const mine = ofMyBranches(actor);
    if (mine) where.push(mine);
    const q = filters.q?.trim();
    if (q) {
      const upper = q.toUpperCase();
      where.push(sql`(${returns.number} like ${`${escapeLike(upper)}%`} or ${orders.number} like ${`${escapeLike(upper)}%`} or lower(${orders.email}) like ${`${escapeLike(q.toLowerCase())}%`})`);
    }
    return where;
  }

  /** Days left of the 14 to refund after receipt (negative when overdue), for a received return. */
  function daysLeft(ret: Pick<ReturnRow, "status" | "receivedAt">): number | null {
    if (ret.status !== "received" || !ret.receivedAt) return null;
    return Math.ceil((ret.receivedAt.getTime() + REFUND_DAYS * DAY_MS - now().getTime()) / DAY_MS);
  }

  async function forMail(tx: Db, ret: ReturnRow, order: OrderRow): Promise<ReturnForMail> {
    const lines = await tx.select({ name: orderLines.name, quantity: returnLines.quantity, reason: returnLines.reason }).from(returnLines).innerJoin(orderLines, eq(orderLines.id, returnLines.orderLineId)).where(eq(returnLines.returnId, ret.id)).orderBy(asc(returnLines.id));
    return { number: ret.number, orderNumber: order.number, email: order.email, method: ret.method as ReturnMethod, branch: await returnBranch(tx, ret.branchId), lines };
  }

  async function detail(actor: StaffActor, number: string) {
    authorize(actor, "returns.view");
    const [row] = await db
      .select({ ret: returns, order: orders })
      .from(returns)
      .innerJoin(orders, eq(orders.id, returns.orderId))
      .where(and(eq(returns.number, number.trim().toUpperCase()), ofMyBranches(actor)));
    if (!row) throw new HttpError(404, `No return ${number.trim().toUpperCase()}.`);
    const { ret, order } = row;
    const [lines, events, branch, exchange, photos] = await Promise.all([
      db
        .select({ line: returnLines, name: orderLines.name, sku: orderLines.sku, ordered: orderLines.quantity, variantId: orderLines.variantId, productId: orderLines.productId, paid: sql<number>`${orderLines.lineTotal} + ${orderLines.lineVat}` })
        .from(returnLines)
        .innerJoin(orderLines, eq(orderLines.id, returnLines.orderLineId))
        .where(eq(returnLines.returnId, ret.id))
        .orderBy(asc(returnLines.id)),
      db.select({ event: returnEvents, staffName: staff.name }).from(returnEvents).leftJoin(staff, eq(staff.id, returnEvents.staffId)).where(eq(returnEvents.returnId, ret.id)).orderBy(asc(returnEvents.id)),
      returnBranch(db, ret.branchId),
      ret.exchangeOrderId !== null ? db.select({ number: orders.number }).from(orders).where(eq(orders.id, ret.exchangeOrderId)) : Promise.resolve([]),
      photosOf(db, [ret.id]),
    ]);
    const status = ret.status as ReturnStatus;
    const proposal = status === "received" ? await proposalFor(db, ret, order) : null;
    const prices = can(actor.role, "orders.prices");
    const left = daysLeft(ret);
    return {
      ...returnHeadJson(ret),
      branch,
      created_at: ret.createdAt.toISOString(),
      updated_at: ret.updatedAt.toISOString(),
      received_at: ret.receivedAt?.toISOString() ?? null,
      requested_by: ret.requestedBy,
      reject_reason: ret.rejectReason || null,
      /** Days left of the 14 to refund after receipt (negative: overdue); null unless received. */
      refund_days_left: left,
      refund_due_by: ret.receivedAt && status === "received" ? new Date(ret.receivedAt.getTime() + REFUND_DAYS * DAY_MS).toISOString() : null,
      order: {
        number: order.number,
        status: order.status,
        email: can(actor.role, "customers.view") ? order.email : undefined,
        payment_method: order.paymentMethod,
        payment_label: paymentLabel(order.paymentMethod),
        total: prices ? pounds(order.total) : undefined,
        trade: order.tradeAccountId !== null,
      },
      lines: lines.map((l) => ({ ...returnLineJson(l), ordered: l.ordered, variant_id: l.variantId, product_id: l.productId, ...(prices ? { paid: pounds(l.paid) } : {}) })),
      proposal: proposal && prices
        ? { goods: pounds(proposal.goods), delivery: pounds(proposal.delivery), collection_charge: pounds(proposal.collectionCharge), total: pounds(proposal.total), whole_order: proposal.whole_order }
        : null,
      refund: ret.refunded !== null ? { amount: pounds(ret.refunded), method: ret.refundMethod as RefundMethod, credit_note: ret.creditNoteNumber, deduction: pounds(ret.deduction), deduction_reason: ret.deductionReason || null, at: ret.refundedAt?.toISOString() ?? null } : null,
      exchange_order: exchange[0]?.number ?? null,
      /** The customer's photos, served only to the desk's members through GET /api/admin/returns/{number}/photos/… (ADR 0050). */
      photos: deskPhotosJson(photos.get(ret.id) ?? [], ret.number),
      timeline: events.map(({ event: e, staffName }) => ({ status: e.status, label: returnStatusLabel(e.status), note: e.note, at: e.createdAt.toISOString(), staff: staffName })),
      actions: allowedReturnMoves(status, actor.role),
    };
  }

  /** Receiving: the goods back on the shelf (`returned`) or written off as damaged, at the branch that took them. */
  async function receive(tx: Db, actor: StaffActor, ret: ReturnRow, order: OrderRow, input: ReturnMoveInput): Promise<{ note: string; branchId: number }> {
    const lines = await tx.select({ line: returnLines, variantId: orderLines.variantId, name: orderLines.name }).from(returnLines).innerJoin(orderLines, eq(orderLines.id, returnLines.orderLineId)).where(eq(returnLines.returnId, ret.id)).orderBy(asc(returnLines.id));
    const errors: Record<string, string[]> = {};
    const counts = lines.map(({ line, name, variantId }, i) => {
      const given = input.lines?.find((l) => l.line_id === line.orderLineId);
      const received = given ? given.received : line.quantity;
      const damaged = given ? given.damaged : 0;
      if (!Number.isInteger(received) || !Number.isInteger(damaged) || received < 0 || damaged < 0) errors[`lines.${i}`] = [`${name}: enter whole numbers of units.`];
      else if (received + damaged > line.quantity) errors[`lines.${i}`] = [`${name}: ${line.quantity} ${line.quantity === 1 ? "was" : "were"} returned; ${received + damaged} cannot be received.`];
      return { id: line.id, variantId, name, quantity: line.quantity, received, damaged };
    });
    for (const l of input.lines ?? []) if (!lines.some((x) => x.line.orderLineId === l.line_id)) errors.lines = [`Line ${l.line_id} is not in return ${ret.number}.`];
    if (Object.keys(errors).length) throw new ValidationError(errors);
    const branchId = input.branch_id ?? ret.branchId ?? actor.branchIds?.[0] ?? order.branchId ?? (await defaultBranchId(tx));
    if (!(await returnBranch(tx, branchId))) throw new ValidationError({ branch_id: ["Choose a branch."] });
    const why = `Return ${ret.number} (order ${order.number})`;
    const movements = counts.flatMap((c) =>
      c.variantId === null
        ? []
        : [
            ...(c.received + c.damaged > 0 ? [{ variantId: c.variantId, branchId, change: c.received + c.damaged, kind: "returned" as const, reason: why, staffId: actor.staffId, orderId: order.id }] : []),
            ...(c.damaged > 0 ? [{ variantId: c.variantId, branchId, change: -c.damaged, kind: "written_off" as const, reason: `${why}: received damaged`, staffId: actor.staffId, orderId: order.id }] : []),
          ],
    );
    const moved = await applyMovements(tx, movements);
    if (moved.refused.length) throw new Error(`Returned stock of variants ${moved.refused.join(", ")} was refused.`);
    for (const c of counts) await tx.update(returnLines).set({ received: c.received, damaged: c.damaged }).where(eq(returnLines.id, c.id));
    await tx.update(returns).set({ branchId, receivedAt: sql`now()` }).where(eq(returns.id, ret.id));
    const received = counts.reduce((n, c) => n + c.received, 0);
    const damaged = counts.reduce((n, c) => n + c.damaged, 0);
    const missing = counts.reduce((n, c) => n + c.quantity - c.received - c.damaged, 0);
    const note = [`${received} back in stock`, ...(damaged ? [`${damaged} received damaged`] : []), ...(missing ? [`${missing} not received`] : [])].join(", ") + ".";
    return { note, branchId };
  }

  /** Refunding: by card, by credit note on account, or by hand; within the member's refund limit. */
  async function refund(tx: Db, actor: StaffActor, ret: ReturnRow, order: OrderRow, input: ReturnMoveInput): Promise<{ amount: number; method: RefundMethod; refundId: number | null; creditNote: string | null; deduction: number; deductionReason: string }> {
    const deduction = input.deduction_pence ?? 0;
    const deductionReason = input.deduction_reason?.trim() ?? "";
    if (!Number.isInteger(deduction) || deduction < 0) throw new ValidationError({ deduction_pence: ["Enter the deduction in whole pence."] });
    if (deduction > 0 && !deductionReason) throw new ValidationError({ deduction_reason: ["Say why: the customer is told (handling beyond what inspecting the goods needed)."] });
    const proposal = await proposalFor(tx, ret, order, deduction);
    if (proposal.lines.length === 0) throw new HttpError(409, `Nothing of return ${ret.number} arrived: close it without a refund.`);
    // The whole order back: its promotion codes' uses are given back (issue 32), as a cancelled order's are.
    if (proposal.whole_order) await releasePromotions(tx, order.id);
    const ceiling = proposal.goods + proposal.delivery;
    const amount = input.refund_pence ?? proposal.total;
    if (!Number.isInteger(amount) || amount < 0) throw new ValidationError({ refund_pence: ["Enter the refund in whole pence."] });
    if (amount > ceiling) throw new ValidationError({ refund_pence: [`At most ${money(ceiling)}: the goods received back${proposal.delivery ? " and the delivery" : ""}.`] });
    const reason = `Return ${ret.number}`;
    if (order.paymentMethod === "card") {
      if (amount === 0) return { amount, method: "card", refundId: null, creditNote: null, deduction, deductionReason };
      const row = await options.payments.recordRefund(tx, actor, order, { reason, lines: proposal.lines.map((l) => ({ line_id: l.line_id, quantity: l.back })), pence: amount });
      return { amount, method: "card", refundId: row.id, creditNote: null, deduction, deductionReason };
    }
    if (order.paymentMethod === "pay_on_account") {
      if (input.refund_pence != null || deduction > 0) throw new ValidationError({ refund_pence: ["An order on account is refunded by a credit note for its lines as invoiced: it cannot be changed or reduced here."] });
      const [invoice] = await tx.select().from(tradeInvoices).where(eq(tradeInvoices.orderId, order.id));
      if (!invoice) throw new HttpError(409, `Order ${order.number} has no invoice to credit.`);
      await checkRefundLimit(tx, actor, proposal.goods + proposal.delivery, order.id);
      const { creditNote } = await creditInvoice(tx, options, actor, invoice, {
        reason,
        lines: [...proposal.lines.map((l) => ({ source: `order_line:${l.line_id}`, quantity: l.back })), ...(proposal.delivery > 0 ? [{ source: "delivery", quantity: 1 }] : [])],
      });
      return { amount: creditNote.total, method: "credit_note", refundId: null, creditNote: creditNote.number, deduction, deductionReason };
    }
    // Paid by bank transfer or at the counter: paid back the same way by hand, recorded here.
    await checkRefundLimit(tx, actor, amount, order.id);
    return { amount, method: "manual", refundId: null, creditNote: null, deduction, deductionReason };
  }

  /** Exchanging: a replacement order at no charge, through picking and dispatch like any other. */
  async function exchange(tx: Db, actor: StaffActor, ret: ReturnRow, order: OrderRow, input: ReturnMoveInput): Promise<string> {
    const lines = await tx.select({ line: returnLines, ordered: orderLines }).from(returnLines).innerJoin(orderLines, eq(orderLines.id, returnLines.orderLineId)).where(eq(returnLines.returnId, ret.id)).orderBy(asc(returnLines.id));
    const back = lines.filter((l) => l.line.received + l.line.damaged > 0);
    if (!back.length) throw new HttpError(409, `Nothing of return ${ret.number} arrived to exchange.`);
    const wanted = back.map((l) => ({ ...l, variantId: input.exchange?.find((e) => e.line_id === l.line.orderLineId)?.variant_id ?? l.ordered.variantId, quantity: l.line.received + l.line.damaged }));
    const ids = wanted.flatMap((w) => (w.variantId === null ? [] : [w.variantId]));
    const variants = ids.length ? await tx.select({ variant: productVariants, product: products }).from(productVariants).innerJoin(products, eq(products.id, productVariants.productId)).where(inArray(productVariants.id, ids)) : [];
    const errors: Record<string, string[]> = {};
    wanted.forEach((w, i) => {
      const v = variants.find((x) => x.variant.id === w.variantId);
      if (!v) errors[`exchange.${i}`] = [`${w.ordered.name}: choose a variant to send instead; this one is no longer sold.`];
      else if (w.ordered.productId !== null && v.product.id !== w.ordered.productId) errors[`exchange.${i}`] = [`${w.ordered.name}: exchange for another size or option of the same product.`];
    });
    if (Object.keys(errors).length) throw new ValidationError(errors);
    const branchId = order.branchId ?? (await defaultBranchId(tx));
    const [made] = await tx
      .insert(orders)
      .values({
        number: `pending-${crypto.randomUUID()}`,
        userId: order.userId,
        email: order.email,
        phone: order.phone,
        status: "paid",
        deliveryMethod: order.deliveryMethod,
        deliveryName: order.deliveryName,
        subtotal: 0,
        vat: 0,
        delivery: 0,
        total: 0,
        paymentMethod: order.paymentMethod,
        notes: `Replacement for return ${ret.number} (order ${order.number}), at no charge.`,
        poReference: order.poReference,
        branchId,
        tradeAccountId: order.tradeAccountId,
        // An exchange goes to the same site as the order it replaces.
        siteId: order.siteId,
      })
      .returning({ id: orders.id });
    const number = orderNumberOf(made!.id);
    await tx.update(orders).set({ number }).where(eq(orders.id, made!.id));
    const taken = await applyMovements(tx, wanted.map((w) => ({ variantId: w.variantId!, branchId, change: -w.quantity, kind: "sold" as const, orderId: made!.id, staffId: actor.staffId })));
    if (taken.refused.length) {
      const short = wanted.filter((w) => taken.refused.includes(w.variantId!)).map((w) => variants.find((v) => v.variant.id === w.variantId)!.variant.sku);
      throw new HttpError(409, `Not enough stock at the order's branch to send ${short.join(", ")}: receive or transfer some first, or refund instead.`);
    }
    await tx.insert(orderLines).values(
      wanted.map((w) => {
        const { variant, product } = variants.find((v) => v.variant.id === w.variantId)!;
        return { orderId: made!.id, productId: product.id, variantId: variant.id, sku: variant.sku, options: variant.options, unit: product.unit, name: lineName(product.name, variant.options), slug: product.slug, quantity: w.quantity, unitPrice: 0, vatRate: product.vatRate, lineTotal: 0, lineVat: 0 };
      }),
    );
    const addresses = await tx.select().from(orderAddresses).where(eq(orderAddresses.orderId, order.id));
    if (addresses.length) await tx.insert(orderAddresses).values(addresses.map(({ id: _id, orderId: _o, ...a }) => ({ ...a, orderId: made!.id })));
    await tx.insert(orderStatusHistory).values({ orderId: made!.id, status: "paid", note: `Replacement for return ${ret.number}, at no charge.`, staffId: actor.staffId });
    return number;
  }

  async function move(actor: StaffActor, number: string, input: ReturnMoveInput) {
    authorize(actor, "returns.view");
    if (!RETURN_STATUSES.includes(input.to)) throw new ValidationError({ to: [`Choose one of: ${RETURN_STATUSES.join(", ")}.`] });
    const reason = input.reason?.trim() ?? "";
    if (reason.length > REASON_MAX) throw new ValidationError({ reason: [`Keep the reason to ${REASON_MAX} characters.`] });
    const key = number.trim().toUpperCase();
    let sendRefund: number | null = null;
    await db.transaction(async (t) => {
      const tx = t as unknown as Db;
      // The lock order of the ledgers: a trade account before its order (trade/credit/ledger.ts), the order before its return.
      const [peek] = await tx.select({ orderId: returns.orderId, accountId: tradeInvoices.tradeAccountId }).from(returns).leftJoin(tradeInvoices, eq(tradeInvoices.orderId, returns.orderId)).where(eq(returns.number, key));
      if (!peek) throw new HttpError(404, `No return ${key}.`);
      if (input.to === "refunded" && peek.accountId !== null) await lockAccount(tx, peek.accountId);
      const [order] = await tx.select().from(orders).where(and(eq(orders.id, peek.orderId), ofMyBranches(actor))).for("update");
      if (!order) throw new HttpError(404, `No return ${key}.`);
      const [ret] = await tx.select().from(returns).where(eq(returns.number, key)).for("update");
      const from = ret!.status as ReturnStatus;
      if (input.expected_status && input.expected_status !== from) throw new HttpError(409, `Return ${key} changed while you were looking: it is now ${RETURN_STATUS_LABELS[from].toLowerCase()}.`);
      const step = checkReturnMove(key, from, input.to, actor.role);
      let note = reason;
      const set: Partial<typeof returns.$inferInsert> = { status: step.to, updatedAt: sql`now()` as unknown as Date };
      const audit: Record<string, unknown> = { status: step.to, ...(reason ? { reason } : {}) };
      let mail: Parameters<typeof emailReturn>[3] | null = null;
      switch (step.to) {
        case "approved":
          mail = { kind: "approved" };
          break;
        case "rejected":
          if (!reason) throw new ValidationError({ reason: ["Give the reason: the customer is told."] });
          set.rejectReason = reason;
          mail = { kind: "rejected", reason };
          break;
        case "received": {
          const got = await receive(tx, actor, ret!, order, input);
          note = [got.note, reason].filter(Boolean).join(" ");
          audit.received = got.note;
          audit.branch_id = got.branchId;
          mail = { kind: "received", note: got.note };
          break;
        }
        case "refunded": {
          const paid = await refund(tx, actor, ret!, order, input);
          Object.assign(set, { refunded: paid.amount, refundMethod: paid.method, paymentRefundId: paid.refundId, creditNoteNumber: paid.creditNote, deduction: paid.deduction, deductionReason: paid.deductionReason, refundedAt: sql`now()` as unknown as Date });
          sendRefund = paid.refundId;
          const how =
            paid.method === "card"
              ? `${money(paid.amount)} to the card you paid with; it usually shows within 5 to 10 working days.`
              : paid.method === "credit_note"
                ? `credit note ${paid.creditNote} for ${money(paid.amount)} on your trade account.`
                : `${money(paid.amount)}, paid back the way you paid.`;
          note = [`Refunded ${money(paid.amount)} (${paid.method === "credit_note" ? `credit note ${paid.creditNote}` : paid.method === "card" ? "to the card" : "by hand"}).`, paid.deduction ? `Deducted ${money(paid.deduction)}: ${paid.deductionReason}` : "", reason].filter(Boolean).join(" ");
          Object.assign(audit, { refund: pounds(paid.amount), method: paid.method, ...(paid.creditNote ? { credit_note: paid.creditNote } : {}), ...(paid.deduction ? { deduction: pounds(paid.deduction), deduction_reason: paid.deductionReason } : {}) });
          // A card refund's own email comes from the payments domain once the gateway has it.
          if (paid.method !== "card") mail = { kind: "refunded", how: `${how}${paid.deduction ? ` We deducted ${money(paid.deduction)}: ${paid.deductionReason}` : ""}` };
          break;
        }
        case "exchanged": {
          const replacement = await exchange(tx, actor, ret!, order, input);
          const [made] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.number, replacement));
          set.exchangeOrderId = made!.id;
          note = [`Replacement order ${replacement}.`, reason].filter(Boolean).join(" ");
          audit.exchange_order = replacement;
          mail = { kind: "exchanged", order: replacement };
          break;
        }
        default:
          // Closed (and the table's other moves): the status and the timeline alone.
          break;
      }
      await tx.update(returns).set(set).where(eq(returns.id, ret!.id));
      await tx.insert(returnEvents).values({ returnId: ret!.id, status: step.to, note, staffId: actor.staffId });
      await tx.insert(orderStatusHistory).values({ orderId: order.id, status: order.status, kind: "note", note: `Return ${key}: ${RETURN_STATUS_LABELS[step.to].toLowerCase()}.${note ? ` ${note}` : ""}`, staffId: actor.staffId });
      await recordAudit(tx, actor, { action: "return.transition", entity: "return", entityId: key, before: { status: from }, after: audit });
      if (mail && step.emailsCustomer) await emailReturn(tx, options, await forMail(tx, ret!, order), mail);
    });
    options.mail.kick?.();
    if (sendRefund !== null) {
      try {
        await options.payments.sendRefund(sendRefund);
      } catch (error) {
        // The card refund failed at the gateway (nothing was refunded): the return goes back to received, to try again.
        await db.transaction(async (t) => {
          const tx = t as unknown as Db;
          const [ret] = await tx.update(returns).set({ status: "received", refunded: null, refundMethod: null, paymentRefundId: null, refundedAt: null, updatedAt: sql`now()` }).where(and(eq(returns.number, key), eq(returns.status, "refunded"), eq(returns.paymentRefundId, sendRefund!))).returning();
          if (ret) await tx.insert(returnEvents).values({ returnId: ret.id, status: "received", note: "The card refund failed at the payment service; nothing was refunded. Try again.", staffId: actor.staffId });
        });
        throw error;
      }
    }
    return detail(actor, key);
  }

  /** Returns as the list shows them, newest first: the desk's rows, and an order's returns on its page. */
  async function summaries(actor: StaffActor, where: SQL[], limit: number) {
    const rows = await db
      .select({
        ret: returns,
        orderNumber: orders.number,
        email: orders.email,
        units: sql<number>`(select coalesce(sum(${returnLines.quantity}), 0)::int from ${returnLines} where ${returnLines.returnId} = ${returns.id})`,
      })
      .from(returns)
      .innerJoin(orders, eq(orders.id, returns.orderId))
      .where(where.length ? and(...where) : undefined)
      .orderBy(desc(returns.id))
      .limit(limit);
    const customers = can(actor.role, "customers.view");
    return rows.map(({ ret, orderNumber, email, units }) => ({
      id: ret.id,
      summary: {
        ...returnHeadJson(ret),
        order_number: orderNumber,
        ...(customers ? { email } : {}),
        units,
        created_at: ret.createdAt.toISOString(),
        refund_days_left: daysLeft(ret),
      },
    }));
  }

  return {
    /** The desk's list: newest first, a keyset page at a time. */
    async list(actor: StaffActor, filters: ReturnsFilters = {}) {
      authorize(actor, "returns.view");
      const limit = Math.min(Math.max(Math.trunc(filters.limit ?? RETURNS_PAGE), 1), RETURNS_PAGE_MAX);
      const where = filterWhere(actor, filters, true);
      if (filters.cursor) where.push(lt(returns.id, decodeCursor(filters.cursor)));
      const rows = await summaries(actor, where, limit + 1);
      const page = rows.slice(0, limit);
      return {
        data: page.map((r) => r.summary),
        next_cursor: rows.length > limit ? encodeCursor(page[page.length - 1]!.id) : null,
      };
    },

    /** An order's returns, newest first, for its page on the orders desk (every one: an order has few). */
    async forOrder(actor: StaffActor, orderNumber: string) {
      authorize(actor, "returns.view");
      const where = [eq(orders.number, orderNumber.trim().toUpperCase())];
      const mine = ofMyBranches(actor);
      if (mine) where.push(mine);
      return (await summaries(actor, where, RETURNS_PAGE_MAX)).map((r) => r.summary);
    },

    /**
     * What a replacement may be, per line of a received return: the product's
     * variants on sale (the same one first), each with its stock at the
     * branch the replacement is sent from (the order's).
     */
    async exchangeChoices(actor: StaffActor, number: string) {
      authorize(actor, "returns.approve");
      const key = number.trim().toUpperCase();
      const [row] = await db.select({ ret: returns, order: orders }).from(returns).innerJoin(orders, eq(orders.id, returns.orderId)).where(and(eq(returns.number, key), ofMyBranches(actor)));
      if (!row) throw new HttpError(404, `No return ${key}.`);
      const branchId = row.order.branchId ?? (await defaultBranchId(db));
      const lines = await db.select({ lineId: returnLines.orderLineId, productId: orderLines.productId, variantId: orderLines.variantId }).from(returnLines).innerJoin(orderLines, eq(orderLines.id, returnLines.orderLineId)).where(eq(returnLines.returnId, row.ret.id)).orderBy(asc(returnLines.id));
      const productIds = [...new Set(lines.flatMap((l) => (l.productId === null ? [] : [l.productId])))];
      const variants = productIds.length
        ? await db
            .select({ id: productVariants.id, productId: productVariants.productId, sku: productVariants.sku, options: productVariants.options, name: products.name, stock: sql<number>`coalesce((select ${branchStock.stock} from ${branchStock} where ${branchStock.variantId} = ${productVariants.id} and ${branchStock.branchId} = ${branchId}), 0)::int` })
            .from(productVariants)
            .innerJoin(products, eq(products.id, productVariants.productId))
            .where(and(inArray(productVariants.productId, productIds), eq(productVariants.status, "active")))
            .orderBy(asc(productVariants.position), asc(productVariants.id))
        : [];
      return lines.map((l) => ({
        line_id: l.lineId,
        variant_id: l.variantId,
        choices: variants
          .filter((v) => v.productId === l.productId)
          .sort((a, b) => Number(b.id === l.variantId) - Number(a.id === l.variantId))
          .map((v) => ({ id: v.id, sku: v.sku, name: lineName(v.name, v.options), stock: v.stock })),
      }));
    },

    /** Returns per status for the same search: the counts on the tabs. */
    async statusCounts(actor: StaffActor, filters: ReturnsFilters = {}): Promise<Record<ReturnStatus, number>> {
      authorize(actor, "returns.view");
      const where = filterWhere(actor, filters, false);
      const rows = await db.select({ status: returns.status, n: count() }).from(returns).innerJoin(orders, eq(orders.id, returns.orderId)).where(where.length ? and(...where) : undefined).groupBy(returns.status);
      const counts = Object.fromEntries(RETURN_STATUSES.map((s) => [s, 0])) as Record<ReturnStatus, number>;
      for (const r of rows) if (r.status in counts) counts[r.status as ReturnStatus] = r.n;
      return counts;
    },

    detail,
    transition: move,
  };
}

export type ReturnsDesk = ReturnType<typeof createReturnsDesk>;
export type ReturnDetail = Awaited<ReturnType<ReturnsDesk["detail"]>>;
export type ReturnSummary = Awaited<ReturnType<ReturnsDesk["list"]>>["data"][number];

import { and, asc, count, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http-errors.ts";
import { users } from "../auth/schema.ts";
import type { Outbox } from "../auth/service.ts";
import { pounds } from "../catalog/products.ts";
import { renderEmail } from "../mail/templates.ts";
import { ORDER_STATUSES, type OrderStatus, orderAddresses, orderLines, orderStatusHistory, orders } from "./schema.ts";

export const ORDERS_PER_PAGE = 20;

export const STATUS_LABELS: Record<OrderStatus, string> = {
  awaiting_payment: "Awaiting payment",
  paid: "Paid",
  processing: "Processing",
  dispatched: "Dispatched",
  ready_for_collection: "Ready for collection",
  completed: "Completed",
  cancelled: "Cancelled",
};

/** Moves the customer hears about. */
const EMAILED: OrderStatus[] = ["paid", "dispatched", "ready_for_collection", "cancelled"];

export function createOrderService(db: Db, options: { mail: Outbox; appName: string; publicUrl: string }) {
  async function detail(where: ReturnType<typeof eq>) {
    const [order] = await db.select().from(orders).where(where).limit(1);
    if (!order) return null;
    const [lines, addresses, history] = await Promise.all([
      db.select().from(orderLines).where(eq(orderLines.orderId, order.id)).orderBy(asc(orderLines.id)),
      db.select().from(orderAddresses).where(eq(orderAddresses.orderId, order.id)).orderBy(asc(orderAddresses.id)),
      db.select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, order.id)).orderBy(asc(orderStatusHistory.id)),
    ]);
    return {
      id: order.id,
      number: order.number,
      status: order.status as OrderStatus,
      status_label: STATUS_LABELS[order.status as OrderStatus] ?? order.status,
      created_at: order.createdAt.toISOString(),
      email: order.email,
      phone: order.phone,
      delivery_method: order.deliveryMethod,
      delivery_name: order.deliveryName,
      payment_method: order.paymentMethod,
      po_reference: order.poReference,
      notes: order.notes,
      subtotal: pounds(order.subtotal),
      vat: pounds(order.vat),
      delivery: pounds(order.delivery),
      total: pounds(order.total),
      lines: lines.map((l) => ({
        product_id: l.productId,
        sku: l.sku,
        name: l.name,
        slug: l.slug,
        quantity: l.quantity,
        unit_price: pounds(l.unitPrice + Math.floor((l.unitPrice * l.vatRate + 50) / 100)),
        unit_price_ex_vat: pounds(l.unitPrice),
        vat_rate: l.vatRate,
        line_total: pounds(l.lineTotal + l.lineVat),
        line_total_ex_vat: pounds(l.lineTotal),
      })),
      addresses: addresses.map((a) => ({ kind: a.kind, name: a.name, line_1: a.line1, line_2: a.line2, line_3: a.line3, town: a.town, county: a.county, postcode: a.postcode })),
      history: history.map((h) => ({ status: h.status, label: STATUS_LABELS[h.status as OrderStatus] ?? h.status, note: h.note, at: h.createdAt.toISOString() })),
    };
  }

  return {
    /** A user's orders, newest first, a bounded page at a time. */
    async history(userId: number, page = 1) {
      const safePage = Math.min(Math.max(1, page), 500);
      const [rows, [{ total } = { total: 0 }]] = await Promise.all([
        db
          .select()
          .from(orders)
          .where(eq(orders.userId, userId))
          .orderBy(desc(orders.id))
          .limit(ORDERS_PER_PAGE)
          .offset((safePage - 1) * ORDERS_PER_PAGE),
        db.select({ total: count() }).from(orders).where(eq(orders.userId, userId)),
      ]);
      const counts = rows.length
        ? await db.select({ orderId: orderLines.orderId, items: count() }).from(orderLines).where(inArray(orderLines.orderId, rows.map((r) => r.id))).groupBy(orderLines.orderId)
        : [];
      return {
        data: rows.map((o) => ({
          id: o.id,
          number: o.number,
          status: o.status,
          status_label: STATUS_LABELS[o.status as OrderStatus] ?? o.status,
          created_at: o.createdAt.toISOString(),
          total: pounds(o.total),
          lines: counts.find((c) => c.orderId === o.id)?.items ?? 0,
        })),
        total,
        page: safePage,
        last_page: Math.max(1, Math.ceil(total / ORDERS_PER_PAGE)),
      };
    },

    /** One order of this user; another user's order is not found. */
    async forUser(userId: number, orderId: number) {
      return detail(and(eq(orders.id, orderId), eq(orders.userId, userId)) as ReturnType<typeof eq>);
    },

    /** The lines of one of this user's orders, for a reorder; null when the order is not theirs. */
    async linesForUser(userId: number, orderId: number) {
      const [order] = await db.select({ id: orders.id, number: orders.number }).from(orders).where(and(eq(orders.id, orderId), eq(orders.userId, userId))).limit(1);
      if (!order) return null;
      const lines = await db
        .select({ productId: orderLines.productId, name: orderLines.name, quantity: orderLines.quantity })
        .from(orderLines)
        .where(eq(orderLines.orderId, order.id))
        .orderBy(asc(orderLines.id));
      return { number: order.number, lines };
    },

    byNumber: (number: string) => detail(eq(orders.number, number)),

    /**
     * Moves a guest's orders into the account that just signed in or signed up
     * from the same browser (ADR 0017). An order moves only when both hold: it
     * was placed with this guest cookie (its hash), and its email is the
     * account's email (case aside). Orders placed with another email stay guest
     * orders. One conditional UPDATE: each row moves at most once, a claimed
     * row loses its guest key, and a row that already has an owner is never
     * touched, so running it again (or twice at once) changes nothing.
     */
    async claimGuestOrders(userId: number, guestHash: string): Promise<{ id: number; number: string }[]> {
      const accountEmail = db.select({ email: sql`lower(${users.email}::text)` }).from(users).where(eq(users.id, userId));
      return db
        .update(orders)
        .set({ userId, guestKeyHash: null })
        .where(and(eq(orders.guestKeyHash, guestHash), isNull(orders.userId), sql`lower(${orders.email}) = (${accountEmail})`))
        .returning({ id: orders.id, number: orders.number });
    },

    /** Staff move an order on; each move is recorded and, where it matters, emailed. */
    async setStatus(number: string, status: string, note = "") {
      if (!(ORDER_STATUSES as readonly string[]).includes(status)) {
        throw new HttpError(422, `Unknown status. Use one of: ${ORDER_STATUSES.join(", ")}.`);
      }
      const next = status as OrderStatus;
      return db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const [order] = await tx.select().from(orders).where(eq(orders.number, number)).for("update");
        if (!order) throw new HttpError(404, `No order ${number}.`);
        if (order.status === next) throw new HttpError(409, `Order ${number} is already ${STATUS_LABELS[next].toLowerCase()}.`);
        if (order.status === "cancelled" || order.status === "completed") throw new HttpError(409, `Order ${number} is ${order.status}; it cannot change.`);
        await tx.update(orders).set({ status: next }).where(eq(orders.id, order.id));
        await tx.insert(orderStatusHistory).values({ orderId: order.id, status: next, note });
        if (EMAILED.includes(next)) {
          const mail = renderEmail({
            appName: options.appName,
            publicUrl: options.publicUrl,
            title: `Order ${number}: ${STATUS_LABELS[next]}`,
            paragraphs: [`Your order ${number} is now: ${STATUS_LABELS[next].toLowerCase()}.`, ...(note ? [note] : [])],
          });
          await options.mail.enqueue(tx, { to: order.email, subject: `Order ${number}: ${STATUS_LABELS[next]}`, ...mail });
        }
        return { number, status: next };
      });
    },
  };
}

export type OrderService = ReturnType<typeof createOrderService>;

import { type SQL, and, asc, count, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { users } from "../auth/schema.ts";
import { pounds } from "../catalog/products/products.ts";
import { paymentSessions, payments } from "../payments/schema.ts";
import { addressJson, lineJson, linePricesJson, loadOrder } from "./read.ts";
import { orderStatusLabel } from "./statuses.ts";
import { tradeSites } from "../trade/accounts/sites-schema.ts";
import { type OrderStatus, orderLines, orders } from "./schema.ts";
import { STATUS_LABELS } from "./transitions.ts";

export const ORDERS_PER_PAGE = 20;

// The labels live with the state machine; re-exported for the storefront's readers.
export { STATUS_LABELS };

export function createOrderService(db: Db) {
  async function detail(where: SQL) {
    const loaded = await loadOrder(db, where, "customer");
    if (!loaded) return null;
    const { order, lines, addresses, history, site } = loaded;
    // Card refunds (payments domain), as the customer's bank will see them; pending ones included.
    const [refunds] = order.paymentMethod === "card"
      ? await db
          .select({ pence: sql<number>`coalesce(sum(${payments.refunded}), 0)::int` })
          .from(payments)
          .innerJoin(paymentSessions, eq(paymentSessions.id, payments.sessionId))
          .where(eq(paymentSessions.orderId, order.id))
      : [];
    return {
      id: order.id,
      number: order.number,
      status: order.status as OrderStatus,
      status_label: orderStatusLabel(order.status),
      created_at: order.createdAt.toISOString(),
      email: order.email,
      /** Who it is for: the recipient, or who collects it (issue 34). */
      customer_name: order.customerName,
      phone: order.phone,
      delivery_method: order.deliveryMethod,
      delivery_name: order.deliveryName,
      payment_method: order.paymentMethod,
      po_reference: order.poReference,
      /** The company's site it is for (trade/accounts/sites.ts). */
      site,
      notes: order.notes,
      subtotal: pounds(order.subtotal),
      /** What promotions took off, ex VAT (the subtotal is after it). */
      discount: pounds(order.discount),
      vat: pounds(order.vat),
      delivery: pounds(order.delivery),
      total: pounds(order.total),
      refunded: pounds(refunds?.pence ?? 0),
      lines: lines.map((l) => ({ ...lineJson(l), ...linePricesJson(l) })),
      addresses: addresses.map(addressJson),
      history: history.map(({ entry: h }) => ({ status: h.status, label: orderStatusLabel(h.status), note: h.note, at: h.createdAt.toISOString() })),
    };
  }

  return {
    /** A user's orders, newest first, a bounded page at a time; only those for one of their company's sites when `siteId` is given. */
    async history(userId: number, page = 1, siteId?: number) {
      const safePage = Math.min(Math.max(1, page), 500);
      const mine = and(eq(orders.userId, userId), siteId === undefined ? undefined : eq(orders.siteId, siteId));
      // One statement: the page, each order's line count and the total (issue 35: three round trips were most of its cost).
      const found = await db
        .select({
          order: { id: orders.id, number: orders.number, status: orders.status, createdAt: orders.createdAt, total: orders.total },
          site: tradeSites.name,
          lines: sql<number>`(select count(*) from ${orderLines} where ${orderLines.orderId} = ${orders.id})::int`,
          count: sql<number>`(count(*) over ())::int`,
        })
        .from(orders)
        .leftJoin(tradeSites, eq(tradeSites.id, orders.siteId))
        .where(mine)
        .orderBy(desc(orders.id))
        .limit(ORDERS_PER_PAGE)
        .offset((safePage - 1) * ORDERS_PER_PAGE);
      // A page past the last has no row to carry the count.
      const total = found[0]?.count ?? (safePage === 1 ? 0 : ((await db.select({ total: count() }).from(orders).where(mine))[0]?.total ?? 0));
      const rows = found.map((f) => ({ ...f.order, siteName: f.site, lines: f.lines }));
      return {
        data: rows.map((o) => ({
          id: o.id,
          number: o.number,
          status: o.status,
          status_label: orderStatusLabel(o.status),
          created_at: o.createdAt.toISOString(),
          total: pounds(o.total),
          lines: o.lines,
          site: o.siteName,
        })),
        total,
        page: safePage,
        last_page: Math.max(1, Math.ceil(total / ORDERS_PER_PAGE)),
      };
    },

    /** One order of this user; another user's order is not found. */
    async forUser(userId: number, orderId: number) {
      return detail(and(eq(orders.id, orderId), eq(orders.userId, userId))!);
    },

    /** The lines of one of this user's orders, for a reorder; null when the order is not theirs. */
    async linesForUser(userId: number, orderId: number) {
      const [order] = await db.select({ id: orders.id, number: orders.number }).from(orders).where(and(eq(orders.id, orderId), eq(orders.userId, userId))).limit(1);
      if (!order) return null;
      const lines = await db
        .select({ variantId: orderLines.variantId, name: orderLines.name, quantity: orderLines.quantity })
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
  };
}

export type OrderService = ReturnType<typeof createOrderService>;

import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { recordAudit } from "../audit/service.ts";
import { users } from "../auth/schema.ts";
import { pounds } from "../catalog/products/products.ts";
import { type StaffActor, authorize } from "../staff/actor.ts";
import { tradeAccounts } from "../trade/schema.ts";
import { trackingUrl, paymentLabel } from "./fulfilment.ts";
import { orderCustomerLabel } from "./names.ts";
import { type LoadedOrder, addressJson, ofMyBranches, lineJson, linePricesJson, loadOrder } from "./read.ts";
import { orderStatusLabel } from "./statuses.ts";
import { type OrderStatus, orderStatusHistory, orders } from "./schema.ts";
import { type TransitionOrder, allowedTransitions } from "./transitions.ts";
import { byNumber, createAdminOrderList, sight } from "./admin-list.ts";
import { type AdminOrderOptions, NOTE_MAX, type TransitionRequest, createAdminOrderMoves } from "./admin-moves.ts";

export type { AdminOrderOptions, TransitionRequest } from "./admin-moves.ts";

/**
 * The orders desk's service (ADR 0029): its list, tabs and export
 * (admin-list.ts), an order's detail as a member may see it (here), and
 * moving orders on (admin-moves.ts).
 */
export function createAdminOrderService(db: Db, options: AdminOrderOptions) {
  const list = createAdminOrderList(db);
  const { moveOne, bulkTransition } = createAdminOrderMoves(db, options);

  /** Who the order is for, for a member who may see customers. */
  async function customerOf(loaded: LoadedOrder) {
    const { order, addresses } = loaded;
    const [row] = await db
      .select({ firstname: users.firstname, lastname: users.lastname, accountEmail: users.email, companyName: tradeAccounts.companyName })
      .from(orders)
      .leftJoin(users, eq(users.id, orders.userId))
      .leftJoin(tradeAccounts, eq(tradeAccounts.id, orders.tradeAccountId))
      .where(eq(orders.id, order.id));
    const accountName = row?.firstname ? `${row.firstname} ${row.lastname}`.trim() : "";
    const billing = addresses.find((a) => a.kind === "billing");
    const delivery = addresses.find((a) => a.kind === "delivery");
    return {
      user_id: order.userId,
      guest: order.userId === null,
      name: orderCustomerLabel({ customerName: order.customerName || accountName || delivery?.name || billing?.name || "", email: order.email }),
      email: order.email,
      account_email: row?.accountEmail ?? null,
      phone: order.phone,
      trade_account: order.tradeAccountId !== null ? { id: order.tradeAccountId, company_name: row?.companyName ?? "" } : null,
    };
  }

  async function detailOf(actor: StaffActor, loaded: LoadedOrder) {
    const { order, lines, addresses, history, fulfilment } = loaded;
    const see = sight(actor);
    const delivery = addresses.find((a) => a.kind === "delivery");
    const billing = addresses.find((a) => a.kind === "billing");
    const machine: TransitionOrder = { number: order.number, status: order.status as OrderStatus, payment_method: order.paymentMethod, fulfilment, has_collection_code: order.collectionCode !== null };
    return {
      number: order.number,
      status: order.status as OrderStatus,
      status_label: orderStatusLabel(order.status),
      created_at: order.createdAt.toISOString(),
      updated_at: order.updatedAt.toISOString(),
      fulfilment,
      delivery_method: order.deliveryMethod,
      delivery_method_name: order.deliveryName,
      /** Who it is for: the recipient or the collector named at checkout or the counter (picking and the counter need it). */
      customer_name: order.customerName,
      /** Where it is collected from or sent from; null for a delivery split between branches. */
      branch: loaded.branch,
      /** The trade customer's site it is for: picking and the driver need it. */
      site: loaded.site,
      collect_ready_at: order.collectReadyAt?.toISOString() ?? null,
      /** The customer's notes at checkout (delivery instructions): picking needs them too. */
      notes: order.notes,
      carrier: order.carrier,
      tracking_number: order.trackingNumber,
      tracking_url: trackingUrl(order.carrier, order.trackingNumber),
      lines: lines.map((l) => ({ ...lineJson(l), ...(see.prices ? linePricesJson(l) : {}) })),
      addresses: {
        delivery: delivery ? addressJson(delivery) : null,
        ...(see.customers ? { billing: billing ? addressJson(billing) : null } : {}),
      },
      ...(see.prices
        ? {
            totals: { subtotal: pounds(order.subtotal), discount: pounds(order.discount), vat: pounds(order.vat), delivery: pounds(order.delivery), total: pounds(order.total) },
            payment: {
              method: order.paymentMethod,
              label: paymentLabel(order.paymentMethod),
              po_reference: order.poReference,
              // Recorded by staff: at the counter, or a bank transfer marked paid.
              reference: order.paymentReference,
              paid_amount: order.paidAmount === null ? null : pounds(order.paidAmount),
              paid_on: order.paidOn,
            },
          }
        : {}),
      ...(see.customers ? { customer: await customerOf(loaded) } : {}),
      history: history.map(({ entry, staffName }) => ({
        kind: entry.kind as "status" | "note",
        status: entry.status,
        label: orderStatusLabel(entry.status),
        note: entry.note,
        at: entry.createdAt.toISOString(),
        staff: entry.staffId !== null ? { id: entry.staffId, name: staffName ?? "" } : null,
      })),
      actions: allowedTransitions(machine, actor.role),
    };
  }

  async function detail(actor: StaffActor, number: string) {
    authorize(actor, "orders.view");
    const loaded = await loadOrder(db, and(byNumber(number), ofMyBranches(actor))!, "staff");
    if (!loaded) throw new HttpError(404, `No order ${number.trim().toUpperCase()}.`);
    return detailOf(actor, loaded);
  }

  return {
    ...list,

    detail,

    /** The order as it is now; `credit_note` when cancelling it credited its invoice. */
    async transition(actor: StaffActor, number: string, input: TransitionRequest) {
      const done = await moveOne(actor, number, input);
      return { ...(await detail(actor, done.number)), ...(done.credit?.creditNote ? { credit_note: done.credit.creditNote } : {}) };
    },


    bulkTransition,

    /** A note on the order's timeline, for staff only; the status stays. */
    async addNote(actor: StaffActor, number: string, note: string) {
      authorize(actor, "orders.note");
      const text = note.trim();
      if (!text) throw new ValidationError({ note: ["Write the note."] });
      if (text.length > NOTE_MAX) throw new ValidationError({ note: [`The note may be at most ${NOTE_MAX} characters.`] });
      const done = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const [order] = await tx.select({ id: orders.id, number: orders.number, status: orders.status }).from(orders).where(and(byNumber(number), ofMyBranches(actor)));
        if (!order) throw new HttpError(404, `No order ${number.trim().toUpperCase()}.`);
        await tx.insert(orderStatusHistory).values({ orderId: order.id, status: order.status, note: text, kind: "note", staffId: actor.staffId });
        await recordAudit(tx, actor, { action: "order.note", entity: "order", entityId: order.number, after: { note: text } });
        return order.number;
      });
      return detail(actor, done);
    },
  };
}

export type AdminOrderService = ReturnType<typeof createAdminOrderService>;
export type AdminOrderSummary = Awaited<ReturnType<AdminOrderService["list"]>>["data"][number];
export type AdminOrderDetail = Awaited<ReturnType<AdminOrderService["detail"]>>;

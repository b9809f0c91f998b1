import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http-errors.ts";
import { type StaffActor, authorize } from "../staff/actor.ts";
import { type DocumentShop, type PickingOrder, batchPickingListPdf, deliveryNotePdf, pickingListPdf } from "./documents.ts";
import { FULFILMENT_SQL, type LoadedOrder, loadOrder, ofMyBranches } from "./read.ts";
import { orderAddresses, orderLines, orders } from "./schema.ts";

/** Orders waiting to leave: paid, or being picked. */
export const AWAITING_DISPATCH = ["paid", "processing"] as const;
/** A batch list covers at most this many orders, oldest first (a day's picking, not the year's). */
export const BATCH_MAX = 300;

type AddressRow = typeof orderAddresses.$inferSelect;

function pickingOrder(order: typeof orders.$inferSelect, fulfilment: "delivery" | "collection", lines: { sku: string; name: string; quantity: number; cancelledQuantity: number; unit: string }[], delivery: AddressRow | undefined): PickingOrder {
  return {
    number: order.number,
    createdAt: order.createdAt,
    deliveryMethod: order.deliveryMethod,
    deliveryMethodLabel: order.deliveryName,
    collection: fulfilment === "collection",
    address: fulfilment === "collection" || !delivery ? null : { name: delivery.name, line1: delivery.line1, line2: delivery.line2, line3: delivery.line3, town: delivery.town, county: delivery.county, postcode: delivery.postcode },
    notes: order.notes,
    // Units the customer cancelled before dispatch are neither picked nor sent (returns/cancel.ts).
    lines: lines.filter((l) => l.quantity > l.cancelledQuantity).map((l) => ({ sku: l.sku, name: l.name, quantity: l.quantity - l.cancelledQuantity, unit: l.unit })),
  };
}

const fromLoaded = (loaded: LoadedOrder) => pickingOrder(loaded.order, loaded.fulfilment, loaded.lines, loaded.addresses.find((a) => a.kind === "delivery"));

/**
 * The warehouse's paper (ADR 0031): no prices and no customer beyond the
 * delivery address, so every role that picks and dispatches may print them.
 */
export function createOrderDocuments(db: Db, options: { shop: DocumentShop }) {
  async function one(actor: StaffActor, number: string) {
    authorize(actor, "orders.fulfil");
    const wanted = number.trim().toUpperCase();
    const loaded = await loadOrder(db, and(eq(orders.number, wanted), ofMyBranches(actor))!, "staff");
    if (!loaded) throw new HttpError(404, `No order ${wanted}.`);
    return fromLoaded(loaded);
  }

  return {
    pickingList: async (actor: StaffActor, number: string) => pickingListPdf(await one(actor, number)),
    deliveryNote: async (actor: StaffActor, number: string) => deliveryNotePdf(await one(actor, number), options.shop),

    /**
     * Every order awaiting dispatch, oldest first, or the orders chosen on the
     * list (`numbers`, whatever their status), in three queries however many.
     */
    async batchPickingList(actor: StaffActor, numbers?: readonly string[]) {
      authorize(actor, "orders.fulfil");
      const chosen = numbers?.map((n) => n.trim().toUpperCase()).filter(Boolean).slice(0, BATCH_MAX);
      const rows = await db
        .select({ order: orders, fulfilment: FULFILMENT_SQL })
        .from(orders)
        .where(and(chosen?.length ? inArray(orders.number, chosen) : inArray(orders.status, [...AWAITING_DISPATCH]), ofMyBranches(actor)))
        .orderBy(asc(orders.id))
        .limit(BATCH_MAX);
      const ids = rows.map((r) => r.order.id);
      const [lines, addresses] = ids.length
        ? await Promise.all([
            db.select().from(orderLines).where(inArray(orderLines.orderId, ids)).orderBy(asc(orderLines.id)),
            db.select().from(orderAddresses).where(inArray(orderAddresses.orderId, ids)),
          ])
        : [[], []];
      const linesOf = Map.groupBy(lines, (l) => l.orderId);
      const deliveryTo = new Map(addresses.filter((a) => a.kind === "delivery").map((a) => [a.orderId, a]));
      const picking = rows.map(({ order, fulfilment }) => pickingOrder(order, fulfilment, linesOf.get(order.id) ?? [], deliveryTo.get(order.id)));
      return { pdf: await batchPickingListPdf(picking), orders: picking.length };
    },
  };
}

export type OrderDocuments = ReturnType<typeof createOrderDocuments>;

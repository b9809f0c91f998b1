import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http-errors.ts";
import { products } from "../catalog/schema.ts";
import { type StaffActor, authorize } from "../staff/actor.ts";
import { type DocumentShop, type PickingOrder, batchPickingListPdf, deliveryNotePdf, pickingListPdf } from "./documents.ts";
import { FULFILMENT_SQL, type LoadedOrder, loadOrder, ofMyBranches } from "./read.ts";
import { orderCustomerLabel } from "./names.ts";
import { orderAddresses, orderLines, orders } from "./schema.ts";

/** Orders waiting to leave: paid, or being picked. */
export const AWAITING_DISPATCH = ["paid", "processing"] as const;
/** A batch list covers at most this many orders, oldest first (a day's picking, not the year's). */
export const BATCH_MAX = 300;

type AddressRow = typeof orderAddresses.$inferSelect;

type PickLine = { sku: string; name: string; quantity: number; cancelledQuantity: number; unit: string; productId: number | null };

function pickingOrder(order: typeof orders.$inferSelect, fulfilment: "delivery" | "collection", lines: PickLine[], delivery: AddressRow | undefined, bins: ReadonlyMap<number, string>): PickingOrder {
  return {
    number: order.number,
    createdAt: order.createdAt,
    deliveryMethod: order.deliveryMethod,
    deliveryMethodLabel: order.deliveryName,
    collection: fulfilment === "collection",
    address: fulfilment === "collection" || !delivery ? null : { name: delivery.name, company: delivery.company, line1: delivery.line1, line2: delivery.line2, line3: delivery.line3, town: delivery.town, county: delivery.county, postcode: delivery.postcode },
    notes: order.notes,
    customer: orderCustomerLabel(order),
    phone: order.phone,
    poReference: order.poReference,
    // Units the customer cancelled before dispatch are neither picked nor sent (returns/cancel.ts).
    lines: lines
      .filter((l) => l.quantity > l.cancelledQuantity)
      .map((l) => ({ sku: l.sku, name: l.name, quantity: l.quantity - l.cancelledQuantity, unit: l.unit, bin: (l.productId !== null && bins.get(l.productId)) || "" })),
  };
}

/** The bin each product sits in, for the lines' products: one query however many lines. */
async function binsOf(db: Db, lines: readonly { productId: number | null }[]): Promise<Map<number, string>> {
  const ids = [...new Set(lines.flatMap((l) => (l.productId === null ? [] : [l.productId])))];
  if (!ids.length) return new Map();
  const rows = await db.select({ id: products.id, bin: products.binLocation }).from(products).where(inArray(products.id, ids));
  return new Map(rows.map((r) => [r.id, r.bin]));
}

const fromLoaded = async (db: Db, loaded: LoadedOrder) =>
  pickingOrder(loaded.order, loaded.fulfilment, loaded.lines, loaded.addresses.find((a) => a.kind === "delivery"), await binsOf(db, loaded.lines));

/**
 * The warehouse's paper (ADR 0031): no prices, and of the customer only what
 * picking and handing over need (the name, phone and PO reference, issue 34),
 * so every role that picks and dispatches may print them.
 */
export function createOrderDocuments(db: Db, options: { shop: DocumentShop }) {
  async function one(actor: StaffActor, number: string) {
    authorize(actor, "orders.fulfil");
    const wanted = number.trim().toUpperCase();
    const loaded = await loadOrder(db, and(eq(orders.number, wanted), ofMyBranches(actor))!, "staff");
    if (!loaded) throw new HttpError(404, `No order ${wanted}.`);
    return fromLoaded(db, loaded);
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
      const bins = await binsOf(db, lines);
      const picking = rows.map(({ order, fulfilment }) => pickingOrder(order, fulfilment, linesOf.get(order.id) ?? [], deliveryTo.get(order.id), bins));
      return { pdf: await batchPickingListPdf(picking), orders: picking.length };
    },
  };
}

export type OrderDocuments = ReturnType<typeof createOrderDocuments>;

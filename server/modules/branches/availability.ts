import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http-errors.ts";
import { productVariants, products } from "../catalog/schema.ts";
import { type Need, planCollection, transfersFor } from "../stock/fulfilment.ts";
import { branchStockOf } from "../stock/ledger.ts";
import { branchStock } from "../stock/schema.ts";
import { type LatLng, milesBetween } from "./distance.ts";
import { collectReadyAt, dayName, londonClock, londonIso } from "./hours.ts";
import { branches } from "./schema.ts";

/**
 * A variant's stock at each branch and when a collection of it could be ready
 * there (later where it must come from another branch by transfer) (`GET /api/products/{slug}/availability`, issue 30): the shared
 * product page asks this after it loads, for the customer's branch. The
 * variant is the one named, or the product's first on sale. Branches come
 * nearest first from `from` (the customer's branch or postcode), with the
 * customer's own branch, when named, at the top.
 */
export async function availabilityOf(db: Db, slug: string, options: { sku?: string; branch?: string; from?: LatLng }, at = new Date()) {
  const [variant] = await db
    .select({ id: productVariants.id, sku: productVariants.sku })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(
      and(
        eq(products.slug, slug),
        eq(products.status, "published"),
        eq(productVariants.status, "active"),
        options.sku ? eq(sql`lower(${productVariants.sku})`, options.sku.toLowerCase()) : undefined,
      ),
    )
    .orderBy(asc(productVariants.position), asc(productVariants.id))
    .limit(1);
  if (!variant) throw new HttpError(404, options.sku ? "This product has no variant with that SKU on sale." : "No product on sale has that address.");
  const rows = await db
    .select({ branch: branches, stock: sql<number>`coalesce(${branchStock.stock}, 0)::int` })
    .from(branches)
    .leftJoin(branchStock, and(eq(branchStock.branchId, branches.id), eq(branchStock.variantId, variant.id)))
    .where(and(eq(branches.status, "open"), ne(branches.postcode, "")))
    .orderBy(asc(branches.position), asc(branches.id));
  const mine = options.branch ? rows.find((r) => r.branch.slug === options.branch) : undefined;
  if (options.branch && !mine) throw new HttpError(404, "No branch has that address.");
  const from = options.from ?? (mine?.branch.lat != null && mine.branch.lng != null ? { lat: mine.branch.lat, lng: mine.branch.lng } : undefined);
  const today = londonClock(at).date;
  const everywhere = rows.reduce((sum, r) => sum + r.stock, 0);
  const data = rows.map(({ branch: b, stock }) => {
    const miles = from && b.lat !== null && b.lng !== null ? milesBetween(from, { lat: b.lat, lng: b.lng }) : undefined;
    // None here but some at another branch: it comes by transfer, the branch's transfer days later.
    const transferDays = stock > 0 ? 0 : everywhere > 0 ? b.transferDays : null;
    const ready = transferDays !== null && b.services.includes("collect") ? collectReadyAt({ weekly: b.openingHours, exceptions: b.hoursExceptions }, at, b.collectLeadMinutes, b.collectCutoffMinutes, transferDays) : null;
    return {
      branch: { id: b.id, slug: b.slug, name: b.name, ...(miles !== undefined ? { distance_miles: miles } : {}) },
      stock,
      collect_ready_at: ready ? londonIso(ready.date, ready.time) : null,
      /** The same as a customer says it: "today from 14:00", "Thursday from 08:00". */
      collect_label: ready ? `${dayName(ready.date, today)} from ${ready.time}` : null,
    };
  });
  if (from) data.sort((a, b) => (a.branch.distance_miles ?? Infinity) - (b.branch.distance_miles ?? Infinity));
  if (mine) data.sort((a, b) => Number(b.branch.slug === mine.branch.slug) - Number(a.branch.slug === mine.branch.slug));
  return { sku: variant.sku, data };
}

/** A branch a basket can be collected from, and when (`ready_at` null: it cannot supply the basket, even by transfer). */
export interface CollectionChoice {
  id: number;
  slug: string;
  name: string;
  ready_at: string | null;
  /** "today from 14:00", "Thursday from 08:00". */
  ready_label: string | null;
  /** Some of it comes from another branch first. */
  by_transfer: boolean;
}

/**
 * When this basket could be collected at each branch that offers collection
 * (checkout's "Collect from"): by the same plan checkout takes under its locks
 * (stock/fulfilment.ts `planCollection`), read here without them, so it is
 * what the customer is told and checkout still has the last word.
 */
export async function collectionChoices(db: Db, needs: Need[], at = new Date()): Promise<CollectionChoice[]> {
  const open = await db.select().from(branches).where(eq(branches.status, "open")).orderBy(asc(branches.position), asc(branches.id));
  const held = await branchStockOf(db, needs.map((n) => n.variantId));
  const today = londonClock(at).date;
  return open
    .filter((b) => b.services.includes("collect"))
    .map((b) => {
      const here = b.lat !== null && b.lng !== null ? { lat: b.lat, lng: b.lng } : null;
      const others = open.filter((o) => o.id !== b.id).map((o) => ({ id: o.id, isDefault: o.isDefault, miles: here && o.lat !== null && o.lng !== null ? milesBetween(here, { lat: o.lat, lng: o.lng }) : null }));
      const plan = planCollection(needs, b.id, held, others);
      const byTransfer = transfersFor(plan, b.id).size > 0;
      const ready = plan.ok ? collectReadyAt({ weekly: b.openingHours, exceptions: b.hoursExceptions }, at, b.collectLeadMinutes, b.collectCutoffMinutes, byTransfer ? b.transferDays : 0) : null;
      return {
        id: b.id,
        slug: b.slug,
        name: b.name,
        ready_at: ready ? londonIso(ready.date, ready.time) : null,
        ready_label: ready ? `${dayName(ready.date, today)} from ${ready.time}` : null,
        by_transfer: plan.ok && byTransfer,
      };
    });
}

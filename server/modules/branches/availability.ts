import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http-errors.ts";
import { productVariants, products } from "../catalog/schema.ts";
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

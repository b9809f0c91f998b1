import { and, asc, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { ValidationError } from "../../../http-errors.ts";
import { users } from "../../auth/schema.ts";
import { milesBetween } from "../../branches/distance.ts";
import { branches } from "../../branches/schema.ts";
import { pounds } from "../../catalog/products/products.ts";
import { builtInProvider, normalisePostcode } from "../../postcode/service.ts";
import { vatOn } from "../pricing.ts";
import { type DeliveryBand, bandFor, checkBands } from "./bands.ts";
import { recordAudit } from "../../audit/service.ts";
import { type StaffActor, authorize } from "../../staff/actor.ts";
import { hireDeliveryBands } from "./schema.ts";

/** Delivery of hired equipment carries the standard rate. */
export const DELIVERY_VAT_RATE = 20;

export interface Depot {
  id: number;
  slug: string;
  name: string;
  town: string;
  postcode: string;
  lat: number | null;
  lng: number | null;
  is_default: boolean;
  /** The shop's only depot: messages need not name it. */
  only: boolean;
}

/** Delivery to a site, priced: pence in `charge`/`vat`, pounds in the API's shape. */
export interface DeliveryPrice {
  miles: number;
  upToMiles: number;
  charge: number;
  vat: number;
}

export const deliveryJson = (d: DeliveryPrice) => ({ miles: d.miles, band_up_to_miles: d.upToMiles, price: pounds(d.charge), vat: pounds(d.vat), total: pounds(d.charge + d.vat) });

/** The database's own rule for a unit or request that names no depot (migration: `hire_default_depot()`). */
export async function hireDefaultDepot(q: Db): Promise<number> {
  const result = (await q.execute(sql`select hire_default_depot() as id`)) as unknown as { rows: { id: number }[] };
  return result.rows[0]!.id;
}

const isDepot = sql`(${branches.status} = 'open' and 'hire' = any(${branches.services}))`;

function depotJson(b: typeof branches.$inferSelect, _i: number, all: unknown[]): Depot {
  return { id: b.id, slug: b.slug, name: b.name, town: b.town, postcode: b.postcode, lat: b.lat, lng: b.lng, is_default: b.isDefault, only: all.length === 1 };
}

/** " at {depot}" when the shop has more than one, so a one-depot shop's messages stay as they were. */
export const atDepot = (d: { name: string; only: boolean }) => (d.only ? "" : ` at ${d.name}`);

/**
 * Hire depots (issue 30): the open branches offering hire, in the
 * merchant's order with the default branch first. A shop with none hires
 * from its default branch, as the database's `hire_default_depot()` does.
 */
export function createDepotService(db: Db) {
  async function list(q: Db = db): Promise<Depot[]> {
    const rows = await q.select().from(branches).where(isDepot).orderBy(desc(branches.isDefault), asc(branches.position), asc(branches.id));
    if (rows.length) return rows.map(depotJson);
    const home = await q.select().from(branches).where(eq(branches.isDefault, true)).limit(1);
    return home.map(depotJson);
  }

  async function bands(q: Db = db): Promise<DeliveryBand[]> {
    return q.select({ upToMiles: hireDeliveryBands.upToMiles, pricePence: hireDeliveryBands.pricePence }).from(hireDeliveryBands).orderBy(asc(hireDeliveryBands.upToMiles));
  }

  return {
    list,
    bands,

    /**
     * The depot to hire from: the one named (422 on `field` when it is not a
     * depot), else the customer's branch when it is one, else the default depot.
     */
    async resolve(input: { slug?: string | null; id?: number | null; mine?: string | null }, field = "depot", q: Db = db): Promise<Depot> {
      const depots = await list(q);
      if (input.slug) {
        const found = depots.find((d) => d.slug === input.slug);
        if (!found) throw new ValidationError({ [field]: ["Choose one of our hire depots."] });
        return found;
      }
      return depots.find((d) => d.id === input.id) ?? depots.find((d) => d.slug === input.mine) ?? depots[0]!;
    },

    /** The bands, for the back office. Needs `catalogue.view`. */
    async bandsFor(actor: StaffActor): Promise<DeliveryBand[]> {
      authorize(actor, "catalogue.view");
      return bands();
    },

    /** Replaces the merchant's delivery bands (prices in pence ex VAT), audited. Needs `catalogue.manage`. */
    async saveBands(actor: StaffActor, input: DeliveryBand[]): Promise<DeliveryBand[]> {
      authorize(actor, "catalogue.manage");
      const next = checkBands(input);
      return db.transaction(async (t) => {
        const tx = t as unknown as Db;
        // One writer at a time: the bands are replaced whole.
        await tx.execute(sql`lock table ${hireDeliveryBands} in share row exclusive mode`);
        const before = await bands(tx);
        await tx.delete(hireDeliveryBands);
        if (next.length) await tx.insert(hireDeliveryBands).values(next);
        const view = (list: DeliveryBand[]) => list.map((b) => `up to ${b.upToMiles} mi: £${pounds(b.pricePence).toFixed(2)}`);
        await recordAudit(tx, actor, { action: "hire_delivery_bands.saved", entity: "hire_delivery_bands", entityId: "shop", before: { bands: view(before) }, after: { bands: view(next) } });
        return next;
      });
    },

    /** "My branch"'s slug: the account's when signed in, else the cookie's. */
    async mine(userId: number | null, cookieSlug: string | undefined): Promise<string | null> {
      if (userId) {
        const [row] = await db.select({ slug: branches.slug }).from(users).innerJoin(branches, eq(branches.id, users.branchId)).where(and(eq(users.id, userId))).limit(1);
        if (row) return row.slug;
      }
      return cookieSlug && /^[a-z0-9-]{1,80}$/.test(cookieSlug) ? cookieSlug : null;
    },

    /**
     * Delivery and collection to a site from a depot, by the merchant's bands:
     * the site postcode placed by the shop's own postcode table. Null when it
     * is not priced online (no bands, or the depot has no place on the map);
     * 422 on `postcode` when the postcode cannot be placed or is beyond the last band.
     */
    async deliveryPrice(depot: Depot, rawPostcode: string, q: Db = db): Promise<DeliveryPrice | null> {
      const set = await bands(q);
      if (set.length === 0 || depot.lat === null || depot.lng === null) return null;
      const postcode = normalisePostcode(rawPostcode);
      if (!postcode) throw new ValidationError({ postcode: ["Enter the site's full postcode, such as LS11 5PS."] });
      const site = await builtInProvider(q).locate(postcode);
      if (!site) throw new ValidationError({ postcode: [`We could not place ${postcode} to price delivery. Check it, or collect from ${depot.name}.`] });
      const miles = milesBetween({ lat: depot.lat, lng: depot.lng }, site);
      const answer = bandFor(set, miles);
      if (answer.kind === "beyond") {
        throw new ValidationError({ postcode: [`${postcode} is ${miles} miles from ${depot.name}; we deliver up to ${answer.lastMiles} miles. Choose collection from the depot, or a nearer depot.`] });
      }
      if (answer.kind === "unpriced") return null;
      return { miles, upToMiles: answer.band.upToMiles, charge: answer.band.pricePence, vat: vatOn(answer.band.pricePence, DELIVERY_VAT_RATE) };
    },
  };
}

export type DepotService = ReturnType<typeof createDepotService>;

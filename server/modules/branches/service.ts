import { and, asc, eq, ne } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { type PostcodeProvider, normalisePostcode } from "../postcode/service.ts";
import { type LatLng, milesBetween } from "./distance.ts";
import { londonClock, openLabel, openState } from "./hours.ts";
import { users } from "../auth/schema.ts";
import { availabilityOf } from "./availability.ts";
import { type Branch, branches } from "./schema.ts";

/** A branch's own details, as the storefront and the back office both show them. */
export function branchDetails(b: Branch) {
  return {
    id: b.id,
    slug: b.slug,
    name: b.name,
    address: { line_1: b.line1, line_2: b.line2, town: b.town, county: b.county, postcode: b.postcode },
    lat: b.lat,
    lng: b.lng,
    phone: b.phone,
    email: b.email,
    services: b.services,
    opening_hours: b.openingHours,
  };
}

/** A branch as the storefront and the API show it (the integration contract of issue 30). */
export function branchJson(b: Branch, at: Date, from?: LatLng) {
  const state = openState({ weekly: b.openingHours, exceptions: b.hoursExceptions }, at);
  const today = londonClock(at).date;
  return {
    ...branchDetails(b),
    /** Closures and other hours from today on, soonest first. */
    exceptions: b.hoursExceptions.filter((e) => e.date >= today).sort((x, y) => x.date.localeCompare(y.date)),
    open_now: state.open,
    open_label: openLabel(state, at),
    ...(from && b.lat !== null && b.lng !== null ? { distance_miles: milesBetween(from, { lat: b.lat, lng: b.lng }) } : {}),
  };
}
export type BranchJson = ReturnType<typeof branchJson>;

export type Near = { postcode: string } | LatLng;

export function createBranchService(db: Db, options: { postcodes: PostcodeProvider }) {
  // A branch is shown once it is open and has an address (an upgraded shop's "Main branch" waits for one).
  const shown = and(eq(branches.status, "open"), ne(branches.postcode, ""));
  const open = () => db.select().from(branches).where(shown).orderBy(asc(branches.position), asc(branches.id));

  /** Where `near` is: a postcode located by the provider (422 when it is not one, or unknown), or the browser's own position. */
  async function locate(near: Near): Promise<LatLng & { postcode?: string }> {
    if (!("postcode" in near)) return near;
    const postcode = normalisePostcode(near.postcode);
    if (!postcode) throw new ValidationError({ near: ["Enter a full UK postcode, such as LS11 5PS."] });
    const found = await options.postcodes.locate(postcode);
    if (!found) throw new ValidationError({ near: [`We could not find ${postcode}. Check it, or choose a branch from the list.`] });
    return { ...found, postcode };
  }

  return {
    locate,

    /** The open branches in the merchant's order, or nearest first from `near` with each distance. */
    async list(near?: Near, at = new Date()) {
      const from = near ? await locate(near) : undefined;
      const rows = (await open()).map((b) => branchJson(b, at, from));
      if (from) rows.sort((a, b) => (a.distance_miles ?? Infinity) - (b.distance_miles ?? Infinity));
      return { data: rows, ...(from?.postcode ? { postcode: from.postcode } : {}) };
    },

    /** A variant's stock at each branch, and when a collection could be ready there (availability.ts). */
    async availability(slug: string, options: { sku?: string; branch?: string; postcode?: string }, at = new Date()) {
      const from = options.postcode ? await locate({ postcode: options.postcode }) : undefined;
      return availabilityOf(db, slug, { sku: options.sku, branch: options.branch, from }, at);
    },

    /**
     * "My branch": the account's for a signed-in customer, else the visitor's
     * cookie's; a branch since closed or hidden is none.
     */
    async mine(userId: number | null, cookieSlug: string | undefined, at = new Date()) {
      const [row] = userId
        ? await db.select({ branch: branches }).from(users).innerJoin(branches, eq(branches.id, users.branchId)).where(and(eq(users.id, userId), shown)).limit(1)
        : [];
      if (row) return branchJson(row.branch, at);
      if (!cookieSlug || !/^[a-z0-9-]{1,80}$/.test(cookieSlug)) return null;
      const [found] = await db.select().from(branches).where(and(eq(branches.slug, cookieSlug), shown)).limit(1);
      return found ? branchJson(found, at) : null;
    },

    /** Makes a branch the customer's (null: none), on their account when signed in; 422 for a branch that is not shown. */
    async choose(userId: number | null, slug: string | null, at = new Date()) {
      const [found] = slug ? await db.select().from(branches).where(and(eq(branches.slug, slug), shown)).limit(1) : [];
      if (slug && !found) throw new ValidationError({ branch: ["Choose one of our branches."] });
      if (userId) await db.update(users).set({ branchId: found?.id ?? null, updatedAt: new Date() }).where(eq(users.id, userId));
      return found ? branchJson(found, at) : null;
    },

    /** An open branch by its slug; 404 otherwise. */
    async bySlug(slug: string, at = new Date()) {
      const [row] = await db
        .select()
        .from(branches)
        .where(and(eq(branches.slug, slug), shown))
        .limit(1);
      if (!row) throw new HttpError(404, "No branch has that address.");
      return branchJson(row, at);
    },
  };
}
export type BranchService = ReturnType<typeof createBranchService>;

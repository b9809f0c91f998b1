// A trade account's sites (issue 32): kept by the company's owners and admins,
// read by every member, chosen at checkout and on a quote, and the rule an
// order on account for a site must meet (its purchase-order rule).
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { refusingUniqueClash } from "../../../db/errors.ts";
import { HttpError, ValidationError } from "../../../http-errors.ts";
import { type TradeRole, tradeAccounts, tradeMembers } from "../schema.ts";
import type { SiteBody, SiteJson, SitePatch } from "../sites-contract.ts";
import { type TradeSite, tradeSites } from "./sites-schema.ts";
import { memberWithRole } from "./users.ts";

/** Who may add, change and archive the company's sites; every member reads them. */
export const SITE_MANAGERS: readonly TradeRole[] = ["owner", "admin"];
const MEMBERS: readonly TradeRole[] = ["owner", "admin", "buyer", "accounts"];

export const SITE_MESSAGES = {
  choose: "Choose the site this order is for.",
  notYours: "Choose one of your company's sites.",
  signIn: "Sign in to choose one of your company's sites.",
  duplicate: (name: string) => `Your company already has a site called ${name}.`,
  poRequired: (site: string) => `Enter a purchase-order reference: orders for ${site} need one.`,
  poPrefix: (site: string, prefix: string) => `Purchase-order references for ${site} start with ${prefix}.`,
} as const;

export function siteJsonOf(s: TradeSite): SiteJson {
  return {
    id: s.id,
    name: s.name,
    line1: s.line1,
    line2: s.line2,
    town: s.town,
    county: s.county,
    postcode: s.postcode,
    contact_name: s.contactName,
    contact_phone: s.contactPhone,
    po_required: s.poRequired,
    po_prefix: s.poPrefix,
    archived: s.archivedAt !== null,
  };
}

/** A company's sites by name; the live ones unless `withArchived`. */
export async function sitesOf(q: Db, accountId: number, withArchived = false): Promise<TradeSite[]> {
  return q
    .select()
    .from(tradeSites)
    .where(and(eq(tradeSites.tradeAccountId, accountId), withArchived ? undefined : isNull(tradeSites.archivedAt)))
    .orderBy(sql`${tradeSites.archivedAt} is not null`, asc(sql`lower(${tradeSites.name})`), asc(tradeSites.id));
}

/** The live site `siteId` of the company `userId` buys for (an approved trade account), else a 422 on `field`. */
export async function liveSiteOfBuyer(q: Db, userId: number | null, siteId: number, field = "site_id"): Promise<TradeSite> {
  if (userId === null) throw new ValidationError({ [field]: [SITE_MESSAGES.signIn] });
  const [site] = await q
    .select({ site: tradeSites })
    .from(tradeSites)
    .innerJoin(tradeMembers, and(eq(tradeMembers.tradeAccountId, tradeSites.tradeAccountId), eq(tradeMembers.userId, userId)))
    .innerJoin(tradeAccounts, eq(tradeAccounts.id, tradeSites.tradeAccountId))
    .where(and(eq(tradeSites.id, siteId), isNull(tradeSites.archivedAt), eq(tradeAccounts.state, "approved")))
    .limit(1);
  if (!site) throw new ValidationError({ [field]: [SITE_MESSAGES.notYours] });
  return site.site;
}

/**
 * The site an order is for, checked inside checkout's transaction: one of the
 * buyer's company's live sites, or none. An order on account must name a site
 * when the company keeps any, and meet that site's PO rule; the account's own
 * PO rule is pay on account's (credit.ts).
 */
export async function siteForOrder(tx: Db, order: { userId: number | null; siteId?: number | null; paymentMethod: string; poReference: string }): Promise<TradeSite | null> {
  const onAccount = order.paymentMethod === "pay_on_account";
  if (order.siteId == null) {
    if (!onAccount || order.userId === null) return null;
    const [any] = await tx
      .select({ id: tradeSites.id })
      .from(tradeSites)
      .innerJoin(tradeMembers, and(eq(tradeMembers.tradeAccountId, tradeSites.tradeAccountId), eq(tradeMembers.userId, order.userId)))
      .where(isNull(tradeSites.archivedAt))
      .limit(1);
    if (any) throw new ValidationError({ site_id: [SITE_MESSAGES.choose] });
    return null;
  }
  const site = await liveSiteOfBuyer(tx, order.userId, order.siteId);
  if (onAccount) {
    const refusal = poRefusal(site, order.poReference);
    if (refusal) throw new ValidationError({ po_reference: [refusal] });
  }
  return site;
}

/** Why a PO reference does not meet a site's rule, or null when it does. */
export function poRefusal(site: Pick<TradeSite, "name" | "poRequired" | "poPrefix">, poReference: string): string | null {
  const po = poReference.trim();
  if ((site.poRequired || site.poPrefix !== "") && po === "") return SITE_MESSAGES.poRequired(site.name);
  if (site.poPrefix !== "" && !po.toUpperCase().startsWith(site.poPrefix.toUpperCase())) return SITE_MESSAGES.poPrefix(site.name, site.poPrefix);
  return null;
}

function columnsOf(body: Partial<SiteBody>) {
  const map = {
    name: body.name,
    line1: body.line1,
    line2: body.line2,
    town: body.town,
    county: body.county,
    postcode: body.postcode,
    contactName: body.contact_name,
    contactPhone: body.contact_phone,
    poRequired: body.po_required,
    poPrefix: body.po_prefix?.toUpperCase(),
  };
  return Object.fromEntries(Object.entries(map).filter(([, v]) => v !== undefined)) as Partial<typeof tradeSites.$inferInsert>;
}

/** The company's sites, for its members: anyone outside a company (or of a declined one) gets 404. */
export function createTradeSitesService(db: Db) {
  function guarded<T>(name: string | undefined, write: () => Promise<T>): Promise<T> {
    return refusingUniqueClash(write, () => ({ name: [SITE_MESSAGES.duplicate(name ?? "that name")] }));
  }

  return {
    /** Every member's: the live sites, then the archived ones, and whether this member may change them. */
    async list(userId: number): Promise<{ data: SiteJson[]; can_manage: boolean }> {
      const { account, member } = await memberWithRole(db, userId, MEMBERS);
      const sites = await sitesOf(db, account.id, true);
      return { data: sites.map(siteJsonOf), can_manage: SITE_MANAGERS.includes(member.role) };
    },

    async create(userId: number, body: SiteBody): Promise<SiteJson> {
      const { account } = await memberWithRole(db, userId, SITE_MANAGERS);
      const [site] = await guarded(body.name, () =>
        db
          .insert(tradeSites)
          .values({ ...(columnsOf(body) as typeof tradeSites.$inferInsert), tradeAccountId: account.id })
          .returning(),
      );
      return siteJsonOf(site!);
    },

    /** Changes a site, or archives it (`archived: true`): its orders and invoices keep it; it is no longer offered. */
    async update(userId: number, siteId: number, patch: SitePatch): Promise<SiteJson> {
      const { account } = await memberWithRole(db, userId, SITE_MANAGERS);
      const set = { ...columnsOf(patch), ...(patch.archived === undefined ? {} : { archivedAt: patch.archived ? sql`coalesce(${tradeSites.archivedAt}, now())` : null }), updatedAt: sql`now()` };
      const [site] = await guarded(patch.name, () =>
        db
          .update(tradeSites)
          .set(set)
          .where(and(eq(tradeSites.id, siteId), eq(tradeSites.tradeAccountId, account.id)))
          .returning(),
      );
      if (!site) throw new HttpError(404, "Not Found");
      return siteJsonOf(site);
    },
  };
}

export type TradeSitesService = ReturnType<typeof createTradeSitesService>;

import { type SQL, and, asc, desc, eq, lt, sql } from "drizzle-orm";
import { escapeLike } from "../../db/like.ts";
import type { Db } from "../../db/client.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { recordAudit } from "../audit/service.ts";
import { auditLog } from "../audit/schema.ts";
import { accessTokens, passwordResetTokens, users } from "../auth/schema.ts";
import { type AuthServiceOptions, RECOVERY_TOKEN_MINUTES, queueRecoveryLink, userContactJson } from "../auth/service.ts";
import { revokeUserTokens } from "../auth/tokens.ts";
import { pounds } from "../catalog/products/products.ts";
import { orders } from "../orders/schema.ts";
import { type OrderStatus, orderStatusLabel } from "../orders/statuses.ts";
import { normalisePostcode } from "../postcode/service.ts";
import { type StaffActor, authorize } from "../staff/actor.ts";
import { can } from "../staff/permissions.ts";
import { type TradeAccountState, type TradeRole, tradeAccounts, tradeMembers } from "../trade/schema.ts";
import { wishlistItems } from "../wishlist/schema.ts";
import { type CustomerPatch, createAdminCustomerEdits } from "./admin-edit.ts";
import { SPENT_STATUSES, findGuests, guestDetail, phoneDigits } from "./admin-guests.ts";
import type { AddressInput } from "./contract.ts";
import type { CustomerKind, CustomerSort } from "./customer-kinds.ts";
import { addresses } from "./schema.ts";
import { toAddressJson } from "./service.ts";

/** What the customer has spent (pence) and when they last ordered: each one index lookup on orders_user_idx. */
const spentOf = sql<string>`coalesce((select sum(${orders.total}) from ${orders} where ${orders.userId} = ${users.id} and ${SPENT_STATUSES}), 0)`;
const lastOrderOf = sql<string | null>`(select ${orders.createdAt} from ${orders} where ${orders.userId} = ${users.id} order by ${orders.id} desc limit 1)`;
const lastOrderKey = sql`coalesce(${lastOrderOf}, '-infinity'::timestamptz)`;

export const ADMIN_CUSTOMERS_PAGE = 50;
export const ADMIN_CUSTOMERS_PAGE_MAX = 200;
/** A customer's page lists this many of their newest orders; the count says how many there are in all. */
export const RECENT_ORDERS = 20;
export const BLOCK_REASON_MAX = 500;
export const SEARCH_MAX = 100;

export interface AdminCustomerFilters {
  /** A name (first, last or both), part of the email, a postcode (or its outward code), a trade company's name, or `#id`. */
  q?: string;
  /** `next_cursor` of the page before. */
  cursor?: string;
  limit?: number;
  /** Newest accounts first (the default), most spent first, or latest order first. */
  sort?: CustomerSort;
}

export { CUSTOMER_SORTS, type CustomerKind, type CustomerSort } from "./customer-kinds.ts";

/** The storefront's recovery link needs the outbox and the shop's name and address, as the auth service does. */
export type AdminCustomerOptions = AuthServiceOptions;

export const TRADE_ROLE_LABELS: Record<TradeRole, string> = { owner: "Owner", admin: "Admin", buyer: "Buyer", accounts: "Accounts" };
export const TRADE_STATE_LABELS: Record<TradeAccountState, string> = { pending: "Pending", approved: "Approved", declined: "Declined", suspended: "Suspended" };

// The cursor is the last row's sort value and id, wrapped so clients treat it as opaque.
const encodeCursor = (id: number, value = "") => Buffer.from(`c${id}${value ? `|${value}` : ""}`).toString("base64url");
function decodeCursor(cursor: string, sort: CustomerSort): { id: number; value: string } {
  const match = /^c(\d{1,10})(?:\|([0-9]{1,15}|[0-9TZ:.+-]{10,40}|-infinity))?$/.exec(Buffer.from(cursor, "base64url").toString("latin1"));
  const id = match ? Number(match[1]) : NaN;
  const value = match?.[2] ?? "";
  const fits = sort === "newest" ? value === "" : sort === "spent" ? /^[0-9]+$/.test(value) : value === "-infinity" || !Number.isNaN(Date.parse(value));
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647 || !fits) throw new ValidationError({ cursor: ["This page link is out of date; start again from the first page."] });
  return { id, value };
}

const OUTCODE = /^[A-Z]{1,2}\d[A-Z\d]?$/;
const ACCOUNT_ID = /^#?(\d{1,9})$/;

/** What the search box typed, read once: the conditions, and the postcode to show first when it named one. */
function search(raw: string | undefined): { where: SQL | undefined; postcode: SQL | undefined } {
  const q = (raw ?? "").trim().replace(/\s+/g, " ").slice(0, SEARCH_MAX);
  if (!q) return { where: undefined, postcode: undefined };
  const contains = `%${escapeLike(q)}%`;
  const or: SQL[] = [
    // First name, last name or the two together: "Shah", "Priya" and "Priya Shah" all find Priya Shah.
    sql`(${users.firstname} || ' ' || ${users.lastname}) ilike ${contains}`,
    sql`${users.email}::text ilike ${contains}`,
    sql`exists (select 1 from ${tradeMembers} join ${tradeAccounts} on ${tradeAccounts.id} = ${tradeMembers.tradeAccountId} where ${tradeMembers.userId} = ${users.id} and ${tradeAccounts.companyName} ilike ${contains})`,
  ];
  const id = ACCOUNT_ID.exec(q);
  if (id) or.push(eq(users.id, Number(id[1])));
  const digits = phoneDigits(q);
  if (digits) or.push(sql`regexp_replace(${users.phone}, '[^0-9]', '', 'g') like ${`%${digits}%`}`);
  const upper = q.toUpperCase();
  const full = normalisePostcode(q);
  const postcode = full ? sql`${addresses.postcode} = ${full}` : OUTCODE.test(upper) ? sql`${addresses.postcode} like ${`${upper} %`}` : undefined;
  if (postcode) or.push(sql`exists (select 1 from ${addresses} where ${addresses.userId} = ${users.id} and ${postcode})`);
  return { where: sql`(${sql.join(or, sql` or `)})`, postcode };
}

export function createAdminCustomerService(db: Db, options: AdminCustomerOptions) {
  const edits = createAdminCustomerEdits(db);
  async function detail(actor: StaffActor, id: number) {
    authorize(actor, "customers.view");
    const [row] = await db
      .select({
        user: users,
        tradeRole: tradeMembers.role,
        tradeAccountId: tradeAccounts.id,
        companyName: tradeAccounts.companyName,
        tradeState: tradeAccounts.state,
        // One row of counts, not a query each.
        orderCount: sql<number>`(select count(*) from ${orders} where ${orders.userId} = ${users.id})::int`,
        spent: spentOf,
        lastOrderAt: lastOrderOf,
        wishlistCount: sql<number>`(select count(*) from ${wishlistItems} where ${wishlistItems.userId} = ${users.id})::int`,
        activeSessions: sql<number>`(select count(*) from ${accessTokens} where ${accessTokens.userId} = ${users.id} and ${accessTokens.expiresAt} > now())::int`,
      })
      .from(users)
      .leftJoin(tradeMembers, eq(tradeMembers.userId, users.id))
      .leftJoin(tradeAccounts, eq(tradeAccounts.id, tradeMembers.tradeAccountId))
      .where(eq(users.id, id));
    if (!row) throw new HttpError(404, `No customer #${id}.`);
    const { user } = row;
    const [book, recent, blocking] = await Promise.all([
      db.select().from(addresses).where(eq(addresses.userId, id)).orderBy(desc(addresses.isDefaultDelivery), desc(addresses.isDefaultBilling), asc(addresses.id)),
      db
        .select({ number: orders.number, status: orders.status, total: orders.total, createdAt: orders.createdAt })
        .from(orders)
        .where(eq(orders.userId, id))
        .orderBy(desc(orders.id))
        .limit(RECENT_ORDERS),
      // The reason lives in the audit entry of the block: the log is the one record of who did it and why.
      user.blockedAt
        ? db
            .select({ after: auditLog.after })
            .from(auditLog)
            .where(and(eq(auditLog.entity, "customer"), eq(auditLog.entityId, String(id)), eq(auditLog.action, "customer.blocked")))
            .orderBy(desc(auditLog.id))
            .limit(1)
        : Promise.resolve([]),
    ]);
    const prices = can(actor.role, "orders.prices");
    const reason = (blocking[0]?.after as { reason?: unknown } | null | undefined)?.reason;
    return {
      kind: (row.tradeState === "approved" ? "trade" : "registered") as CustomerKind,
      ...userContactJson(user),
      /** The shop's own note on the customer, never shown to them. */
      staff_note: user.staffNote,
      ...(prices ? { total_spent: pounds(Number(row.spent)) } : {}),
      last_order_at: row.lastOrderAt === null ? null : new Date(row.lastOrderAt).toISOString(),
      newsletter_subscribed: user.newsletterSubscribed,
      created_at: user.createdAt.toISOString(),
      blocked: user.blockedAt !== null,
      blocked_at: user.blockedAt?.toISOString() ?? null,
      blocked_reason: typeof reason === "string" && reason ? reason : null,
      /** Sign-ins that have not expired: each browser or app the customer is signed in on. */
      active_sessions: row.activeSessions,
      addresses: book.map(toAddressJson),
      order_count: row.orderCount,
      orders: recent.map((o) => ({
        number: o.number,
        status: o.status as OrderStatus,
        status_label: orderStatusLabel(o.status),
        created_at: o.createdAt.toISOString(),
        ...(prices ? { total: pounds(o.total) } : {}),
      })),
      wishlist_count: row.wishlistCount,
      trade:
        row.tradeAccountId !== null && row.tradeRole !== null && row.tradeState !== null
          ? {
              account_id: row.tradeAccountId,
              company_name: row.companyName ?? "",
              role: row.tradeRole,
              role_label: TRADE_ROLE_LABELS[row.tradeRole],
              state: row.tradeState,
              state_label: TRADE_STATE_LABELS[row.tradeState],
            }
          : null,
    };
  }

  /** One keyset page of the customers desk's list; the callers check who may read it. */
  async function page(actor: StaffActor, filters: AdminCustomerFilters) {
    const limit = Math.min(Math.max(Math.trunc(filters.limit ?? ADMIN_CUSTOMERS_PAGE), 1), ADMIN_CUSTOMERS_PAGE_MAX);
    const sort = filters.sort ?? "newest";
    const found = search(filters.q);
    const where: SQL[] = [];
    if (found.where) where.push(found.where);
    if (filters.cursor) {
      const at = decodeCursor(filters.cursor, sort);
      if (sort === "newest") where.push(lt(users.id, at.id));
      else if (sort === "spent") where.push(sql`(${spentOf}, ${users.id}) < (${at.value}::bigint, ${at.id})`);
      else where.push(sql`(${lastOrderKey}, ${users.id}) < (${at.value}::timestamptz, ${at.id})`);
    }
    const order = sort === "newest" ? [desc(users.id)] : sort === "spent" ? [sql`${spentOf} desc`, desc(users.id)] : [sql`${lastOrderKey} desc`, desc(users.id)];
    // The postcode the search named comes first, then the default delivery address's, then the newest.
    const postcodeOrder = found.postcode ? sql`(${found.postcode}) desc, ` : sql``;
    const [rows, guests] = await Promise.all([
      db
        .select({
          id: users.id,
          firstname: users.firstname,
          lastname: users.lastname,
          email: users.email,
          phone: users.phone,
          createdAt: users.createdAt,
          blockedAt: users.blockedAt,
          companyName: tradeAccounts.companyName,
          tradeState: tradeAccounts.state,
          postcode: sql<string | null>`(select ${addresses.postcode} from ${addresses} where ${addresses.userId} = ${users.id} order by ${postcodeOrder}${addresses.isDefaultDelivery} desc, ${addresses.isDefaultBilling} desc, ${addresses.id} desc limit 1)`,
          orders: sql<number>`(select count(*) from ${orders} where ${orders.userId} = ${users.id})::int`,
          spent: spentOf,
          lastOrderAt: lastOrderOf,
        })
        .from(users)
        .leftJoin(tradeMembers, eq(tradeMembers.userId, users.id))
        .leftJoin(tradeAccounts, eq(tradeAccounts.id, tradeMembers.tradeAccountId))
        .where(where.length ? and(...where) : undefined)
        .orderBy(...order)
        .limit(limit + 1),
      filters.q && !filters.cursor ? findGuests(db, filters.q) : Promise.resolve([]),
    ]);
    const data = rows.slice(0, limit);
    const prices = can(actor.role, "orders.prices");
    const iso = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());
    const last = data[data.length - 1];
    return {
      data: [
        ...guests.map((g) => ({
          kind: "guest" as CustomerKind,
          id: null,
          name: g.name,
          email: g.email,
          phone: g.phone,
          postcode: g.postcode,
          company: g.company,
          orders: g.orders,
          ...(prices ? { total_spent: pounds(g.spent) } : {}),
          last_order_at: g.last_order_at,
          blocked: false,
          created_at: null,
        })),
        ...data.map((r) => ({
          kind: (r.tradeState === "approved" ? "trade" : "registered") as CustomerKind,
          id: r.id as number | null,
          name: `${r.firstname} ${r.lastname}`.trim(),
          email: r.email,
          phone: r.phone,
          postcode: r.postcode,
          company: r.companyName,
          orders: r.orders,
          ...(prices ? { total_spent: pounds(Number(r.spent)) } : {}),
          last_order_at: iso(r.lastOrderAt),
          blocked: r.blockedAt !== null,
          created_at: r.createdAt.toISOString() as string | null,
        })),
      ],
      next_cursor:
        rows.length > limit && last
          ? encodeCursor(last.id, sort === "newest" ? "" : sort === "spent" ? String(Number(last.spent)) : last.lastOrderAt === null ? "-infinity" : new Date(last.lastOrderAt).toISOString())
          : null,
    };
  }

  /** The customer's row, locked for the rest of the transaction: two members acting at once take turns. */
  async function lockCustomer(tx: Db, id: number) {
    const [user] = await tx.select().from(users).where(eq(users.id, id)).for("update");
    if (!user) throw new HttpError(404, `No customer #${id}.`);
    return user;
  }

  return {
    /**
     * The customers desk's list: newest accounts first (or most spent, or
     * latest order), a keyset page at a time, in one query with each
     * customer's orders, spend and last order. A search's first page also
     * brings the guest buyers it matches (`kind: "guest"`, no id), first.
     */
    async list(actor: StaffActor, filters: AdminCustomerFilters = {}) {
      authorize(actor, "customers.view");
      return page(actor, filters);
    },

    /**
     * A few customers with accounts for a counter form to choose from (the
     * hire desk's booking, issue 34): the customers desk's search, for the
     * roles that serve customers and the hire desk, without what they spent.
     */
    async lookup(actor: StaffActor, q: string) {
      authorize(actor, can(actor.role, "customers.view") ? "customers.view" : "hire.desk");
      if (!q.trim()) return [];
      const found = await page({ ...actor, role: "hire" }, { q, limit: 8 });
      return found.data.flatMap((r) => (r.id === null || r.blocked ? [] : [{ id: r.id, name: r.name, email: r.email, phone: r.phone, kind: r.kind, company: r.company }]));
    },


    detail,

    /** A guest buyer's page: their orders by email (issue 34). */
    async guest(actor: StaffActor, email: string) {
      authorize(actor, "customers.view");
      return guestDetail(db, email, can(actor.role, "orders.prices"));
    },

    /** Edits a registered customer's details or staff note (customers.edit), audited; answers their page as it now is. */
    async update(actor: StaffActor, id: number, patch: CustomerPatch) {
      await edits.update(actor, id, patch);
      return detail(actor, id);
    },
    addAddress: (actor: StaffActor, id: number, input: AddressInput) => edits.addAddress(actor, id, input),
    updateAddress: (actor: StaffActor, id: number, addressId: number, input: AddressInput) => edits.updateAddress(actor, id, addressId, input),
    deleteAddress: (actor: StaffActor, id: number, addressId: number) => edits.deleteAddress(actor, id, addressId),

    /**
     * Emails the customer the storefront's own recovery link (single use,
     * valid for RECOVERY_TOKEN_MINUTES), through the outbox, audited in the
     * same transaction. A blocked customer gets none: the link would not work.
     */
    async sendPasswordReset(actor: StaffActor, id: number, now = new Date()) {
      authorize(actor, "customers.manage");
      const sent = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const user = await lockCustomer(tx, id);
        if (user.blockedAt) throw new HttpError(409, "This customer is blocked: unblock them before sending a reset link.");
        const { expiresAt } = await queueRecoveryLink(tx, options, user, now);
        await recordAudit(tx, actor, { action: "customer.password_reset_sent", entity: "customer", entityId: user.id, after: { email: user.email, expires_at: expiresAt.toISOString() } });
        return { sent_to: user.email, expires_at: expiresAt.toISOString(), expires_in_minutes: RECOVERY_TOKEN_MINUTES };
      });
      options.mail.kick?.();
      return sent;
    },

    /**
     * Blocks the customer in one transaction: sign-in is refused from now on,
     * every sign-in they hold ends (their next request is signed out), any
     * reset link they hold stops working, and the audit log says who and why.
     */
    async block(actor: StaffActor, id: number, reason?: string | null) {
      authorize(actor, "customers.manage");
      const why = reason?.trim() ?? "";
      if (why.length > BLOCK_REASON_MAX) throw new ValidationError({ reason: [`The reason may be at most ${BLOCK_REASON_MAX} characters.`] });
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const user = await lockCustomer(tx, id);
        if (user.blockedAt) throw new HttpError(409, `Customer #${id} is already blocked.`);
        const [done] = await tx.update(users).set({ blockedAt: sql`now()`, updatedAt: sql`now()` }).where(eq(users.id, id)).returning({ blockedAt: users.blockedAt });
        const ended = await revokeUserTokens(tx, id);
        await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.userId, id));
        await recordAudit(tx, actor, {
          action: "customer.blocked",
          entity: "customer",
          entityId: id,
          before: { blocked_at: null },
          after: { blocked_at: done!.blockedAt!.toISOString(), ...(why ? { reason: why } : {}), sessions_ended: ended },
        });
      });
      return detail(actor, id);
    },

    /** Lets the customer sign in again; they sign in afresh, as every sign-in ended with the block. */
    async unblock(actor: StaffActor, id: number) {
      authorize(actor, "customers.manage");
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const user = await lockCustomer(tx, id);
        if (!user.blockedAt) throw new HttpError(409, `Customer #${id} is not blocked.`);
        await tx.update(users).set({ blockedAt: null, updatedAt: sql`now()` }).where(eq(users.id, id));
        // A token issued in a race with the block was refused while it lasted; it must not come back to life now.
        await revokeUserTokens(tx, id);
        await recordAudit(tx, actor, { action: "customer.unblocked", entity: "customer", entityId: id, before: { blocked_at: user.blockedAt.toISOString() }, after: { blocked_at: null } });
      });
      return detail(actor, id);
    },
  };
}

export type AdminCustomerService = ReturnType<typeof createAdminCustomerService>;
export type AdminCustomerSummary = Awaited<ReturnType<AdminCustomerService["list"]>>["data"][number];
export type AdminCustomerDetail = Awaited<ReturnType<AdminCustomerService["detail"]>>;

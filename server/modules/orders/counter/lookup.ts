// The counter's pickers (issue 34): whom an order is for (an account, a trade
// member, or a guest who has bought before, by name, email, phone, postcode
// or company) and what goes on it (by name, SKU or barcode, with the stock at
// each branch as the member types). Read only.
import { and, asc, eq, ilike, inArray, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { addresses } from "../../account/schema.ts";
import { users } from "../../auth/schema.ts";
import { branches } from "../../branches/schema.ts";
import { pounds } from "../../catalog/products/products.ts";
import { incVat } from "../../catalog/products/prices.ts";
import { productVariants, products } from "../../catalog/schema.ts";
import { lineName } from "../../catalog/variants/variant-names.ts";
import { type StaffActor, authorize } from "../../staff/actor.ts";
import { branchStock } from "../../stock/schema.ts";
import { onAccountOption } from "../../trade/credit/credit.ts";
import { tradeAccounts, tradeMembers } from "../../trade/schema.ts";
import { orderAddresses, orders } from "../schema.ts";

export const LOOKUP_MAX = 8;

export interface CounterCustomer {
  kind: "registered" | "trade" | "guest";
  /** The account's id; null for a guest buyer. */
  customer_id: number | null;
  name: string;
  email: string;
  phone: string;
  company: string | null;
  postcode: string | null;
  /** A trade member who may buy on account now: the credit left (pounds); null otherwise. */
  available_credit: number | null;
  /** The trade account's sites: an order on account names one when there are any. */
  sites: { id: number; name: string }[];
}

export interface CounterProduct {
  sku: string;
  name: string;
  barcode: string | null;
  /** Pounds ex VAT and inc VAT: the list price. */
  price_ex_vat: number;
  price: number;
  vat_rate: number;
  unit: string;
  stock: { branch_id: number; branch: string; stock: number }[];
  total_stock: number;
}

const sitesOf = (option: { sites: { id: number; name: string }[] } | null) => (option?.sites ?? []).map((s) => ({ id: s.id, name: s.name }));

/** `%q%` for ILIKE, its wildcards taken literally. */
const like = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function createCounterLookup(db: Db) {
  /** An account as the picker shows it: a trade member with the credit left and the company's sites. */
  async function accountJson(u: { id: number; email: string; firstname: string; lastname: string; phone: string; company: string | null; state: string | null; postcode: string | null }): Promise<CounterCustomer> {
    const trade = u.state === "approved";
    const option = trade ? await onAccountOption(db, u.id) : null;
    return { kind: trade ? "trade" : "registered", customer_id: u.id, name: `${u.firstname} ${u.lastname}`.trim(), email: u.email, phone: u.phone, company: u.company, postcode: u.postcode, available_credit: option?.available_credit ?? null, sites: sitesOf(option) };
  }

  return {
    async customers(actor: StaffActor, q: string): Promise<CounterCustomer[]> {
      authorize(actor, "orders.create");
      const term = like(q.trim());
      const digits = q.replace(/\D/g, "");
      const compact = like(q.replace(/\s/g, "").toUpperCase());
      const registered = await db
        .select({ id: users.id, email: users.email, firstname: users.firstname, lastname: users.lastname, phone: users.phone, company: tradeAccounts.companyName, state: tradeAccounts.state, postcode: sql<string | null>`(select ${addresses.postcode} from ${addresses} where ${addresses.userId} = ${users.id} order by ${addresses.id} limit 1)` })
        .from(users)
        .leftJoin(tradeMembers, eq(tradeMembers.userId, users.id))
        .leftJoin(tradeAccounts, eq(tradeAccounts.id, tradeMembers.tradeAccountId))
        .where(
          or(
            ilike(sql`${users.firstname} || ' ' || ${users.lastname}`, term),
            ilike(users.email, term),
            ilike(tradeAccounts.companyName, term),
            digits.length >= 4 ? sql`regexp_replace(${users.phone}, '\\D', '', 'g') like ${`%${digits}%`}` : undefined,
            sql`exists (select 1 from ${addresses} where ${addresses.userId} = ${users.id} and replace(upper(${addresses.postcode}), ' ', '') like ${compact})`,
          ),
        )
        .orderBy(asc(users.lastname), asc(users.id))
        .limit(LOOKUP_MAX);
      // Guest buyers: their newest order per email, found by its name, email, phone or postcode.
      const guests = await db
        .selectDistinctOn([sql`lower(${orders.email})`], { email: orders.email, name: orders.customerName, phone: orders.phone, postcode: orderAddresses.postcode, company: orderAddresses.company })
        .from(orders)
        .leftJoin(orderAddresses, and(eq(orderAddresses.orderId, orders.id), eq(orderAddresses.kind, "delivery")))
        .where(
          and(
            isNull(orders.userId),
            sql`${orders.email} <> ''`,
            sql`not exists (select 1 from ${users} where ${users.email} = ${orders.email})`,
            or(
              ilike(orders.customerName, term),
              ilike(orders.email, term),
              ilike(orderAddresses.company, term),
              digits.length >= 4 ? sql`regexp_replace(${orders.phone}, '\\D', '', 'g') like ${`%${digits}%`}` : undefined,
              sql`replace(upper(${orderAddresses.postcode}), ' ', '') like ${compact}`,
            ),
          ),
        )
        .orderBy(sql`lower(${orders.email})`, sql`${orders.id} desc`)
        .limit(LOOKUP_MAX);
      const found: CounterCustomer[] = [];
      for (const u of registered) found.push(await accountJson(u));
      for (const g of guests) found.push({ kind: "guest", customer_id: null, name: g.name, email: g.email, phone: g.phone, company: g.company || null, postcode: g.postcode, available_credit: null, sites: [] });
      return found;
    },

    /** One account as the order form starts with it (`?customer_id=N`), or null. */
    async customer(actor: StaffActor, id: number): Promise<CounterCustomer | null> {
      authorize(actor, "orders.create");
      const [u] = await db
        .select({ id: users.id, email: users.email, firstname: users.firstname, lastname: users.lastname, phone: users.phone, company: tradeAccounts.companyName, state: tradeAccounts.state })
        .from(users)
        .leftJoin(tradeMembers, eq(tradeMembers.userId, users.id))
        .leftJoin(tradeAccounts, eq(tradeAccounts.id, tradeMembers.tradeAccountId))
        .where(eq(users.id, id));
      return u ? accountJson({ ...u, postcode: null }) : null;
    },

    async products(actor: StaffActor, q: string): Promise<CounterProduct[]> {
      authorize(actor, "orders.create");
      const term = q.trim();
      const found = await db
        .select({ variantId: productVariants.id, sku: productVariants.sku, barcode: productVariants.barcode, options: productVariants.options, pricePence: productVariants.pricePence, name: products.name, vatRate: products.vatRate, unit: products.unit })
        .from(productVariants)
        .innerJoin(products, eq(products.id, productVariants.productId))
        .where(
          and(
            eq(products.status, "published"),
            eq(productVariants.status, "active"),
            or(sql`upper(${productVariants.sku}) = upper(${term})`, eq(productVariants.barcode, term), ilike(productVariants.sku, `${like(term).slice(1)}`), ilike(products.name, like(term))),
          ),
        )
        // An exact SKU or barcode (a scan) first, then by name.
        .orderBy(sql`(upper(${productVariants.sku}) = upper(${term}) or ${productVariants.barcode} = ${term}) desc`, asc(products.name), asc(productVariants.id))
        .limit(LOOKUP_MAX);
      const ids = found.map((f) => f.variantId);
      const held = ids.length
        ? await db
            .select({ variantId: branchStock.variantId, branchId: branches.id, branch: branches.name, stock: branchStock.stock })
            .from(branchStock)
            .innerJoin(branches, eq(branches.id, branchStock.branchId))
            .where(and(inArray(branchStock.variantId, ids), eq(branches.status, "open")))
            .orderBy(asc(branches.name))
        : [];
      return found.map((f) => {
        const stock = held.filter((h) => h.variantId === f.variantId).map((h) => ({ branch_id: h.branchId, branch: h.branch, stock: h.stock }));
        return {
          sku: f.sku,
          name: lineName(f.name, f.options),
          barcode: f.barcode,
          price_ex_vat: pounds(f.pricePence),
          price: pounds(incVat(f.pricePence, f.vatRate)),
          vat_rate: f.vatRate,
          unit: f.unit,
          stock,
          total_stock: stock.reduce((n, s) => n + s.stock, 0),
        };
      });
    },
  };
}

export type CounterLookup = ReturnType<typeof createCounterLookup>;

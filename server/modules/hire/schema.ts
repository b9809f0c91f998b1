import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { basketOwner, contactDetails, createdAt, optionalRef, ref, serialId, slugAndName, timestamps, timestamptz, updatedAt } from "../../db/columns.ts";
import { users } from "../auth/schema.ts";
import { branches } from "../branches/schema.ts";
import { staff } from "../staff/schema.ts";
import { products } from "../catalog/schema.ts";
import type { ProductImage } from "../media/contract.ts";

/** A PostgreSQL daterange, written as `[start,end)` with calendar dates. */
const daterange = customType<{ data: string }>({ dataType: () => "daterange" });
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/** The days a line is hired for, as calendar dates: out on the start, back by the end. */
const hirePeriod = () => ({
  startDate: date("start_date", { mode: "string" }).notNull(),
  endDate: date("end_date", { mode: "string" }).notNull(),
});

/** What a hire costs, in pence: the hire ex VAT, its VAT, and the refundable deposit (no VAT). A request's are its lines' sums when it is made. */
const hireCosts = () => ({
  hireCost: integer("hire_cost").notNull(),
  vat: integer("vat").notNull(),
  deposit: integer("deposit").notNull(),
});

export const hireCategories = pgTable(
  "hire_categories",
  {
    id: serialId(),
    ...slugAndName(),
    position: integer("position").notNull().default(0),
  },
  (t) => [uniqueIndex("hire_categories_slug_key").on(t.slug)],
);

export interface Specification {
  name: string;
  value: string;
}

export const hireItems = pgTable(
  "hire_items",
  {
    id: serialId(),
    ...slugAndName(),
    description: text("description").notNull().default(""),
    hireCategoryId: ref("hire_category_id", () => hireCategories.id, { onDelete: "restrict" }),
    /** As a product's (ADR 0034): the drawn fallback, or photos with their renditions. */
    images: jsonb("images").$type<ProductImage[]>().notNull().default(sql`'[]'::jsonb`),
    specifications: jsonb("specifications").$type<Specification[]>().notNull().default(sql`'[]'::jsonb`),
    /** The same tool for sale, when the shop sells it. */
    productId: optionalRef("product_id", () => products.id, { onDelete: "set null" }),
    /** Pence ex VAT. */
    dayRate: integer("day_rate").notNull(),
    weekendRate: integer("weekend_rate").notNull(),
    weekRate: integer("week_rate").notNull(),
    /** Refundable, per unit; no VAT. */
    deposit: integer("deposit").notNull().default(0),
    vatRate: integer("vat_rate").notNull().default(20),
    /** Moved by every back-office change, so a form open on a stale copy is drawn afresh. */
    updatedAt: updatedAt(),
    searchVector: tsvector("search_vector").generatedAlwaysAs(
      sql`setweight(to_tsvector('english', coalesce(name, '')), 'A') || setweight(to_tsvector('english', coalesce(description, '')), 'B')`,
    ),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("hire_items_slug_key").on(t.slug),
    index("hire_items_category_idx").on(t.hireCategoryId, t.name),
    index("hire_items_search_idx").using("gin", t.searchVector),
    index("hire_items_name_trgm_idx").using("gin", sql`${t.name} gin_trgm_ops`),
    check("hire_items_rates_check", sql`${t.dayRate} >= 0 and ${t.weekendRate} >= 0 and ${t.weekRate} >= 0 and ${t.deposit} >= 0`),
  ],
);

/** An earlier slug of a renamed hire item: its page and `/api/hire/{slug}` answer 301 to the new one. */
export const hireItemSlugRedirects = pgTable(
  "hire_item_slug_redirects",
  {
    slug: text("slug").primaryKey(),
    hireItemId: ref("hire_item_id", () => hireItems.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [index("hire_item_slug_redirects_item_idx").on(t.hireItemId)],
);

/** One physical machine in the fleet: availability is counted in units. */
export const hireUnits = pgTable(
  "hire_units",
  {
    id: serialId(),
    hireItemId: ref("hire_item_id", () => hireItems.id, { onDelete: "cascade" }),
    assetNumber: text("asset_number").notNull(),
    /** The maker's serial number, when it has one. */
    serialNumber: text("serial_number").notNull().default(""),
    active: boolean("active").notNull().default(true),
    /**
     * The depot the unit is based at (issue 30): availability is counted per
     * depot. When none is named, `hire_default_depot()` (the default branch if
     * it is a hire depot, else the first hire depot, else the default branch).
     * It changes only by a transfer (hire/depots/transfers.ts), with a history row.
     */
    branchId: ref("branch_id", () => branches.id, { onDelete: "restrict" }).default(sql`hire_default_depot()`),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("hire_units_asset_key").on(t.assetNumber), index("hire_units_item_idx").on(t.hireItemId), index("hire_units_depot_idx").on(t.branchId, t.hireItemId)],
);

/**
 * A unit taken for a date range, by a hold (lapses unless confirmed) or a
 * booking. The exclusion constraint makes two live allocations of one unit
 * over overlapping dates impossible, whatever the code does.
 */
export const hireAllocations = pgTable(
  "hire_allocations",
  {
    id: serialId(),
    unitId: ref("unit_id", () => hireUnits.id, { onDelete: "cascade" }),
    /** The hire request line this serves; set by the hire request issue. */
    requestLineId: integer("request_line_id"),
    /** hold (lapses unless confirmed) | booking | out (handed over) | service (cleaning, repair: no request line). */
    kind: text("kind").notNull(),
    /** Why a unit is in service; empty for the others. */
    note: text("note").notNull().default(""),
    /** `[start, return)`: the unit is out from the start date until the return date. */
    period: daterange("period").notNull(),
    expiresAt: timestamptz("expires_at"),
    releasedAt: timestamptz("released_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("hire_allocations_unit_idx").on(t.unitId),
    check("hire_allocations_kind_check", sql`${t.kind} in ('hold', 'booking', 'out', 'service')`),
  ],
);

/** A hire request basket: a user's, or a guest's by the hashed `tc_guest` cookie. */
export const hireBaskets = pgTable(
  "hire_baskets",
  {
    id: serialId(),
    ...basketOwner(() => users.id),
    /** The depot the customer chose to hire from; null: my branch if it is a depot, else the default depot. */
    branchId: optionalRef("branch_id", () => branches.id, { onDelete: "set null" }),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("hire_baskets_user_key").on(t.userId), uniqueIndex("hire_baskets_guest_key").on(t.guestTokenHash)],
);

export const hireBasketLines = pgTable(
  "hire_basket_lines",
  {
    id: serialId(),
    basketId: ref("basket_id", () => hireBaskets.id, { onDelete: "cascade" }),
    hireItemId: ref("hire_item_id", () => hireItems.id, { onDelete: "cascade" }),
    quantity: integer("quantity").notNull(),
    ...hirePeriod(),
    createdAt: createdAt(),
  },
  (t) => [index("hire_basket_lines_basket_idx").on(t.basketId, t.id), check("hire_basket_lines_quantity_check", sql`${t.quantity} between 1 and 99`)],
);

/** A request to hire, made from the hire basket; staff confirm, decline or complete it. */
export const hireRequests = pgTable(
  "hire_requests",
  {
    id: serialId(),
    number: text("number").notNull(),
    userId: optionalRef("user_id", () => users.id, { onDelete: "set null" }),
    /** pending | confirmed | declined | lapsed | out | off_hired | returned | completed: the transition table is hire/desk/states.ts. */
    status: text("status").notNull().default("pending"),
    ...contactDetails(),
    company: text("company").notNull().default(""),
    /** delivery | collection */
    fulfilment: text("fulfilment").notNull(),
    addressLine1: text("address_line1").notNull().default(""),
    addressLine2: text("address_line2").notNull().default(""),
    town: text("town").notNull().default(""),
    postcode: text("postcode").notNull().default(""),
    notes: text("notes").notNull().default(""),
    /** The member of staff who booked it at the counter or from the planner (issue 34); null when the customer asked online. */
    createdByStaffId: optionalRef("created_by_staff_id", () => staff.id, { onDelete: "set null" }),
    /** The depot the hire goes out from and comes back to (issue 30); requests made before depots: the default depot. */
    branchId: optionalRef("branch_id", () => branches.id, { onDelete: "restrict" }),
    /** Delivery and collection to the site, priced by the distance band from the depot: pence ex VAT and its VAT; null when not priced (collection, or no bands set). */
    deliveryCharge: integer("delivery_charge_pence"),
    deliveryVat: integer("delivery_vat_pence").notNull().default(0),
    /** Miles from the depot to the site as the crow flies, when delivery was priced. */
    deliveryMiles: doublePrecision("delivery_miles"),
    ...hireCosts(),
    holdExpiresAt: timestamptz("hold_expires_at").notNull(),
    /** The sha256 of the token in the card payment link its confirmation emailed (customers without a trade account); the link outlives any one payment page. */
    payTokenHash: text("pay_token_hash"),
    /** When the card payment for the hire and deposit arrived, and how much (pence). */
    paidAt: timestamptz("paid_at"),
    paidAmount: integer("paid_pence"),
    /** The hire desk's words to the customer with its last decision: why declined, or what approval changed. */
    decisionReason: text("decision_reason").notNull().default(""),
    /** Other dates the desk offered while the request waits (`[start, end)`), until it is approved or declined. */
    proposedStartDate: date("proposed_start_date", { mode: "string" }),
    proposedEndDate: date("proposed_end_date", { mode: "string" }),
    /** The hire's final charges inc VAT (pence), worked when every unit is back; the deposit is not in it. */
    finalTotal: integer("final_total_pence"),
    /** How the final charges are settled: account (a trade invoice) | card (the emailed payment link) | arranged (as the shop arranged). */
    settlement: text("settlement"),
    /** Pence still to pay by card once settled (negative: given back), after what was paid up front. */
    settlementDue: integer("settlement_due_pence"),
    settlementNote: text("settlement_note").notNull().default(""),
    settledAt: timestamptz("settled_at"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("hire_requests_number_key").on(t.number),
    index("hire_requests_user_idx").on(t.userId, t.createdAt),
    uniqueIndex("hire_requests_pay_token_key").on(t.payTokenHash).where(sql`${t.payTokenHash} is not null`),
    check("hire_requests_paid", sql`(${t.paidAt} is null) = (${t.paidAmount} is null) and (${t.paidAmount} is null or ${t.paidAmount} > 0)`),
    check("hire_requests_settlement", sql`${t.settlement} is null or ${t.settlement} in ('account', 'card', 'arranged')`),
    index("hire_requests_branch_idx").on(t.branchId, t.id),
    check("hire_requests_delivery", sql`(${t.deliveryCharge} is null or ${t.deliveryCharge} >= 0) and ${t.deliveryVat} >= 0`),
    check("hire_requests_proposed", sql`(${t.proposedStartDate} is null) = (${t.proposedEndDate} is null)`),
  ],
);

export const hireRequestLines = pgTable(
  "hire_request_lines",
  {
    id: serialId(),
    requestId: ref("request_id", () => hireRequests.id, { onDelete: "cascade" }),
    hireItemId: ref("hire_item_id", () => hireItems.id, { onDelete: "restrict" }),
    name: text("name").notNull(),
    quantity: integer("quantity").notNull(),
    ...hirePeriod(),
    days: integer("days").notNull(),
    ...hireCosts(),
  },
  (t) => [index("hire_request_lines_request_idx").on(t.requestId)],
);

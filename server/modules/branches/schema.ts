import { sql } from "drizzle-orm";
import { boolean, check, doublePrecision, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { serialId, slugAndName, timestamps, ukAddress } from "../../db/columns.ts";
import type { DayHours, HoursException } from "./hours.ts";

/** What a branch offers: click & collect, a trade counter, a hire depot, a kitchen and bathroom showroom. */
export const BRANCH_SERVICES = ["collect", "trade_counter", "hire", "showroom"] as const;
export type BranchService = (typeof BRANCH_SERVICES)[number];

/**
 * A branch of the merchant (issue 30): where customers collect, trade
 * customers buy at the counter, hire equipment leaves from, and showroom
 * consultations happen. Its hours are London wall-clock times per weekday,
 * with dated exceptions; bank holidays are closed unless an exception opens
 * them (hours.ts).
 */
export const branches = pgTable(
  "branches",
  {
    id: serialId(),
    ...slugAndName(),
    ...ukAddress("line_1"),
    lat: doublePrecision("lat"),
    lng: doublePrecision("lng"),
    phone: text("phone").notNull().default(""),
    email: text("email").notNull().default(""),
    services: text("services", { enum: BRANCH_SERVICES }).array().notNull().default(sql`'{}'::text[]`),
    openingHours: jsonb("opening_hours").$type<DayHours[]>().notNull().default(sql`'[]'::jsonb`),
    hoursExceptions: jsonb("hours_exceptions").$type<HoursException[]>().notNull().default(sql`'[]'::jsonb`),
    /** How long after an order a collection is ready when the stock is here, and how long before closing orders stop being readied that day. */
    collectLeadMinutes: integer("collect_lead_minutes").notNull().default(60),
    collectCutoffMinutes: integer("collect_cutoff_minutes").notNull().default(30),
    /** Days stock from another branch takes to arrive here: a collection that needs a transfer is ready this many days later. */
    transferDays: integer("transfer_days").notNull().default(1),
    /** Days a ready collection waits: a reminder at half, then it goes back to stock and is refunded (orders/uncollected.ts). */
    holdDays: integer("hold_days").notNull().default(7),
    /** A showroom's design consultations (appointments/): how long each is, and how many designers see customers at once. */
    appointmentMinutes: integer("appointment_minutes").notNull().default(60),
    appointmentDesigners: integer("appointment_designers").notNull().default(2),
    /** The branch stock and orders belong to when none is named (one shop, one branch: this one). */
    isDefault: boolean("is_default").notNull().default(false),
    /** A closed branch is kept for its history and shown nowhere. */
    status: text("status", { enum: ["open", "closed"] }).notNull().default("open"),
    position: integer("position").notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("branches_slug_key").on(t.slug),
    uniqueIndex("branches_default_key").on(t.isDefault).where(sql`${t.isDefault}`),
    check("branches_status_check", sql`${t.status} in ('open', 'closed')`),
    check("branches_lead_check", sql`${t.collectLeadMinutes} between 0 and 10080 and ${t.collectCutoffMinutes} between 0 and 1440`),
    check("branches_transfer_days_check", sql`${t.transferDays} between 0 and 60 and ${t.holdDays} between 1 and 60`),
    check("branches_appointments_check", sql`${t.appointmentMinutes} between 15 and 480 and ${t.appointmentDesigners} between 1 and 20`),
    index("branches_position_idx").on(t.position, t.id),
  ],
);
export type Branch = typeof branches.$inferSelect;

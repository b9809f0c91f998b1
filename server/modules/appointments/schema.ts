import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { contactDetails, ref, serialId, timestamps, timestamptz } from "../../db/columns.ts";
import { branches } from "../branches/schema.ts";

/** What the customer wants to talk about. */
export const APPOINTMENT_TOPICS = ["kitchen", "bathroom", "both"] as const;
export type AppointmentTopic = (typeof APPOINTMENT_TOPICS)[number];

export const APPOINTMENT_STATUSES = ["booked", "cancelled"] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

/**
 * A design consultation at a showroom branch (issue 30). Each booked
 * appointment holds one seat (one designer) of its slot: the partial unique
 * index on (branch, start, seat) is what stops two customers taking the last
 * designer at once, and the service never offers a seat above the branch's
 * number of designers. A cancelled appointment keeps its row and frees its seat.
 * The customer manages it from a link whose token is stored only as its SHA-256.
 */
export const appointments = pgTable(
  "appointments",
  {
    id: serialId(),
    branchId: ref("branch_id", () => branches.id),
    startsAt: timestamptz("starts_at").notNull(),
    endsAt: timestamptz("ends_at").notNull(),
    seat: integer("seat").notNull(),
    ...contactDetails(),
    topic: text("topic", { enum: APPOINTMENT_TOPICS }).notNull().default("both"),
    notes: text("notes").notNull().default(""),
    status: text("status", { enum: APPOINTMENT_STATUSES }).notNull().default("booked"),
    tokenHash: text("token_hash").notNull(),
    /** The calendar invite's SEQUENCE: up by one with each change or cancellation, so calendars take the newest. */
    sequence: integer("sequence").notNull().default(0),
    cancelledAt: timestamptz("cancelled_at"),
    /** "customer", or the member of staff's name with their reason. */
    cancelledBy: text("cancelled_by"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("appointments_seat_key").on(t.branchId, t.startsAt, t.seat).where(sql`${t.status} = 'booked'`),
    uniqueIndex("appointments_token_key").on(t.tokenHash),
    index("appointments_branch_day_idx").on(t.branchId, t.startsAt),
    check("appointments_status_check", sql`${t.status} in ('booked', 'cancelled')`),
    check("appointments_topic_check", sql`${t.topic} in ('kitchen', 'bathroom', 'both')`),
    check("appointments_times_check", sql`${t.endsAt} > ${t.startsAt} and ${t.seat} >= 1`),
  ],
);
export type Appointment = typeof appointments.$inferSelect;

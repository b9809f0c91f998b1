import { randomBytes } from "node:crypto";
import { and, asc, count, eq, gte, lt, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import type { Outbox } from "../auth/service.ts";
import { sha256 } from "../auth/tokens.ts";
import { type BranchHours, dayName, isoWeekday, londonClock } from "../branches/hours.ts";
import { type Branch, branches } from "../branches/schema.ts";
import { bookedEmail, cancelledEmail, changedEmail } from "./emails.ts";
import { calendarContentType, calendarInvite } from "./ics.ts";
import { type Appointment, type AppointmentTopic, appointments } from "./schema.ts";
import { type Slot, slotAt, slotsOn, weekFrom } from "./slots.ts";

export interface AppointmentOptions {
  mail: Outbox;
  appName: string;
  publicUrl: string;
  shopEmail: string;
}

export interface BookingInput {
  branch: string;
  start: string;
  name: string;
  email: string;
  phone: string;
  topic: AppointmentTopic;
  notes: string;
}

/** Said when the last designer of a slot went to someone else between choosing it and booking it. */
export const SLOT_TAKEN = "Sorry, that time has just been taken. Choose another time: the times shown are free now.";
const NOT_FOUND = "This appointment link is not known. Check the link in your email, or call the showroom.";

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;

/** "Monday 1 June 2026 at 09:00", in London. */
export function whenLabel(at: Date): string {
  const { date, time } = londonClock(at);
  const day = new Date(`${date}T12:00:00Z`).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
  return `${WEEKDAYS[isoWeekday(date) - 1]} ${day} at ${time}`;
}

const hoursOf = (b: Branch): BranchHours => ({ weekly: b.openingHours, exceptions: b.hoursExceptions });
export const addressOf = (b: Branch) => [b.line1, b.line2, b.town, b.county, b.postcode].filter(Boolean).join(", ");
const tokenHashOf = (token: string) => sha256(token);
const manageUrl = (publicUrl: string, token: string) => `${publicUrl.replace(/\/+$/, "")}/appointments/${token}`;

/** A showroom customers can book: open, with an address, offering the showroom service. */
const isShowroom = and(eq(branches.status, "open"), ne(branches.postcode, ""), sql`'showroom' = any(${branches.services})`);

/** An appointment as its customer sees it. */
export function appointmentJson(a: Appointment, b: Branch, at: Date) {
  const start = londonClock(a.startsAt);
  return {
    id: a.id,
    status: a.status,
    branch: { slug: b.slug, name: b.name, address: addressOf(b), phone: b.phone },
    starts_at: a.startsAt.toISOString(),
    ends_at: a.endsAt.toISOString(),
    date: start.date,
    time: start.time,
    ends_time: londonClock(a.endsAt).time,
    when: whenLabel(a.startsAt),
    name: a.name,
    email: a.email,
    phone: a.phone,
    topic: a.topic,
    notes: a.notes,
    /** Booked and still to come: it can be moved or cancelled. */
    can_change: a.status === "booked" && a.startsAt.getTime() > at.getTime(),
  };
}
export type AppointmentJson = ReturnType<typeof appointmentJson>;

/**
 * Queues the customer's email about an appointment, with its calendar invite,
 * in the transaction that changed it: booked and moved send METHOD:REQUEST,
 * cancelled METHOD:CANCEL, all with the one UID and the row's sequence.
 */
export async function queueAppointmentMail(
  tx: Db,
  options: AppointmentOptions,
  kind: "booked" | "changed" | "cancelled" | "cancelled_by_shop",
  a: Appointment,
  b: Branch,
  token: string | null,
  at: Date,
): Promise<void> {
  const base = options.publicUrl.replace(/\/+$/, "");
  // A link is only in the booking's own email (the token is known then); later ones point to the page it was on.
  const manage = token ? manageUrl(base, token) : `${base}/kitchens-and-bathrooms`;
  const details = { appName: options.appName, publicUrl: base, name: a.name, when: whenLabel(a.startsAt), branchName: b.name, address: addressOf(b), branchPhone: b.phone, manageUrl: manage };
  const email =
    kind === "booked"
      ? bookedEmail(details)
      : kind === "changed"
        ? changedEmail(details)
        : cancelledEmail({ ...details, byShop: kind === "cancelled_by_shop", bookUrl: `${base}/kitchens-and-bathrooms#book` });
  const method = kind === "booked" || kind === "changed" ? "REQUEST" : "CANCEL";
  const invite = calendarInvite({
    method,
    uid: `appointment-${a.id}@${new URL(base).hostname}`,
    sequence: a.sequence,
    start: a.startsAt,
    end: a.endsAt,
    stamp: at,
    summary: `Design consultation at ${b.name}`,
    location: addressOf(b),
    description: `Your free kitchen and bathroom design consultation with ${options.appName}.${b.phone ? ` Showroom: ${b.phone}.` : ""} Change or cancel: ${manage}`,
    url: manage,
    organizer: { name: `${options.appName}, ${b.name}`, email: b.email || options.shopEmail },
    attendee: { name: a.name, email: a.email },
  });
  await options.mail.enqueue(tx, {
    to: a.email,
    subject: email.subject,
    html: email.html,
    text: email.text,
    attachments: [{ filename: method === "CANCEL" ? "cancelled.ics" : "invite.ics", contentType: calendarContentType(method), content: Buffer.from(invite, "utf8") }],
  });
}

/** Booked appointments per slot start (ms) at a branch between two instants. */
async function bookedBetween(db: Db, branchId: number, from: Date, to: Date): Promise<Map<number, number>> {
  const rows = await db
    .select({ startsAt: appointments.startsAt, n: count() })
    .from(appointments)
    .where(and(eq(appointments.branchId, branchId), eq(appointments.status, "booked"), gte(appointments.startsAt, from), lt(appointments.startsAt, to)))
    .groupBy(appointments.startsAt);
  return new Map(rows.map((r) => [r.startsAt.getTime(), r.n]));
}

/**
 * Takes a free designer in a slot: seats 1 … designers, each tried in a
 * savepoint, so a seat another booking took meanwhile (the unique index on
 * branch, start and seat) moves on to the next; none left is a 409. Under
 * concurrency the index decides: a second transaction waits on the first's
 * seat and tries the next one when the first commits.
 */
async function takeSeat(tx: Db, designers: number, write: (sp: Db, seat: number) => Promise<Appointment | undefined>): Promise<Appointment> {
  for (let seat = 1; seat <= designers; seat++) {
    try {
      const row = await tx.transaction(async (sp) => write(sp as unknown as Db, seat));
      if (row) return row;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new HttpError(409, SLOT_TAKEN);
}

/** Showroom appointments (issue 30): free slots, booking, and the customer's own link to move or cancel one. */
export function createAppointmentService(db: Db, options: AppointmentOptions) {
  async function showroom(slug: string): Promise<Branch | undefined> {
    const [row] = await db.select().from(branches).where(and(eq(branches.slug, slug), isShowroom)).limit(1);
    return row;
  }

  /** The offered slot at `start`, or 422 on `field`. */
  function offered(b: Branch, start: string, at: Date, field = "start"): Slot {
    const instant = new Date(start);
    const slot = Number.isNaN(instant.getTime()) ? null : slotAt(hoursOf(b), instant, b.appointmentMinutes, at);
    if (!slot) throw new ValidationError({ [field]: ["Choose one of the times offered."] });
    return slot;
  }

  /** The appointment a link's token names, with its branch, locked for a change; 404 for an unknown token. */
  async function byTokenForUpdate(tx: Db, token: string) {
    const [row] = await tx.select().from(appointments).innerJoin(branches, eq(branches.id, appointments.branchId)).where(eq(appointments.tokenHash, tokenHashOf(token))).limit(1).for("update", { of: appointments });
    if (!row) throw new HttpError(404, NOT_FOUND);
    return { a: row.appointments, b: row.branches };
  }

  function stillToCome(a: Appointment, at: Date) {
    if (a.status === "cancelled") throw new HttpError(409, "This appointment is cancelled. You are welcome to book another.");
    if (a.startsAt.getTime() <= at.getTime()) throw new HttpError(409, "This appointment has passed, so it can no longer be changed.");
  }

  return {
    /** The showrooms a customer can book, in the merchant's order. */
    async showrooms() {
      const rows = await db.select().from(branches).where(isShowroom).orderBy(asc(branches.position), asc(branches.id));
      return { data: rows.map((b) => ({ slug: b.slug, name: b.name, address: addressOf(b), phone: b.phone, slot_minutes: b.appointmentMinutes, designers: b.appointmentDesigners })) };
    },

    /** A showroom's free slots for the week from `from` (within the four weeks ahead), by day; days with nothing free are left out. */
    async slots(slug: string, from: string | undefined, at = new Date()) {
      const b = await showroom(slug);
      if (!b) throw new ValidationError({ branch: ["Choose one of our showrooms."] });
      const week = weekFrom(from, at);
      const days = week.dates.map((date) => ({ date, slots: slotsOn(hoursOf(b), date, b.appointmentMinutes, at) })).filter((d) => d.slots.length);
      const all = days.flatMap((d) => d.slots);
      const booked = all.length ? await bookedBetween(db, b.id, new Date(all[0]!.start), new Date(new Date(all.at(-1)!.start).getTime() + 1)) : new Map<number, number>();
      const today = londonClock(at).date;
      return {
        branch: { slug: b.slug, name: b.name, address: addressOf(b), slot_minutes: b.appointmentMinutes },
        from: week.dates[0]!,
        previous: week.previous,
        next: week.next,
        days: days
          .map((d) => ({
            date: d.date,
            label: dayName(d.date, today).replace(/^./, (c) => c.toUpperCase()),
            slots: d.slots
              .map((s) => ({ start: s.start, end: s.end, time: s.time, free: Math.max(0, b.appointmentDesigners - (booked.get(new Date(s.start).getTime()) ?? 0)) }))
              .filter((s) => s.free > 0),
          }))
          .filter((d) => d.slots.length),
      };
    },

    /** Books a consultation in a free slot and emails the confirmation with its invite; 409 when the slot has just gone. */
    async book(input: BookingInput, at = new Date()) {
      const b = await showroom(input.branch);
      if (!b) throw new ValidationError({ branch: ["Choose one of our showrooms."] });
      const slot = offered(b, input.start, at);
      const token = randomBytes(32).toString("base64url");
      const row = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const made = await takeSeat(tx, b.appointmentDesigners, async (sp, seat) => {
          const [inserted] = await sp
            .insert(appointments)
            .values({ branchId: b.id, startsAt: new Date(slot.start), endsAt: new Date(slot.end), seat, name: input.name, email: input.email, phone: input.phone, topic: input.topic, notes: input.notes, tokenHash: tokenHashOf(token) })
            .returning();
          return inserted;
        });
        await queueAppointmentMail(tx, options, "booked", made, b, token, at);
        return made;
      });
      options.mail.kick?.();
      return { data: appointmentJson(row, b, at), manage_path: `/appointments/${token}` };
    },

    /** The appointment a link names. */
    async byToken(token: string, at = new Date()) {
      const [row] = await db.select().from(appointments).innerJoin(branches, eq(branches.id, appointments.branchId)).where(eq(appointments.tokenHash, tokenHashOf(token))).limit(1);
      if (!row) throw new HttpError(404, NOT_FOUND);
      return { data: appointmentJson(row.appointments, row.branches, at) };
    },

    /** Moves an appointment to another free slot at its showroom, and sends the updated invite (same UID, next sequence). */
    async change(token: string, start: string, at = new Date()) {
      const result = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const { a, b } = await byTokenForUpdate(tx, token);
        stillToCome(a, at);
        const slot = offered(b, start, at);
        if (new Date(slot.start).getTime() === a.startsAt.getTime()) throw new ValidationError({ start: ["That is your time already: choose another."] });
        const moved = await takeSeat(tx, b.appointmentDesigners, async (sp, seat) => {
          const [updated] = await sp
            .update(appointments)
            .set({ startsAt: new Date(slot.start), endsAt: new Date(slot.end), seat, sequence: a.sequence + 1, updatedAt: at })
            .where(eq(appointments.id, a.id))
            .returning();
          return updated;
        });
        await queueAppointmentMail(tx, options, "changed", moved, b, token, at);
        return appointmentJson(moved, b, at);
      });
      options.mail.kick?.();
      return { data: result };
    },

    /** Cancels an appointment from its link (again: nothing more happens), and sends the invite's cancellation. */
    async cancel(token: string, at = new Date()) {
      const result = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const { a, b } = await byTokenForUpdate(tx, token);
        if (a.status === "cancelled") return { json: appointmentJson(a, b, at), sent: false };
        stillToCome(a, at);
        const [cancelled] = await tx
          .update(appointments)
          .set({ status: "cancelled", sequence: a.sequence + 1, cancelledAt: at, cancelledBy: "customer", updatedAt: at })
          .where(eq(appointments.id, a.id))
          .returning();
        await queueAppointmentMail(tx, options, "cancelled", cancelled!, b, null, at);
        return { json: appointmentJson(cancelled!, b, at), sent: true };
      });
      if (result.sent) options.mail.kick?.();
      return { data: result.json };
    },
  };
}
export type AppointmentService = ReturnType<typeof createAppointmentService>;

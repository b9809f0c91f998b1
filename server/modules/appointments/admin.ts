import { and, asc, eq, gte, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { londonDayAfter, londonDayStart } from "../../lib/london.ts";
import { recordAudit } from "../audit/service.ts";
import { londonClock } from "../branches/hours.ts";
import { branches } from "../branches/schema.ts";
import { type StaffActor, authorize } from "../staff/actor.ts";
import { type AppointmentOptions, addressOf, queueAppointmentMail, whenLabel } from "./service.ts";
import { type Appointment, appointments } from "./schema.ts";

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** An appointment as the showroom's staff see it. */
function staffJson(a: Appointment) {
  return {
    id: a.id,
    status: a.status,
    starts_at: a.startsAt.toISOString(),
    ends_at: a.endsAt.toISOString(),
    time: londonClock(a.startsAt).time,
    ends_time: londonClock(a.endsAt).time,
    designer: a.seat,
    name: a.name,
    email: a.email,
    phone: a.phone,
    topic: a.topic,
    notes: a.notes,
    cancelled_by: a.cancelledBy,
  };
}

/** The day's appointments at a showroom, and cancelling one on the customer's behalf (issue 30). */
export function createAppointmentAdmin(db: Db, options: AppointmentOptions) {
  return {
    /** The showroom branches, in the merchant's order (open ones; one closed since keeps its history but is not listed). */
    async showrooms(actor: StaffActor) {
      authorize(actor, "appointments.manage");
      const rows = await db
        .select({ id: branches.id, slug: branches.slug, name: branches.name })
        .from(branches)
        .where(and(eq(branches.status, "open"), sql`'showroom' = any(${branches.services})`))
        .orderBy(asc(branches.position), asc(branches.id));
      return { data: rows };
    },

    /** A showroom's appointments on a London date, booked and cancelled, by time. */
    async day(actor: StaffActor, slug: string, date: string) {
      authorize(actor, "appointments.manage");
      if (!DATE.test(date) || new Date(`${date}T12:00:00Z`).toISOString().slice(0, 10) !== date) throw new ValidationError({ date: ["Give a real date as YYYY-MM-DD."] });
      const [b] = await db.select().from(branches).where(eq(branches.slug, slug)).limit(1);
      if (!b) throw new HttpError(404, "No branch has that address.");
      const rows = await db
        .select()
        .from(appointments)
        .where(and(eq(appointments.branchId, b.id), gte(appointments.startsAt, londonDayStart(date)), lt(appointments.startsAt, londonDayAfter(date))))
        .orderBy(asc(appointments.startsAt), asc(appointments.seat), asc(appointments.id));
      return {
        branch: { slug: b.slug, name: b.name, address: addressOf(b), slot_minutes: b.appointmentMinutes, designers: b.appointmentDesigners },
        date,
        data: rows.map(staffJson),
      };
    },

    /** Cancels an appointment for the showroom, with a reason kept in the audit log; the customer gets the invite's cancellation. */
    async cancel(actor: StaffActor, id: number, reason: string, at = new Date()) {
      authorize(actor, "appointments.manage");
      const why = reason.trim();
      if (!why) throw new ValidationError({ reason: ["Say why it is cancelled (kept in the audit log, not sent to the customer)."] });
      if (why.length > 300) throw new ValidationError({ reason: ["At most 300 characters."] });
      const result = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const [row] = await tx.select().from(appointments).innerJoin(branches, eq(branches.id, appointments.branchId)).where(eq(appointments.id, id)).limit(1).for("update", { of: appointments });
        if (!row) throw new HttpError(404, "No appointment has that number.");
        const a = row.appointments;
        if (a.status === "cancelled") throw new HttpError(409, "This appointment is already cancelled.");
        if (a.startsAt.getTime() <= at.getTime()) throw new HttpError(409, "This appointment has passed.");
        const [cancelled] = await tx
          .update(appointments)
          .set({ status: "cancelled", sequence: a.sequence + 1, cancelledAt: at, cancelledBy: `staff: ${actor.name}`, updatedAt: at })
          .where(eq(appointments.id, a.id))
          .returning();
        await recordAudit(tx, actor, {
          action: "appointment.cancelled",
          entity: "appointment",
          entityId: a.id,
          before: { status: "booked" },
          after: { status: "cancelled", reason: why, branch: row.branches.slug, starts_at: whenLabel(a.startsAt), customer: a.name },
        });
        await queueAppointmentMail(tx, options, "cancelled_by_shop", cancelled!, row.branches, null, at);
        return staffJson(cancelled!);
      });
      options.mail.kick?.();
      return { data: result };
    },
  };
}
export type AppointmentAdmin = ReturnType<typeof createAppointmentAdmin>;

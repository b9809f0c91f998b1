import { asc, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { recordAudit } from "../audit/service.ts";
import { type PostcodeProvider, normalisePostcode } from "../postcode/service.ts";
import { type StaffActor, authorize } from "../staff/actor.ts";
import { type DayHours, type HoursException, validTime } from "./hours.ts";
import { BRANCH_SERVICES, type Branch, type BranchService, branches } from "./schema.ts";
import { branchDetails } from "./service.ts";

/** What staff give for a branch (`/api/admin/branches`); every field optional on a change. */
export interface BranchInput {
  slug?: string;
  name?: string;
  line_1?: string;
  line_2?: string;
  town?: string;
  county?: string;
  postcode?: string;
  phone?: string;
  email?: string;
  services?: BranchService[];
  opening_hours?: DayHours[];
  exceptions?: HoursException[];
  collect_lead_minutes?: number;
  collect_cutoff_minutes?: number;
  /** Days stock from another branch takes to arrive here, 0–60. */
  transfer_days?: number;
  /** Days a ready collection is kept before it goes back to stock, 1–60. */
  hold_days?: number;
  appointment_minutes?: number;
  appointment_designers?: number;
  position?: number;
  is_default?: boolean;
  status?: "open" | "closed";
}

type Errors = Record<string, string[]>;
const add = (errors: Errors, field: string, message: string) => {
  errors[field] = [...(errors[field] ?? []), message];
};
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/**
 * The rules a branch's details keep, by field: its hours (one row per weekday
 * at most, opening before closing), exceptions (a real date, other hours or
 * closed), services, lead time and cut-off. Answers the errors found.
 */
export function branchErrors(input: BranchInput): Errors {
  const errors: Errors = {};
  if (input.slug !== undefined && !/^[a-z0-9](?:[a-z0-9-]{0,78}[a-z0-9])?$/.test(input.slug)) add(errors, "slug", "Give a web address of lower-case letters, digits and hyphens.");
  for (const field of ["name", "line_1", "town"] as const) {
    if (input[field] !== undefined && !input[field]!.trim()) add(errors, field, field === "name" ? "Give the branch a name." : field === "town" ? "Give the town." : "Give the first line of the address.");
  }
  if (input.postcode !== undefined && !normalisePostcode(input.postcode)) add(errors, "postcode", "Enter a full UK postcode, such as LS11 5PS.");
  if (input.email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(input.email)) add(errors, "email", "Enter an email address, or leave it empty.");
  if (input.services?.some((s) => !BRANCH_SERVICES.includes(s))) add(errors, "services", `Choose from: ${BRANCH_SERVICES.join(", ")}.`);
  (input.opening_hours ?? []).forEach((h, i) => {
    if (!Number.isInteger(h.day) || h.day < 1 || h.day > 7) add(errors, `opening_hours.${i}.day`, "Give the day as 1 (Monday) to 7 (Sunday).");
    else if (input.opening_hours!.findIndex((o) => o.day === h.day) !== i) add(errors, `opening_hours.${i}.day`, "Each day once: give one opening and one closing time.");
    if (!validTime(h.opens) || !validTime(h.closes)) add(errors, `opening_hours.${i}.opens`, "Give times as HH:MM, such as 07:30.");
    else if (h.opens >= h.closes) add(errors, `opening_hours.${i}.closes`, "Closing must be after opening.");
  });
  (input.exceptions ?? []).forEach((e, i) => {
    // A real day: 30 February is read by Date as 2 March, so the date must come back as given.
    const day = new Date(`${e.date}T12:00:00Z`);
    if (!DATE.test(e.date) || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== e.date) add(errors, `exceptions.${i}.date`, "Give a real date as YYYY-MM-DD.");
    if ((e.opens === undefined) !== (e.closes === undefined)) add(errors, `exceptions.${i}.opens`, "Give both times for other hours, or neither for closed.");
    else if (e.opens !== undefined && (!validTime(e.opens) || !validTime(e.closes!) || e.opens >= e.closes!)) add(errors, `exceptions.${i}.closes`, "Give times as HH:MM, closing after opening.");
    if ((e.note ?? "").length > 100) add(errors, `exceptions.${i}.note`, "The note can be at most 100 characters.");
  });
  if (input.collect_lead_minutes !== undefined && !(Number.isInteger(input.collect_lead_minutes) && input.collect_lead_minutes >= 0 && input.collect_lead_minutes <= 10_080)) add(errors, "collect_lead_minutes", "Give the minutes from 0 to 10,080 (a week).");
  if (input.collect_cutoff_minutes !== undefined && !(Number.isInteger(input.collect_cutoff_minutes) && input.collect_cutoff_minutes >= 0 && input.collect_cutoff_minutes <= 1_440)) add(errors, "collect_cutoff_minutes", "Give the minutes from 0 to 1,440.");
  if (input.transfer_days !== undefined && !(Number.isInteger(input.transfer_days) && input.transfer_days >= 0 && input.transfer_days <= 60)) add(errors, "transfer_days", "Give the days from 0 to 60.");
  if (input.hold_days !== undefined && !(Number.isInteger(input.hold_days) && input.hold_days >= 1 && input.hold_days <= 60)) add(errors, "hold_days", "Give the days from 1 to 60.");
  if (input.appointment_minutes !== undefined && !(Number.isInteger(input.appointment_minutes) && input.appointment_minutes >= 15 && input.appointment_minutes <= 480)) add(errors, "appointment_minutes", "Give a showroom appointment's length as 15 to 480 minutes.");
  if (input.appointment_designers !== undefined && !(Number.isInteger(input.appointment_designers) && input.appointment_designers >= 1 && input.appointment_designers <= 20)) add(errors, "appointment_designers", "Give the number of designers as 1 to 20.");
  if (input.status === "closed" && input.is_default) add(errors, "status", "The default branch cannot be closed: make another the default first.");
  return errors;
}

/** A branch as the back office shows it: the public details, every exception, and its settings and state. */
export function adminBranchJson(b: Branch) {
  return {
    ...branchDetails(b),
    exceptions: b.hoursExceptions,
    collect_lead_minutes: b.collectLeadMinutes,
    collect_cutoff_minutes: b.collectCutoffMinutes,
    transfer_days: b.transferDays,
    hold_days: b.holdDays,
    appointment_minutes: b.appointmentMinutes,
    appointment_designers: b.appointmentDesigners,
    position: b.position,
    is_default: b.isDefault,
    status: b.status,
  };
}

/** Audited changes to the merchant's branches (issue 30): add one, edit its details and hours, close it. */
export function createBranchAdmin(db: Db, options: { postcodes: PostcodeProvider }) {
  /** The row's columns from the input, the postcode normalised and placed (outside any transaction: a provider may be remote). */
  async function columns(input: BranchInput) {
    const postcode = input.postcode !== undefined ? normalisePostcode(input.postcode)! : undefined;
    const place = postcode ? await options.postcodes.locate(postcode).catch(() => null) : undefined;
    return {
      ...(input.slug !== undefined ? { slug: input.slug } : {}),
      ...(input.name !== undefined ? { name: input.name.trim() } : {}),
      ...(input.line_1 !== undefined ? { line1: input.line_1.trim() } : {}),
      ...(input.line_2 !== undefined ? { line2: input.line_2.trim() } : {}),
      ...(input.town !== undefined ? { town: input.town.trim() } : {}),
      ...(input.county !== undefined ? { county: input.county.trim() } : {}),
      ...(postcode ? { postcode, lat: place?.lat ?? null, lng: place?.lng ?? null } : {}),
      ...(input.phone !== undefined ? { phone: input.phone.trim() } : {}),
      ...(input.email !== undefined ? { email: input.email.trim() } : {}),
      ...(input.services !== undefined ? { services: [...new Set(input.services)] } : {}),
      ...(input.opening_hours !== undefined ? { openingHours: [...input.opening_hours].sort((a, b) => a.day - b.day) } : {}),
      ...(input.exceptions !== undefined ? { hoursExceptions: [...input.exceptions].sort((a, b) => a.date.localeCompare(b.date)) } : {}),
      ...(input.collect_lead_minutes !== undefined ? { collectLeadMinutes: input.collect_lead_minutes } : {}),
      ...(input.collect_cutoff_minutes !== undefined ? { collectCutoffMinutes: input.collect_cutoff_minutes } : {}),
      ...(input.transfer_days !== undefined ? { transferDays: input.transfer_days } : {}),
      ...(input.hold_days !== undefined ? { holdDays: input.hold_days } : {}),
      ...(input.appointment_minutes !== undefined ? { appointmentMinutes: input.appointment_minutes } : {}),
      ...(input.appointment_designers !== undefined ? { appointmentDesigners: input.appointment_designers } : {}),
      ...(input.position !== undefined ? { position: input.position } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}),
    };
  }

  const taken = (error: unknown): never => {
    if (isUniqueViolation(error)) throw new ValidationError({ slug: ["Another branch has that web address."] });
    throw error;
  };

  return {
    /** Every branch, open and closed, in the merchant's order. */
    async list(actor: StaffActor) {
      authorize(actor, "dashboard.view");
      const rows = await db.select().from(branches).orderBy(asc(branches.position), asc(branches.id));
      return { data: rows.map(adminBranchJson) };
    },

    async create(actor: StaffActor, input: BranchInput) {
      authorize(actor, "branches.manage");
      const errors = branchErrors(input);
      for (const field of ["slug", "name", "line_1", "town", "postcode"] as const) if (input[field] === undefined) add(errors, field, "Required.");
      if (Object.keys(errors).length) throw new ValidationError(errors);
      const values = await columns(input);
      return db
        .transaction(async (t) => {
          const tx = t as unknown as Db;
          if (input.is_default) await tx.update(branches).set({ isDefault: false }).where(eq(branches.isDefault, true));
          const [row] = await tx
            .insert(branches)
            .values({ ...values, slug: values.slug!, name: values.name!, line1: values.line1!, town: values.town!, postcode: values.postcode!, isDefault: input.is_default ?? false })
            .returning();
          await recordAudit(tx, actor, { action: "branch.created", entity: "branch", entityId: row!.slug, after: adminBranchJson(row!) });
          return { data: adminBranchJson(row!) };
        })
        .catch(taken);
    },

    /** Changes a branch's details, hours or state; the default branch cannot be closed, and making one the default moves it there. */
    async update(actor: StaffActor, slug: string, input: BranchInput) {
      authorize(actor, "branches.manage");
      const errors = branchErrors(input);
      if (Object.keys(errors).length) throw new ValidationError(errors);
      const values = await columns(input);
      return db
        .transaction(async (t) => {
          const tx = t as unknown as Db;
          const [before] = await tx.select().from(branches).where(eq(branches.slug, slug)).for("update");
          if (!before) throw new HttpError(404, "No branch has that address.");
          if (before.isDefault && input.is_default === false) throw new ValidationError({ is_default: ["Make another branch the default instead: there is always one."] });
          if ((before.isDefault || input.is_default) && (input.status ?? before.status) === "closed") throw new ValidationError({ status: ["The default branch cannot be closed: make another the default first."] });
          if (input.is_default && !before.isDefault) await tx.update(branches).set({ isDefault: false }).where(eq(branches.isDefault, true));
          const [after] = await tx
            .update(branches)
            .set({ ...values, ...(input.is_default ? { isDefault: true } : {}), updatedAt: new Date() })
            .where(eq(branches.id, before.id))
            .returning();
          const was = adminBranchJson(before);
          const now = adminBranchJson(after!);
          const changed = (Object.keys(now) as (keyof typeof now)[]).filter((k) => JSON.stringify(was[k]) !== JSON.stringify(now[k]));
          if (changed.length) {
            await recordAudit(tx, actor, {
              action: now.status === "closed" && was.status === "open" ? "branch.closed" : "branch.updated",
              entity: "branch",
              entityId: now.slug,
              before: Object.fromEntries(changed.map((k) => [k, was[k]])),
              after: Object.fromEntries(changed.map((k) => [k, now[k]])),
            });
          }
          return { data: now };
        })
        .catch(taken);
    },
  };
}

export type BranchAdmin = ReturnType<typeof createBranchAdmin>;

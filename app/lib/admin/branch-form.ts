import type { BranchInput } from "../../../server/modules/branches/admin.ts";
import type { BranchService } from "../../../server/modules/branches/schema.ts";

/**
 * The branch editor's form (/admin/branches/new, /admin/branches/{slug}) as
 * the branch service takes it, and the service's field errors back on the
 * form's own fields: a weekday's errors on its group (`day.3`), an exception's
 * on its row as the screen numbers them (`exceptions.2.date`).
 */

/** What the form shows: the branch as loaded, or as last typed when a save was refused (nothing typed is lost). */
export interface BranchFormValues {
  slug: string;
  name: string;
  line_1: string;
  line_2: string;
  town: string;
  county: string;
  postcode: string;
  phone: string;
  email: string;
  services: BranchService[];
  /** Monday (1) … Sunday (7): open that day, and its times as typed. */
  days: { day: number; open: boolean; opens: string; closes: string }[];
  exceptions: { date: string; closed: boolean; opens: string; closes: string; note: string }[];
  collect_lead_minutes: string;
  collect_cutoff_minutes: string;
  transfer_days: string;
  hold_days: string;
  appointment_minutes: string;
  appointment_designers: string;
  make_default: boolean;
}

export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

/** A branch as the back office's API shows it, for the form. */
export interface AdminBranchShape {
  slug: string;
  name: string;
  address: { line_1: string; line_2: string; town: string; county: string; postcode: string };
  phone: string;
  email: string;
  services: BranchService[];
  opening_hours: { day: number; opens: string; closes: string }[];
  exceptions: { date: string; opens?: string; closes?: string; note?: string }[];
  collect_lead_minutes: number;
  collect_cutoff_minutes: number;
  transfer_days: number;
  hold_days: number;
  appointment_minutes: number;
  appointment_designers: number;
}

export function formValuesOf(b: AdminBranchShape): BranchFormValues {
  return {
    slug: b.slug,
    name: b.name,
    ...b.address,
    phone: b.phone,
    email: b.email,
    services: b.services,
    days: WEEKDAYS.map((day) => {
      const h = b.opening_hours.find((o) => o.day === day);
      return { day, open: !!h, opens: h?.opens ?? "08:00", closes: h?.closes ?? "17:00" };
    }),
    exceptions: b.exceptions.map((e) => ({ date: e.date, closed: !e.opens, opens: e.opens ?? "", closes: e.closes ?? "", note: e.note ?? "" })),
    collect_lead_minutes: String(b.collect_lead_minutes),
    collect_cutoff_minutes: String(b.collect_cutoff_minutes),
    transfer_days: String(b.transfer_days),
    hold_days: String(b.hold_days),
    appointment_minutes: String(b.appointment_minutes),
    appointment_designers: String(b.appointment_designers),
    make_default: false,
  };
}

/** A new branch: open Monday to Friday 07:30–17:00 and Saturday morning, collection an hour after ordering. */
export const NEW_BRANCH: BranchFormValues = formValuesOf({
    slug: "",
    name: "",
    address: { line_1: "", line_2: "", town: "", county: "", postcode: "" },
    phone: "",
    email: "",
    services: ["collect", "trade_counter"],
    opening_hours: [1, 2, 3, 4, 5].map((day) => ({ day, opens: "07:30", closes: "17:00" })).concat([{ day: 6, opens: "08:00", closes: "12:00" }]),
    exceptions: [],
    collect_lead_minutes: 60,
    collect_cutoff_minutes: 30,
    transfer_days: 1,
    hold_days: 7,
    appointment_minutes: 60,
    appointment_designers: 2,
});

const TEXT_FIELDS = ["slug", "name", "line_1", "line_2", "town", "county", "postcode", "phone", "email"] as const;

/** The form as posted, read back into its values (each exception row with no date is a blank row, left out). */
export function readBranchForm(form: FormData): BranchFormValues {
  const text = (name: string) => String(form.get(name) ?? "").trim();
  const all = (name: string) => form.getAll(name).map((v) => String(v).trim());
  const dates = all("exception_date");
  const kinds = all("exception_kind");
  const opens = all("exception_opens");
  const closes = all("exception_closes");
  const notes = all("exception_note");
  return {
    ...(Object.fromEntries(TEXT_FIELDS.map((f) => [f, text(f)])) as Record<(typeof TEXT_FIELDS)[number], string>),
    // The service names each one it does not know ("Choose from: …").
    services: all("services") as BranchService[],
    days: WEEKDAYS.map((day) => ({ day, open: form.get(`day_${day}_open`) === "on", opens: text(`day_${day}_opens`), closes: text(`day_${day}_closes`) })),
    exceptions: dates
      .map((date, i) => ({ date, closed: kinds[i] !== "hours", opens: opens[i] ?? "", closes: closes[i] ?? "", note: notes[i] ?? "" }))
      .filter((e) => e.date || e.note || (!e.closed && (e.opens || e.closes))),
    collect_lead_minutes: text("collect_lead_minutes"),
    collect_cutoff_minutes: text("collect_cutoff_minutes"),
    transfer_days: text("transfer_days"),
    hold_days: text("hold_days"),
    appointment_minutes: text("appointment_minutes"),
    appointment_designers: text("appointment_designers"),
    make_default: form.get("make_default") === "on",
  };
}

/** A whole number (of minutes or days) as typed; anything else is NaN, which the service refuses by field. */
const minutes = (v: string) => (/^\d{1,6}$/.test(v) ? Number(v) : Number.NaN);

/**
 * The service's input from the form's values, and how to put its errors back
 * on the form. `before`: the branch being edited, whose postcode is sent only
 * when changed (a postcode is placed on the map again when sent).
 */
export function branchInputOf(values: BranchFormValues, before?: { postcode: string; is_default: boolean }): { input: BranchInput; errorsOnForm: (errors: Record<string, string[]>) => Record<string, string[]> } {
  const open = values.days.filter((d) => d.open);
  const input: BranchInput = {
    slug: values.slug,
    name: values.name,
    line_1: values.line_1,
    line_2: values.line_2,
    town: values.town,
    county: values.county,
    ...(before && before.postcode.replace(/\s/g, "").toUpperCase() === values.postcode.replace(/\s/g, "").toUpperCase() ? {} : { postcode: values.postcode }),
    phone: values.phone,
    email: values.email,
    services: values.services,
    opening_hours: open.map((d) => ({ day: d.day, opens: d.opens, closes: d.closes })),
    exceptions: values.exceptions.map((e) => ({ date: e.date, ...(e.closed ? {} : { opens: e.opens, closes: e.closes }), ...(e.note ? { note: e.note } : {}) })),
    collect_lead_minutes: minutes(values.collect_lead_minutes),
    collect_cutoff_minutes: minutes(values.collect_cutoff_minutes),
    transfer_days: minutes(values.transfer_days),
    hold_days: minutes(values.hold_days),
    appointment_minutes: minutes(values.appointment_minutes),
    appointment_designers: minutes(values.appointment_designers),
    ...(values.make_default && !before?.is_default ? { is_default: true } : {}),
  };
  const errorsOnForm = (errors: Record<string, string[]>) => {
    const mapped: Record<string, string[]> = {};
    const add = (key: string, messages: string[]) => {
      mapped[key] = [...(mapped[key] ?? []), ...messages];
    };
    for (const [key, messages] of Object.entries(errors)) {
      // opening_hours.N.* is the Nth open day sent: its weekday's group.
      const hours = /^opening_hours\.(\d+)\./.exec(key);
      if (hours) add(`day.${open[Number(hours[1])]?.day ?? 1}`, messages);
      else add(key, messages);
    }
    return mapped;
  };
  return { input, errorsOnForm };
}

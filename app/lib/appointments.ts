// Showroom appointments in the browser (issue 30): the shapes the API answers
// (server/modules/appointments/routes.ts) and the client actions that book,
// move and cancel through it.
import { ApiError } from "./api-client.ts";
import { browserApi } from "./browser-api.ts";
import { type FormFailure, failureFrom, text } from "./form-result.ts";

export interface Showroom {
  slug: string;
  name: string;
  address: string;
  phone: string;
  slot_minutes: number;
  designers: number;
}

export interface SlotWeek {
  branch: { slug: string; name: string; address: string; slot_minutes: number };
  from: string;
  previous: string | null;
  next: string | null;
  days: { date: string; label: string; slots: { start: string; end: string; time: string; free: number }[] }[];
}

export interface AppointmentView {
  id: number;
  status: "booked" | "cancelled";
  branch: { slug: string; name: string; address: string; phone: string };
  starts_at: string;
  ends_at: string;
  date: string;
  time: string;
  ends_time: string;
  when: string;
  name: string;
  email: string;
  phone: string;
  topic: "kitchen" | "bathroom" | "both";
  notes: string;
  can_change: boolean;
}

export const TOPIC_LABELS: Record<AppointmentView["topic"], string> = { kitchen: "A kitchen", bathroom: "A bathroom", both: "Both" };

/** A failed booking or change; `taken`: the chosen time went to someone else meanwhile (409), so the times are fetched again. */
export type AppointmentFailure = FormFailure & { taken?: boolean };
export type BookingResult = { ok: true; appointment: AppointmentView; manage_path: string; message: string } | AppointmentFailure;
export type ManageResult = { ok: true; message: string } | AppointmentFailure;

export const BOOKING_FIELDS = ["branch", "start", "name", "email", "phone", "topic", "notes"] as const;
const FALLBACK = "Your booking could not be made. Please try again, or call the showroom.";

function failed(error: unknown, fields: readonly string[], fallback: string): AppointmentFailure {
  if (error instanceof ApiError && error.status === 409) return { ok: false, errors: {}, message: error.message, taken: true };
  return failureFrom(error, { fallback, fields, showServerMessageFor: [404, 429] });
}

/** The booking form's client action: `POST /api/appointments`. */
export async function bookConsultation(request: Request): Promise<BookingResult> {
  const form = await request.formData();
  try {
    const answer = await browserApi().post<{ data: AppointmentView; manage_path: string; message: string }>("/api/appointments", {
      branch: text(form, "branch"),
      start: text(form, "start"),
      name: text(form, "name"),
      email: text(form, "email"),
      phone: text(form, "phone"),
      topic: text(form, "topic") || "both",
      notes: text(form, "notes"),
    });
    return { ok: true, appointment: answer.data, manage_path: answer.manage_path, message: answer.message };
  } catch (error) {
    return failed(error, BOOKING_FIELDS, FALLBACK);
  }
}

/** The appointment page's client action: move it (`intent=change`) or cancel it. */
export async function manageAppointment(request: Request, token: string): Promise<ManageResult> {
  const form = await request.formData();
  const api = browserApi();
  try {
    if (text(form, "intent") === "cancel") {
      await api.post(`/api/appointments/${token}/cancel`);
      return { ok: true, message: "Your appointment is cancelled. We have emailed you to say so, with a calendar update that removes it." };
    }
    const moved = await api.patch<{ data: AppointmentView }>(`/api/appointments/${token}`, { start: text(form, "start") });
    return { ok: true, message: `Your appointment has moved to ${moved.data.when}. We have emailed you an updated calendar invite.` };
  } catch (error) {
    return failed(error, ["start"], "That could not be done. Please try again, or call the showroom.");
  }
}

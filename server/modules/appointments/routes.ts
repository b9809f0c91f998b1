import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { emailField, messageResponse, nameField, validationResponse } from "../auth/contract.ts";
import type { LimiterStore } from "../../plugins/rate-limit.ts";
import { APPOINTMENT_STATUSES, APPOINTMENT_TOPICS } from "./schema.ts";
import type { AppointmentService } from "./service.ts";
import { storeNothing } from "../../lib/no-store.ts";

const slug = z.string().trim().toLowerCase().regex(/^[a-z0-9-]{1,80}$/, "Choose one of our showrooms.");
/** A real calendar date: 30 February is read by Date as 2 March, so it must come back as given. */
const date = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Give the date as YYYY-MM-DD.")
  .refine((d) => !Number.isNaN(new Date(`${d}T12:00:00Z`).getTime()) && new Date(`${d}T12:00:00Z`).toISOString().slice(0, 10) === d, "Give a real date as YYYY-MM-DD.");
/** A management link's token: 32 random bytes, base64url. */
const token = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/) });
const start = z.string({ error: "Choose a time." }).trim().min(1, "Choose a time.").max(40, "Choose one of the times offered.");

export const bookingBody = z.object({
  branch: slug,
  start,
  name: nameField("name"),
  email: emailField,
  phone: z.string({ error: "Enter a phone number, so the showroom can reach you." }).trim().min(1, "Enter a phone number, so the showroom can reach you.").max(30, "The phone number is too long.").regex(/^[0-9+() -]*$/, "Enter a valid phone number."),
  topic: z.enum(APPOINTMENT_TOPICS, { error: "Choose kitchen, bathroom or both." }).optional().default("both"),
  notes: z.string().trim().max(2000, "The notes must be at most 2,000 characters.").optional().default(""),
});

const appointment = z.object({
  id: z.number().int(),
  status: z.enum(APPOINTMENT_STATUSES),
  branch: z.object({ slug: z.string(), name: z.string(), address: z.string(), phone: z.string() }),
  starts_at: z.string(),
  ends_at: z.string(),
  date: z.string(),
  time: z.string(),
  ends_time: z.string(),
  when: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  topic: z.enum(APPOINTMENT_TOPICS),
  notes: z.string(),
  can_change: z.boolean(),
});
const slot = z.object({ start: z.string(), end: z.string(), time: z.string(), free: z.number().int() });

/** Showroom appointments for customers (issue 30): never cached, as the free places move with every booking. */
export async function appointmentRoutes(app: FastifyInstance, options: { appointments: AppointmentService; limits: LimiterStore }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["appointments"];
  const perClient = options.limits.limiter({ name: "appointment", max: 10, windowMs: 10 * 60_000 });
  storeNothing(app, "private, no-store");

  r.get(
    "/appointments/showrooms",
    {
      schema: {
        tags,
        summary: "The showroom branches that take design consultations, with each one's slot length and number of designers",
        response: { 200: z.object({ data: z.array(z.object({ slug: z.string(), name: z.string(), address: z.string(), phone: z.string(), slot_minutes: z.number().int(), designers: z.number().int() })) }) },
      },
    },
    async () => options.appointments.showrooms(),
  );

  r.get(
    "/appointments/slots",
    {
      schema: {
        tags,
        summary:
          "A showroom's free consultation slots for the week from `from` (default today; kept within the four weeks ahead), by day: only open days with a free place, each slot with how many designers are free; `previous` and `next` are the weeks either side",
        querystring: z.object({ branch: slug, from: date.optional() }),
        response: {
          200: z.object({
            branch: z.object({ slug: z.string(), name: z.string(), address: z.string(), slot_minutes: z.number().int() }),
            from: z.string(),
            previous: z.string().nullable(),
            next: z.string().nullable(),
            days: z.array(z.object({ date: z.string(), label: z.string(), slots: z.array(slot) })),
          }),
          422: validationResponse,
        },
      },
    },
    async (request) => options.appointments.slots(request.query.branch, request.query.from),
  );

  r.post(
    "/appointments",
    {
      schema: {
        tags,
        summary:
          "Books a design consultation at a showroom (`branch`: its slug) in a free slot (`start`: a slot's start as the slots call gives it): 422 by field; 409 when the slot's last place has just gone. Emails the confirmation with a calendar invite and the link to change or cancel",
        body: bookingBody,
        response: { 201: z.object({ data: appointment, manage_path: z.string(), message: z.string() }), 409: messageResponse, 422: validationResponse, 429: messageResponse },
      },
    },
    async (request, reply) => {
      const wait = await perClient.attempt(request.ip);
      if (wait > 0) return reply.code(429).header("retry-after", String(wait)).send({ message: `Too many bookings from here. Please try again in ${wait} seconds, or call the showroom.` });
      const made = await options.appointments.book(request.body);
      return reply.code(201).send({ ...made, message: `Your consultation is booked for ${made.data.when}. We have emailed you the details.` });
    },
  );

  r.get(
    "/appointments/:token",
    { schema: { tags, summary: "An appointment by the token in its email's link", params: token, response: { 200: z.object({ data: appointment }), 404: messageResponse } } },
    async (request) => options.appointments.byToken(request.params.token),
  );

  r.patch(
    "/appointments/:token",
    {
      schema: {
        tags,
        summary: "Moves an appointment (by its link's token) to another free slot at the same showroom (`start`); sends the updated invite. 409 when it is cancelled, past, or the slot has just gone",
        params: token,
        body: z.object({ start }),
        response: { 200: z.object({ data: appointment }), 404: messageResponse, 409: messageResponse, 422: validationResponse },
      },
    },
    async (request) => options.appointments.change(request.params.token, request.body.start),
  );

  r.post(
    "/appointments/:token/cancel",
    {
      schema: {
        tags,
        summary: "Cancels an appointment by its link's token and sends the invite's cancellation; cancelling again changes nothing. 409 once it has passed",
        params: token,
        response: { 200: z.object({ data: appointment }), 404: messageResponse, 409: messageResponse },
      },
    },
    async (request) => options.appointments.cancel(request.params.token),
  );
}

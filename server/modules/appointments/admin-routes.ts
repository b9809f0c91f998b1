import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { messageResponse, validationResponse } from "../auth/contract.ts";
import { staffApi } from "../staff/admin-api.ts";
import type { AppointmentAdmin } from "./admin.ts";
import { APPOINTMENT_STATUSES, APPOINTMENT_TOPICS } from "./schema.ts";
import { staffDoor } from "../staff/door.ts";
import { storeNothing } from "../../lib/no-store.ts";

const row = z.object({
  id: z.number().int(),
  status: z.enum(APPOINTMENT_STATUSES),
  starts_at: z.string(),
  ends_at: z.string(),
  time: z.string(),
  ends_time: z.string(),
  designer: z.number().int(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  topic: z.enum(APPOINTMENT_TOPICS),
  notes: z.string(),
  cancelled_by: z.string().nullable(),
});
const errors = { 401: messageResponse, 403: messageResponse };

/** Showroom appointments in the back office (issue 30): needs appointments.manage; a cancellation is audited. */
export async function adminAppointmentRoutes(app: FastifyInstance, options: { admin: AppointmentAdmin }): Promise<void> {
  const api = staffApi(app, { tags: ["admin: appointments"], errors });
  storeNothing(app);

  api.get(
    "/admin/appointments",
    {
      summary: "A showroom's appointments on a day (`branch`: its slug; `date`: YYYY-MM-DD, London), booked and cancelled, by time",
      querystring: z.object({ branch: z.string().regex(/^[a-z0-9-]{1,80}$/), date: z.string().max(10) }),
      response: {
        200: z.object({ branch: z.object({ slug: z.string(), name: z.string(), address: z.string(), slot_minutes: z.number().int(), designers: z.number().int() }), date: z.string(), data: z.array(row) }),
        404: messageResponse,
        422: validationResponse,
      },
    },
    async (actor, request) => options.admin.day(actor, request.query.branch, request.query.date),
  );

  api.post(
    "/admin/appointments/:id/cancel",
    {
      config: staffDoor("appointments.manage"),
      summary: "Cancels an appointment for the showroom (`reason` kept in the audit log); the customer is emailed the invite's cancellation. 409 when already cancelled or past",
      params: z.object({ id: z.coerce.number().int().positive() }),
      body: z.object({ reason: z.string().max(1000) }),
      response: { 200: z.object({ data: row }), 404: messageResponse, 409: messageResponse, 422: validationResponse },
    },
    async (actor, request) => options.admin.cancel(actor, request.params.id, request.body.reason),
  );
}

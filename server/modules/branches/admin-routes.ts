import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { messageResponse } from "../auth/contract.ts";
import { staffApi } from "../staff/admin-api.ts";
import type { BranchAdmin } from "./admin.ts";
import { branchDetailsShape } from "./routes.ts";
import { BRANCH_SERVICES } from "./schema.ts";
import { staffDoor } from "../staff/door.ts";
import { storeNothing } from "../../lib/no-store.ts";

const text = (max: number) => z.string().max(max, `At most ${max} characters.`);
const hours = z.object({ day: z.number().int(), opens: text(5), closes: text(5) });
const exception = z.object({ date: text(10), opens: text(5).optional(), closes: text(5).optional(), note: text(100).optional() });
const input = z.object({
  slug: text(80).optional(),
  name: text(100).optional(),
  line_1: text(100).optional(),
  line_2: text(100).optional(),
  town: text(60).optional(),
  county: text(60).optional(),
  postcode: text(10).optional(),
  phone: text(30).optional(),
  email: text(254).optional(),
  services: z.array(z.enum(BRANCH_SERVICES, { error: `Choose from: ${BRANCH_SERVICES.join(", ")}.` })).max(BRANCH_SERVICES.length).optional(),
  opening_hours: z.array(hours).max(7, "At most one row per day.").optional(),
  exceptions: z.array(exception).max(100, "At most 100 dated exceptions.").optional(),
  collect_lead_minutes: z.number().int().optional(),
  collect_cutoff_minutes: z.number().int().optional(),
  transfer_days: z.number().int().optional().describe("Days stock from another branch takes to arrive: a collection needing it is ready that much later"),
  hold_days: z.number().int().optional().describe("Days a ready collection is kept before it goes back to stock and is refunded"),
  /** A showroom's design consultations: each one's length, and how many run at once. */
  appointment_minutes: z.number().int().optional(),
  appointment_designers: z.number().int().optional(),
  position: z.number().int().min(0).max(10_000).optional(),
  is_default: z.boolean().optional(),
  status: z.enum(["open", "closed"]).optional(),
});
const branch = branchDetailsShape.extend({
  collect_lead_minutes: z.number().int(),
  collect_cutoff_minutes: z.number().int(),
  transfer_days: z.number().int(),
  hold_days: z.number().int(),
  appointment_minutes: z.number().int(),
  appointment_designers: z.number().int(),
  position: z.number().int(),
  is_default: z.boolean(),
  status: z.enum(["open", "closed"]),
});

/** The branches in the back office (issue 30): every change audited; needs branches.manage (reading: any member). */
export async function adminBranchRoutes(app: FastifyInstance, options: { admin: BranchAdmin }): Promise<void> {
  const api = staffApi(app, { tags: ["admin: branches"] });
  storeNothing(app);

  api.get(
    "/admin/branches",
    { summary: "Every branch, open and closed, in the merchant's order", response: { 200: z.object({ data: z.array(branch) }) } },
    async (actor) => options.admin.list(actor),
  );

  api.post(
    "/admin/branches",
    {
      config: staffDoor("branches.manage"),
      summary: "Adds a branch: slug, name, line_1, town and postcode at least (placed on the map from its postcode); `is_default` makes it the default. Audited",
      body: input,
      response: { 201: z.object({ data: branch }) },
    },
    async (actor, request, reply) => reply.code(201).send(await options.admin.create(actor, request.body)),
  );

  api.patch(
    "/admin/branches/:slug",
    {
      config: staffDoor("branches.manage"),
      summary: "Changes a branch: any of its fields, its weekly hours and dated exceptions (closures, other hours), its services, its showroom's `appointment_minutes` and `appointment_designers`, `status: closed` (never the default branch's). Audited",
      params: z.object({ slug: z.string().regex(/^[a-z0-9-]{1,80}$/) }),
      body: input,
      response: { 200: z.object({ data: branch }), 404: messageResponse },
    },
    async (actor, request) => options.admin.update(actor, request.params.slug, request.body),
  );
}

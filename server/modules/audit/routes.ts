import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { staffApi } from "../staff/admin-api.ts";
import type { AuditService } from "./service.ts";

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Use a date as YYYY-MM-DD.");
export const auditQuery = z.object({
  staff_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  entity: z.string().trim().max(40).optional(),
  entity_id: z.string().trim().max(60).optional(),
  action: z.string().trim().max(60).optional(),
  from: day.optional(),
  to: day.optional(),
  cursor: z.string().regex(/^\d{1,18}$/, "Invalid cursor.").optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});

/** An audit entry as the API carries it (also on the pages that show one entity's history). */
export const auditEntryJson = z.object({
  id: z.number().int(),
  at: z.string(),
  staff: z.object({ id: z.number().int(), name: z.string() }),
  via: z.string(),
  token_name: z.string().nullable(),
  action: z.string(),
  entity: z.string(),
  entity_id: z.string(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});

export async function auditRoutes(app: FastifyInstance, options: { audit: AuditService }): Promise<void> {
  const api = staffApi(app, { tags: ["admin: audit"] });
  api.get(
    "/admin/audit",
    {
      summary: "The audit log, newest first: every staff write with who, when, the action and the fields before and after",
      querystring: auditQuery,
      response: { 200: z.object({ data: z.array(auditEntryJson), next_cursor: z.string().nullable() }) },
    },
    async (actor, request) => options.audit.list(actor, request.query),
  );
}

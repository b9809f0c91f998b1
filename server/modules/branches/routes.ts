import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { messageResponse, validationResponse } from "../auth/contract.ts";
import { BRANCH_SERVICES } from "./schema.ts";
import type { BranchService, Near } from "./service.ts";

const hours = z.object({ day: z.number().int(), opens: z.string(), closes: z.string() });
const branch = z.object({
  id: z.number().int(),
  slug: z.string(),
  name: z.string(),
  address: z.object({ line_1: z.string(), line_2: z.string(), town: z.string(), county: z.string(), postcode: z.string() }),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  phone: z.string(),
  email: z.string(),
  services: z.array(z.enum(BRANCH_SERVICES)),
  opening_hours: z.array(hours),
  exceptions: z.array(z.object({ date: z.string(), opens: z.string().optional(), closes: z.string().optional(), note: z.string().optional() })),
  open_now: z.boolean(),
  open_label: z.string(),
  distance_miles: z.number().optional(),
});

/** The branches (issue 30): shared, public and cacheable for a minute (opening states move on the minute). */
export async function branchRoutes(app: FastifyInstance, options: { branches: BranchService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["branches"];
  r.get(
    "/branches",
    {
      schema: {
        tags,
        summary: "The open branches; with `near` (a postcode) or `lat` and `lng` (the browser's position, asked for), nearest first with `distance_miles`",
        querystring: z
          .object({ near: z.string().trim().max(12).optional(), lat: z.coerce.number().min(-90).max(90).optional(), lng: z.coerce.number().min(-180).max(180).optional() })
          .refine((q) => (q.lat === undefined) === (q.lng === undefined), { message: "Give both lat and lng.", path: ["lat"] }),
        response: { 200: z.object({ data: z.array(branch), postcode: z.string().optional() }), 422: validationResponse },
      },
    },
    async (request, reply) => {
      const { near, lat, lng } = request.query;
      const from: Near | undefined = near ? { postcode: near } : lat !== undefined && lng !== undefined ? { lat, lng } : undefined;
      reply.header("cache-control", from && !near ? "private, max-age=60" : "public, max-age=60");
      return options.branches.list(from);
    },
  );
  r.get(
    "/branches/:slug",
    {
      schema: { tags, summary: "One open branch by its web address", params: z.object({ slug: z.string().regex(/^[a-z0-9-]{1,80}$/) }), response: { 200: z.object({ data: branch }), 404: messageResponse } },
    },
    async (request, reply) => {
      reply.header("cache-control", "public, max-age=60");
      return { data: await options.branches.bySlug(request.params.slug) };
    },
  );
}

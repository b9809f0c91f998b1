import type { FastifyInstance, FastifyReply } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { messageResponse, validationResponse } from "../auth/contract.ts";
import { BRANCH_SERVICES } from "./schema.ts";
import type { BranchService, Near } from "./service.ts";

const hours = z.object({ day: z.number().int(), opens: z.string(), closes: z.string() });
const exception = z.object({ date: z.string(), opens: z.string().optional(), closes: z.string().optional(), note: z.string().optional() });
/** A branch's own details (service.ts branchDetails), as the storefront and the back office answer them. */
export const branchDetailsShape = z.object({
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
  exceptions: z.array(exception),
});
const branch = branchDetailsShape.extend({
  open_now: z.boolean(),
  open_label: z.string(),
  distance_miles: z.number().optional(),
});

const slugParam = z.string().regex(/^[a-z0-9-]{1,80}$/);
const branchSlug = z.string().trim().toLowerCase().regex(/^[a-z0-9-]{1,80}$/, "Choose one of our branches.");

/** The visitor's branch, kept in this cookie (readable by the page, which asks the availability call for it) and on a customer's account. */
export const MY_BRANCH_COOKIE = "tc_branch";
const MY_BRANCH_SECONDS = 365 * 24 * 60 * 60;

/** The branches (issue 30): shared, public and cacheable for a minute (opening states move on the minute). */
export async function branchRoutes(app: FastifyInstance, options: { branches: BranchService; secureCookies: boolean }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["branches"];
  const remember = (reply: FastifyReply, slug: string | null) => {
    if (slug) reply.setCookie(MY_BRANCH_COOKIE, slug, { path: "/", httpOnly: false, sameSite: "lax", secure: options.secureCookies, maxAge: MY_BRANCH_SECONDS });
    else reply.clearCookie(MY_BRANCH_COOKIE, { path: "/" });
  };
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
      schema: { tags, summary: "One open branch by its web address", params: z.object({ slug: slugParam }), response: { 200: z.object({ data: branch }), 404: messageResponse } },
    },
    async (request, reply) => {
      reply.header("cache-control", "public, max-age=60");
      return { data: await options.branches.bySlug(request.params.slug) };
    },
  );

  r.get(
    "/products/:slug/availability",
    {
      schema: {
        tags,
        summary:
          "A variant's stock at each open branch and when a collection of it could be ready there (`collect_ready_at`, an ISO date-time in London's offset, or null; `collect_label`, as a customer says it): the named `variant` (SKU) or the product's first; `branch` (a slug) first, then the nearest to it; or nearest a `postcode` (422 when it cannot be placed)",
        params: z.object({ slug: z.string().min(1).max(200) }),
        querystring: z.object({ variant: z.string().trim().max(64).optional(), branch: slugParam.optional(), postcode: z.string().trim().max(12).optional() }),
        response: {
          200: z.object({
            sku: z.string(),
            data: z.array(z.object({ branch: z.object({ id: z.number().int(), slug: z.string(), name: z.string(), distance_miles: z.number().optional() }), stock: z.number().int(), collect_ready_at: z.string().nullable(), collect_label: z.string().nullable() })),
          }),
          404: messageResponse,
          422: validationResponse,
        },
      },
    },
    async (request, reply) => {
      // The same for everyone: kept by the shop's page cache until any stock moves (the page version, ADR 0025)
      // or a minute passes (the ready times move with the clock); a browser asks again each time, so a
      // customer who has just bought sees the stock that is left.
      reply.header("cache-control", "public, max-age=0");
      const { variant, branch: mine, postcode } = request.query;
      return options.branches.availability(request.params.slug, { sku: variant || undefined, branch: mine || undefined, postcode: postcode || undefined });
    },
  );

  r.get(
    "/my-branch",
    { schema: { tags, summary: "The customer's branch: their account's when signed in, else the `tc_branch` cookie's; `{data: null}` when none", response: { 200: z.object({ data: branch.nullable() }) } } },
    async (request, reply) => {
      reply.header("cache-control", "private, no-store");
      const cookie = request.cookies[MY_BRANCH_COOKIE];
      const found = await options.branches.mine(request.user?.id ?? null, cookie);
      // The account's branch follows the customer to a new browser.
      if (found && found.slug !== cookie) remember(reply, found.slug);
      return { data: found };
    },
  );

  r.put(
    "/my-branch",
    {
      schema: {
        tags,
        summary: "Makes a branch the customer's (`branch`: its slug; null for none): kept in the `tc_branch` cookie, and on the account when signed in",
        body: z.object({ branch: branchSlug.nullable() }),
        response: { 200: z.object({ data: branch.nullable() }), 422: validationResponse },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "private, no-store");
      const chosen = await options.branches.choose(request.user?.id ?? null, request.body.branch);
      remember(reply, chosen?.slug ?? null);
      return { data: chosen };
    },
  );
}

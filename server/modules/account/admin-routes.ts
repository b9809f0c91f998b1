import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { messageResponse, validationResponse } from "../auth/contract.ts";
import { ORDER_STATUSES } from "../orders/statuses.ts";
import { staffActorOf } from "../staff/actor.ts";
import { TRADE_ACCOUNT_STATES, TRADE_ROLES } from "../trade/schema.ts";
import { ADMIN_CUSTOMERS_PAGE_MAX, type AdminCustomerService, BLOCK_REASON_MAX, SEARCH_MAX } from "./admin.ts";
import { addressJson } from "./contract.ts";
import { staffDoor } from "../staff/door.ts";

const listQuery = z.object({
  q: z.string().trim().max(SEARCH_MAX, `Search for at most ${SEARCH_MAX} characters.`).optional(),
  cursor: z.string().max(100).regex(/^[A-Za-z0-9_-]*$/, "Invalid cursor.").optional(),
  limit: z.coerce.number().int().min(1).max(ADMIN_CUSTOMERS_PAGE_MAX).optional(),
});
const idParams = z.object({ id: z.coerce.number({ error: "Give a customer's number." }).int().positive().max(2_147_483_647) });

const summary = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  postcode: z.string().nullable().describe("The postcode the search named, else the default delivery address's, else the newest address's"),
  company: z.string().nullable().describe("The trade account's company, for a member of one"),
  orders: z.number().int(),
  blocked: z.boolean(),
  created_at: z.string(),
});

const detail = z.object({
  id: z.number().int(),
  firstname: z.string(),
  lastname: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  newsletter_subscribed: z.boolean(),
  created_at: z.string(),
  blocked: z.boolean(),
  blocked_at: z.string().nullable(),
  blocked_reason: z.string().nullable(),
  active_sessions: z.number().int(),
  addresses: z.array(addressJson),
  order_count: z.number().int(),
  orders: z.array(
    z.object({
      number: z.string(),
      status: z.enum(ORDER_STATUSES),
      status_label: z.string(),
      created_at: z.string(),
      total: z.number().optional().describe("Pounds inc VAT; only with orders.prices"),
    }),
  ),
  wishlist_count: z.number().int(),
  trade: z
    .object({
      account_id: z.number().int(),
      company_name: z.string(),
      role: z.enum(TRADE_ROLES),
      role_label: z.string(),
      state: z.enum(TRADE_ACCOUNT_STATES),
      state_label: z.string(),
    })
    .nullable(),
});

const blockBody = z
  .object({ reason: z.string().trim().max(BLOCK_REASON_MAX, `The reason may be at most ${BLOCK_REASON_MAX} characters.`).optional() })
  .optional();

const errors = { 401: messageResponse, 403: messageResponse, 422: validationResponse };
const customerErrors = { ...errors, 404: messageResponse, 409: messageResponse };

/** The customers desk's API (ADR 0029): the same service as its screens; the service checks each permission. */
export async function adminCustomerRoutes(app: FastifyInstance, options: { customers: AdminCustomerService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { customers } = options;
  const tags = ["admin: customers"];

  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });

  r.get(
    "/admin/customers",
    {
      schema: {
        tags,
        summary: "Customers' accounts, newest first, a keyset page at a time (`next_cursor`); search `q` by name (first, last or full), part of the email, a postcode in their address book (or its outward code), a trade company's name, or #id. Needs customers.view",
        querystring: listQuery,
        response: { 200: z.object({ data: z.array(summary), next_cursor: z.string().nullable() }), ...errors },
      },
    },
    async (request) => customers.list(staffActorOf(request), { q: request.query.q || undefined, cursor: request.query.cursor || undefined, limit: request.query.limit }),
  );

  r.get(
    "/admin/customers/:id",
    {
      schema: {
        tags,
        summary: "One customer: details, address book, their last 20 orders and how many in all, wishlist size, trade membership, sign-ins open, and whether they are blocked (with the reason given). Needs customers.view",
        params: idParams,
        response: { 200: detail, ...customerErrors },
      },
    },
    async (request) => customers.detail(staffActorOf(request), request.params.id),
  );

  r.post(
    "/admin/customers/:id/password-reset",
    { config: staffDoor("customers.manage"),
      schema: {
        tags,
        summary: "Emails the customer the storefront's password reset link (single use, valid 60 minutes; an earlier link stops working). 409 for a blocked customer. Needs customers.manage",
        params: idParams,
        response: { 200: z.object({ sent_to: z.string(), expires_at: z.string(), expires_in_minutes: z.number().int() }), ...customerErrors },
      },
    },
    async (request) => customers.sendPasswordReset(staffActorOf(request), request.params.id),
  );

  r.post(
    "/admin/customers/:id/block",
    { config: staffDoor("customers.manage"),
      schema: {
        tags,
        summary: "Blocks the customer: sign-in is refused with 403, every sign-in and reset link they hold ends at once; `reason` goes in the audit log. 409 when already blocked. Needs customers.manage",
        params: idParams,
        body: blockBody,
        response: { 200: detail, ...customerErrors },
      },
    },
    async (request) => customers.block(staffActorOf(request), request.params.id, request.body?.reason),
  );

  r.post(
    "/admin/customers/:id/unblock",
    { config: staffDoor("customers.manage"),
      schema: {
        tags,
        summary: "Lets a blocked customer sign in again (afresh: no old sign-in comes back). 409 when not blocked. Needs customers.manage",
        params: idParams,
        response: { 200: detail, ...customerErrors },
      },
    },
    async (request) => customers.unblock(staffActorOf(request), request.params.id),
  );
}

import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { messageResponse, userJson } from "../auth/contract.ts";
import { ORDER_STATUSES } from "../orders/statuses.ts";
import { staffApi } from "../staff/admin-api.ts";
import { noContent } from "../../lib/json-api.ts";
import { TRADE_ACCOUNT_STATES, TRADE_ROLES } from "../trade/schema.ts";
import { ADMIN_CUSTOMERS_PAGE_MAX, type AdminCustomerService, BLOCK_REASON_MAX, CUSTOMER_SORTS, SEARCH_MAX } from "./admin.ts";
import { customerAddressBody, customerPatch } from "./admin-edit.ts";
import { addressJson } from "./contract.ts";
import { staffDoor } from "../staff/door.ts";
import { storeNothing } from "../../lib/no-store.ts";

const listQuery = z.object({
  q: z.string().trim().max(SEARCH_MAX, `Search for at most ${SEARCH_MAX} characters.`).optional(),
  cursor: z.string().max(100).regex(/^[A-Za-z0-9_-]*$/, "Invalid cursor.").optional(),
  limit: z.coerce.number().int().min(1).max(ADMIN_CUSTOMERS_PAGE_MAX).optional(),
  sort: z.union([z.literal(""), z.enum(CUSTOMER_SORTS, { error: "Sort by newest, spent or last_order." })]).optional(),
});
const kind = z.enum(["guest", "registered", "trade"]).describe("guest: ordered without an account (no id; their page is /customers/guest?email=); trade: a member of an approved trade account");
const idParams = z.object({ id: z.coerce.number({ error: "Give a customer's number." }).int().positive().max(2_147_483_647) });

const summary = z.object({
  kind,
  id: z.number().int().nullable(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  postcode: z.string().nullable().describe("The postcode the search named, else the default delivery address's, else the newest address's"),
  company: z.string().nullable().describe("The trade account's company, for a member of one"),
  orders: z.number().int(),
  total_spent: z.number().optional().describe("Pounds inc VAT of the orders paid for; only with orders.prices"),
  last_order_at: z.string().nullable(),
  blocked: z.boolean(),
  created_at: z.string().nullable().describe("When the account was made; null for a guest"),
});

const detail = z.object({
  kind,
  // Who they are, as their own account reads it.
  ...userJson.pick({ id: true, firstname: true, lastname: true, name: true, email: true, phone: true }).shape,
  staff_note: z.string(),
  total_spent: z.number().optional().describe("Pounds inc VAT of the orders paid for; only with orders.prices"),
  last_order_at: z.string().nullable(),
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

const customerErrors = { 404: messageResponse, 409: messageResponse };

/** The customers desk's API (ADR 0029): the same service as its screens; the service checks each permission. */
export async function adminCustomerRoutes(app: FastifyInstance, options: { customers: AdminCustomerService }): Promise<void> {
  const { customers } = options;
  const api = staffApi(app, { tags: ["admin: customers"] });

  storeNothing(app);

  api.get(
    "/admin/customers",
    {
      summary: "Customers' accounts, newest first, a keyset page at a time (`next_cursor`); search `q` by name (first, last or full), part of the email, a postcode in their address book (or its outward code), a trade company's name, or #id. Needs customers.view",
      querystring: listQuery,
      response: { 200: z.object({ data: z.array(summary), next_cursor: z.string().nullable() }) },
    },
    async (actor, request) => customers.list(actor, { q: request.query.q || undefined, cursor: request.query.cursor || undefined, limit: request.query.limit, sort: request.query.sort || undefined }),
  );

  api.get(
    "/admin/customers/guest",
    {
      summary: "A guest buyer (ordered without an account): their name and phone from their latest order, what they spent, and their orders by `email` (any case), newest first. 404 when the email placed no guest order. Needs customers.view",
      querystring: z.object({ email: z.string({ error: "Give the guest's email." }).trim().min(3, "Give the guest's email.").max(254) }),
      response: {
        200: z.object({
          kind: z.literal("guest"),
          email: z.string(),
          name: z.string(),
          phone: z.string(),
          order_count: z.number().int(),
          last_order_at: z.string(),
          total_spent: z.number().optional(),
          account_id: z.number().int().nullable().describe("An account registered with this email since"),
          orders: detail.shape.orders,
        }),
        ...customerErrors,
      },
    },
    async (actor, request) => customers.guest(actor, request.query.email),
  );

  api.patch(
    "/admin/customers/:id",
    {
      config: staffDoor("customers.edit"),
      summary: "Edits a registered customer's `firstname`, `lastname`, `phone`, `email` (another customer's: 422 naming them) or `staff_note`; audited with each change before and after. Needs customers.edit",
      params: idParams,
      body: customerPatch,
      response: { 200: detail, ...customerErrors },
    },
    async (actor, request) => customers.update(actor, request.params.id, request.body),
  );

  api.post(
    "/admin/customers/:id/addresses",
    { config: staffDoor("customers.edit"), summary: "Adds an address to the customer's address book, by the account's own rules (the first is the default). Audited. Needs customers.edit", params: idParams, body: customerAddressBody, response: { 201: addressJson, ...customerErrors } },
    async (actor, request, reply) => reply.code(201).send(await customers.addAddress(actor, request.params.id, request.body)),
  );

  const addressParams = idParams.extend({ address: z.coerce.number().int().positive().max(2_147_483_647) });
  api.put(
    "/admin/customers/:id/addresses/:address",
    { config: staffDoor("customers.edit"), summary: "Changes an address in the customer's address book. Audited. Needs customers.edit", params: addressParams, body: customerAddressBody, response: { 200: addressJson, ...customerErrors } },
    async (actor, request) => customers.updateAddress(actor, request.params.id, request.params.address, request.body),
  );

  api.delete(
    "/admin/customers/:id/addresses/:address",
    { config: staffDoor("customers.edit"), summary: "Removes an address from the customer's address book (a default passes to the oldest left). Audited. Needs customers.edit", params: addressParams, response: { 204: z.null(), ...customerErrors } },
    noContent((actor, request) => customers.deleteAddress(actor, request.params.id, request.params.address)),
  );

  api.get(
    "/admin/customers/:id",
    {
      summary: "One customer: details, address book, their last 20 orders and how many in all, wishlist size, trade membership, sign-ins open, and whether they are blocked (with the reason given). Needs customers.view",
      params: idParams,
      response: { 200: detail, ...customerErrors },
    },
    async (actor, request) => customers.detail(actor, request.params.id),
  );

  api.post(
    "/admin/customers/:id/password-reset",
    {
      config: staffDoor("customers.manage"),
      summary: "Emails the customer the storefront's password reset link (single use, valid 60 minutes; an earlier link stops working). 409 for a blocked customer. Needs customers.manage",
      params: idParams,
      response: { 200: z.object({ sent_to: z.string(), expires_at: z.string(), expires_in_minutes: z.number().int() }), ...customerErrors },
    },
    async (actor, request) => customers.sendPasswordReset(actor, request.params.id),
  );

  api.post(
    "/admin/customers/:id/block",
    {
      config: staffDoor("customers.manage"),
      summary: "Blocks the customer: sign-in is refused with 403, every sign-in and reset link they hold ends at once; `reason` goes in the audit log. 409 when already blocked. Needs customers.manage",
      params: idParams,
      body: blockBody,
      response: { 200: detail, ...customerErrors },
    },
    async (actor, request) => customers.block(actor, request.params.id, request.body?.reason),
  );

  api.post(
    "/admin/customers/:id/unblock",
    {
      config: staffDoor("customers.manage"),
      summary: "Lets a blocked customer sign in again (afresh: no old sign-in comes back). 409 when not blocked. Needs customers.manage",
      params: idParams,
      response: { 200: detail, ...customerErrors },
    },
    async (actor, request) => customers.unblock(actor, request.params.id),
  );
}

import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { messageResponse, validationResponse } from "../../auth/contract.ts";
import { staffApi } from "../../staff/admin-api.ts";
import { noContent } from "../../../lib/json-api.ts";
import { staffDoor } from "../../staff/door.ts";
import { counterOrderBody, draftBody } from "./contract.ts";
import type { OrderDrafts } from "./drafts.ts";
import type { CounterLookup } from "./lookup.ts";
import type { CounterOrders } from "./service.ts";

const errors = { 401: messageResponse, 403: messageResponse, 404: messageResponse, 422: validationResponse };
const draftParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const lookupQuery = z.object({ q: z.string().trim().min(2, "Type at least 2 characters.").max(100, "Search for at most 100 characters.") });
const draft = z.object({ id: z.number(), label: z.string(), customer_id: z.number().nullable(), staff_name: z.string().nullable(), payload: z.record(z.string(), z.unknown()), created_at: z.string(), updated_at: z.string() });
const customer = z.object({ kind: z.enum(["registered", "trade", "guest"]), customer_id: z.number().nullable(), name: z.string(), email: z.string(), phone: z.string(), company: z.string().nullable(), postcode: z.string().nullable(), available_credit: z.number().nullable(), sites: z.array(z.object({ id: z.number(), name: z.string() })) });
const product = z.object({
  sku: z.string(),
  name: z.string(),
  barcode: z.string().nullable(),
  price_ex_vat: z.number(),
  price: z.number(),
  vat_rate: z.number(),
  unit: z.string(),
  stock: z.array(z.object({ branch_id: z.number(), branch: z.string(), stock: z.number() })),
  total_stock: z.number(),
});

/** Orders taken by staff (issue 34): the order, its pickers and its drafts. Each needs orders.create; the service checks it again. */
export async function counterOrderRoutes(app: FastifyInstance, options: { counter: CounterOrders; lookup: CounterLookup; drafts: OrderDrafts }): Promise<void> {
  const api = staffApi(app, { tags: ["admin: orders"], errors });
  const { counter, lookup, drafts } = options;

  api.post(
    "/admin/orders",
    {
      config: staffDoor("orders.create"),
      summary:
        "Takes an order for a phone or walk-in customer: an account (`customer_id`, at their own prices) or a walk-in (`customer`); each line by SKU, its price lowered only with a `reason` and within the role's limit (403 beyond it); stock and credit refused as at checkout (422). `card_link` emails a card payment link, `on_account` charges an approved trade member's account within credit, `paid_at_counter` records the terminal's or receipt's `payment_reference` and starts paid, `pay_on_collection` is for collections. `draft_id` deletes the draft it finishes",
      body: counterOrderBody,
      response: { 201: z.object({ data: z.object({ number: z.string(), status: z.string() }) }) },
    },
    async (actor, request, reply) => reply.code(201).send({ data: await counter.place(actor, request.body) }),
  );

  api.get(
    "/admin/orders/lookup/customers",
    { summary: `Whom an order is for, by name, email, phone, postcode or company: accounts (trade members with the credit they have left) and guests who have bought before, up to 8 of each`, querystring: lookupQuery, response: { 200: z.object({ data: z.array(customer) }) } },
    async (actor, request) => ({ data: await lookup.customers(actor, request.query.q) }),
  );

  api.get(
    "/admin/orders/lookup/products",
    { summary: "What goes on an order, by name, SKU or barcode (an exact SKU or barcode first), with the list price and the stock at each open branch", querystring: lookupQuery, response: { 200: z.object({ data: z.array(product) }) } },
    async (actor, request) => ({ data: await lookup.products(actor, request.query.q) }),
  );

  api.get(
    "/admin/orders/drafts",
    { summary: "Saved drafts of staff orders, newest first", response: { 200: z.object({ data: z.array(draft) }) } },
    async (actor) => ({ data: await drafts.list(actor) }),
  );
  api.post(
    "/admin/orders/drafts",
    { config: staffDoor("orders.create"), summary: "Saves the order form as a draft (`payload`: the order's fields as far as they go)", body: draftBody, response: { 201: z.object({ data: draft }) } },
    async (actor, request, reply) => reply.code(201).send({ data: await drafts.save(actor, request.body) }),
  );
  api.get(
    "/admin/orders/drafts/:id",
    { summary: "One draft, to reopen", params: draftParams, response: { 200: z.object({ data: draft }) } },
    async (actor, request) => ({ data: await drafts.get(actor, request.params.id) }),
  );
  api.put(
    "/admin/orders/drafts/:id",
    { config: staffDoor("orders.create"), summary: "Saves the draft again", params: draftParams, body: draftBody, response: { 200: z.object({ data: draft }) } },
    async (actor, request) => ({ data: await drafts.save(actor, request.body, request.params.id) }),
  );
  api.delete(
    "/admin/orders/drafts/:id",
    { config: staffDoor("orders.create"), summary: "Deletes a draft", params: draftParams, response: { 204: z.null() } },
    noContent((actor, request) => drafts.remove(actor, request.params.id)),
  );
}

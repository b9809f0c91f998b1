import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { BATCH_MAX, type OrderDocuments } from "./admin-documents.ts";
import { messageResponse } from "../auth/contract.ts";
import { staffApi } from "../staff/admin-api.ts";
import type { AdminOrderService } from "./admin.ts";
import { ADMIN_ORDERS_PAGE_MAX, type AdminOrderFilters, londonTime } from "./admin-list.ts";
import { BULK_MAX, CARRIER_MAX, NOTE_MAX, TRACKING_MAX } from "./admin-moves.ts";
import { PAYMENT_METHODS } from "./fulfilment.ts";
import { ORDER_STATUSES } from "./schema.ts";
import { staffDoor } from "../staff/door.ts";
import { storeNothing } from "../../lib/no-store.ts";
import { sendPdf } from "../../lib/pdf-reply.ts";

// A filter form sends an empty value for "any": accepted, and read as no filter.
const blankOr = <T extends z.ZodType>(schema: T) => z.union([z.literal(""), schema]).optional();
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Use a date as YYYY-MM-DD.");

const filtersQuery = z.object({
  status: blankOr(z.enum(ORDER_STATUSES, { error: `Choose one of: ${ORDER_STATUSES.join(", ")}.` })),
  payment_method: blankOr(z.enum(PAYMENT_METHODS, { error: `Choose one of: ${PAYMENT_METHODS.join(", ")}.` })),
  fulfilment: blankOr(z.enum(["delivery", "collection"], { error: "Choose delivery or collection." })),
  from: blankOr(day),
  to: blankOr(day),
  trade: blankOr(z.enum(["yes", "no"], { error: "Choose yes or no." })),
  branch_id: blankOr(z.coerce.number().int().positive("Choose a branch.")).describe("A branch's queue: its collections and the deliveries it sends"),
  q: z.string().trim().max(100, "Search for at most 100 characters.").optional(),
  sort: blankOr(z.enum(["newest", "oldest"], { error: "Sort by newest or oldest." })),
});
const listQuery = filtersQuery.extend({
  cursor: z.string().max(100).regex(/^[A-Za-z0-9_-]*$/, "Invalid cursor.").optional(),
  limit: z.coerce.number().int().min(1).max(ADMIN_ORDERS_PAGE_MAX).optional(),
});

/** The query as the service takes it: blanks dropped. */
function filtersOf(query: z.infer<typeof listQuery>): AdminOrderFilters {
  return {
    status: query.status || undefined,
    payment_method: query.payment_method || undefined,
    fulfilment: query.fulfilment || undefined,
    from: query.from || undefined,
    to: query.to || undefined,
    trade: query.trade || undefined,
    branch_id: query.branch_id || undefined,
    q: query.q || undefined,
    sort: query.sort || undefined,
    cursor: query.cursor || undefined,
    limit: query.limit,
  };
}

export const numberParams = z.object({ number: z.string().max(20).regex(/^TC-\d{6,}$/i, "Give an order number such as TC-000123.") });
const status = z.enum(ORDER_STATUSES);
const fulfilment = z.enum(["delivery", "collection"]);

const summary = z.object({
  number: z.string(),
  status,
  status_label: z.string(),
  created_at: z.string(),
  name: z.string(),
  postcode: z.string().nullable(),
  fulfilment,
  delivery_method: z.string(),
  delivery_method_name: z.string(),
  lines: z.number().int(),
  items: z.number().int(),
  trade: z.boolean(),
  email: z.string().optional().describe("Only with customers.view"),
  payment_method: z.string().optional().describe("Only with orders.prices"),
  total: z.number().optional().describe("Pounds inc VAT; only with orders.prices"),
});

const address = z.object({ kind: z.string(), name: z.string(), company: z.string(), line_1: z.string(), line_2: z.string(), line_3: z.string(), town: z.string(), county: z.string(), postcode: z.string() });
const detail = z.object({
  number: z.string(),
  status,
  status_label: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  fulfilment,
  delivery_method: z.string(),
  delivery_method_name: z.string(),
  customer_name: z.string().describe("Who it is for: the recipient or collector named at checkout or the counter; empty on orders from before names were asked"),
  branch: z.object({ id: z.number().int(), slug: z.string(), name: z.string() }).nullable().describe("Where it is collected from or sent from; null for a delivery split between branches"),
  site: z.object({ id: z.number().int(), name: z.string() }).nullable().describe("The trade customer's site it is for"),
  collect_ready_at: z.string().nullable().describe("A collection: when it is ready (ISO date-time)"),
  notes: z.string(),
  carrier: z.string().nullable(),
  tracking_number: z.string().nullable(),
  tracking_url: z.string().nullable(),
  lines: z.array(
    z.object({
      id: z.number().int(),
      product_id: z.number().int().nullable(),
      sku: z.string(),
      name: z.string(),
      slug: z.string(),
      quantity: z.number().int(),
      unit_price: z.number().optional(),
      unit_price_ex_vat: z.number().optional(),
      vat_rate: z.number().optional(),
      line_total: z.number().optional(),
      line_total_ex_vat: z.number().optional(),
      discount_ex_vat: z.number().optional(),
    }),
  ),
  addresses: z.object({ delivery: address.nullable(), billing: address.nullable().optional() }),
  totals: z.object({ subtotal: z.number(), discount: z.number(), vat: z.number(), delivery: z.number(), total: z.number() }).optional().describe("Pounds: goods ex VAT after promotions, the promotions' discount (ex VAT, already off the subtotal), their VAT, delivery inc VAT, total; only with orders.prices"),
  payment: z
    .object({
      method: z.string(),
      label: z.string(),
      po_reference: z.string(),
      reference: z.string().describe("The counter's or the bank transfer's reference, when staff recorded the payment"),
      paid_amount: z.number().nullable().describe("Pounds received, when staff marked it paid"),
      paid_on: z.string().nullable().describe("The day it was received (YYYY-MM-DD)"),
    })
    .optional(),
  customer: z
    .object({
      user_id: z.number().int().nullable(),
      guest: z.boolean(),
      name: z.string(),
      email: z.string(),
      account_email: z.string().nullable(),
      phone: z.string(),
      trade_account: z.object({ id: z.number().int(), company_name: z.string() }).nullable(),
    })
    .optional()
    .describe("Only with customers.view"),
  history: z.array(
    z.object({
      kind: z.enum(["status", "note"]),
      status: z.string(),
      label: z.string(),
      note: z.string(),
      at: z.string(),
      staff: z.object({ id: z.number().int(), name: z.string() }).nullable(),
    }),
  ),
  actions: z.array(z.object({ to: status, label: z.string(), requires: z.array(z.enum(["carrier", "tracking_number", "note", "collection_code"])), emails_customer: z.boolean() })),
});

const transitionBody = z.object({
  to: z.enum(ORDER_STATUSES, { error: `Choose one of: ${ORDER_STATUSES.join(", ")}.` }),
  carrier: z.string().trim().max(CARRIER_MAX, `The carrier may be at most ${CARRIER_MAX} characters.`).optional(),
  tracking_number: z.string().trim().max(TRACKING_MAX, `The tracking number may be at most ${TRACKING_MAX} characters.`).optional(),
  note: z.string().trim().max(NOTE_MAX, `The note may be at most ${NOTE_MAX} characters.`).optional(),
  collection_code: z.string().trim().max(40, "Enter the six-digit collection code.").optional().describe("Marking a collection collected: the code on the customer's ready email, or what its QR code holds (TC-000123/482913)"),
  expected_status: z.enum(ORDER_STATUSES).optional(),
  paid_amount: z.number({ error: "Enter the amount received, such as 237.58." }).positive("Enter the amount received, such as 237.58.").max(10_000_000).optional().describe("Marking paid: pounds received (the order's total when not given)"),
  paid_on: z.string().trim().max(10).optional().describe("Marking paid: the day it arrived, YYYY-MM-DD (today when not given)"),
  payment_reference: z.string().trim().max(60, "The reference may be at most 60 characters.").optional().describe("Marking paid: the bank transfer's reference"),
  amount_confirmed: z.boolean().optional().describe("Marking paid: records an amount other than the total"),
});
const noteBody = z.object({ note: z.string({ error: "Write the note." }).trim().min(1, "Write the note.").max(NOTE_MAX, `The note may be at most ${NOTE_MAX} characters.`) });

const orderErrors = { 404: messageResponse, 409: messageResponse };

/** The orders desk's API (ADR 0029): the same service as its screens; the service checks each permission. */
export async function adminOrderRoutes(app: FastifyInstance, options: { orders: AdminOrderService; documents: OrderDocuments }): Promise<void> {
  const { orders } = options;
  const api = staffApi(app, { tags: ["admin: orders"] });

  storeNothing(app);

  api.get(
    "/admin/orders",
    {
      summary:
        "Every order, newest first, a keyset page at a time (`next_cursor`): filter by status, payment method, delivery or collection, London days from/to, trade or not; search `q` by order number, email, name or postcode. Prices and payment need orders.prices, the email customers.view",
      querystring: listQuery,
      response: { 200: z.object({ data: z.array(summary), next_cursor: z.string().nullable() }) },
    },
    async (actor, request) => orders.list(actor, filtersOf(request.query)),
  );

  api.get(
    "/admin/orders/counts",
    {
      summary: "Orders per status for the same filters, status aside: the counts on the tabs",
      querystring: filtersQuery,
      response: { 200: z.object({ data: z.record(status, z.number().int()) }) },
    },
    async (actor, request) => ({ data: await orders.statusCounts(actor, filtersOf(request.query)) }),
  );

  const pdf = { 200: z.unknown().describe("application/pdf"), ...orderErrors };
  api.get(
    "/admin/orders/picking-list.pdf",
    {
      summary: `A picking list for every order awaiting dispatch (paid or being picked; the oldest ${BATCH_MAX}), or for the orders named by \`number\` (repeat it), with each SKU's total first; no prices. Needs orders.fulfil`,
      querystring: z.object({ number: z.union([z.string().max(20), z.array(z.string().max(20)).max(BATCH_MAX)]).optional() }),
      response: pdf,
    },
    async (actor, request, reply) => {
      const chosen = request.query.number === undefined ? undefined : [request.query.number].flat();
      const { pdf: file } = await options.documents.batchPickingList(actor, chosen);
      return sendPdf(reply, file, "picking-list.pdf");
    },
  );
  // One order's paper, shown inline under its name and the order's number.
  for (const [name, summary, make] of [
    ["picking-list", "The order's picking list, by SKU with tick boxes; no prices. Needs orders.fulfil", options.documents.pickingList],
    ["delivery-note", "The order's delivery note with a signature box; no prices. Needs orders.fulfil", options.documents.deliveryNote],
  ] as const) {
    api.get(`/admin/orders/:number/${name}.pdf`, { summary, params: numberParams, response: pdf }, async (actor, request, reply) => {
      const file = await make(actor, request.params.number);
      return sendPdf(reply, file, `${name}-${request.params.number.toUpperCase()}.pdf`);
    });
  }

  api.post(
    "/admin/orders/bulk-transitions",
    {
      // Each order is moved only for a role that may make the move, and listed as refused otherwise.
      config: staffDoor("orders.view"),
      summary: `The same move for up to ${BULK_MAX} orders chosen on the list, each in its own transaction: \`moved\` and \`refused\` (with why). Only moves that need no carrier, tracking number or reason`,
      body: z.object({
        numbers: z.array(z.string().max(20)).min(1, "Choose at least one order.").max(BULK_MAX, `Choose at most ${BULK_MAX} orders at a time.`),
        to: z.enum(["paid", "processing", "ready_for_collection", "completed"], { error: "Choose paid, processing, ready_for_collection or completed." }),
      }),
      response: { 200: z.object({ to: status, moved: z.array(z.string()), refused: z.array(z.object({ number: z.string(), message: z.string() })) }) },
    },
    async (actor, request) => orders.bulkTransition(actor, request.body.numbers, request.body.to),
  );

  api.get(
    "/admin/orders/export.csv",
    {
      summary: "The filtered list as CSV (UTF-8 with a byte order mark), streamed whatever its size; needs orders.export",
      querystring: filtersQuery,
      produces: ["text/csv"],
    },
    async (actor, request, reply) => {
      const csv = orders.exportCsv(actor, filtersOf(request.query));
      const today = londonTime(new Date()).slice(0, 10);
      return reply.type("text/csv; charset=utf-8").header("content-disposition", `attachment; filename="orders-${today}.csv"`).send(csv);
    },
  );

  api.get(
    "/admin/orders/:number",
    {
      summary: "One order: lines, totals with VAT, addresses, payment, the customer, the timeline of moves and notes, and the actions its status allows this member. The warehouse sees no prices and no customer beyond the delivery address",
      params: numberParams,
      response: { 200: detail, ...orderErrors },
    },
    async (actor, request) => orders.detail(actor, request.params.number),
  );

  api.post(
    "/admin/orders/:number/transitions",
    {
      // Any move's permission opens the door; the move asked for is checked against its own.
      config: staffDoor(["orders.mark_paid", "orders.fulfil", "orders.cancel"]),
      summary:
        "Moves the order on (the state machine in server/modules/orders/transitions.ts): carrier and tracking number to dispatch, a reason (note) to cancel (an order on account has its invoice credited in full, in the same transaction); `expected_status` refuses the move if the order changed meanwhile. 409 for a move its status does not allow, 403 for a role without the permission",
      params: numberParams,
      body: transitionBody,
      response: { 200: detail.extend({ credit_note: z.string().optional().describe("Cancelling an order on account: the credit note that credited its invoice in full") }), ...orderErrors },
    },
    async (actor, request) => orders.transition(actor, request.params.number, request.body),
  );

  api.post(
    "/admin/orders/:number/notes",
    {
      config: staffDoor("orders.note"),
      summary: "A staff note on the order's timeline (never shown to the customer); the status stays",
      params: numberParams,
      body: noteBody,
      response: { 201: detail, ...orderErrors },
    },
    async (actor, request, reply) => reply.code(201).send(await orders.addNote(actor, request.params.number, request.body.note)),
  );
}

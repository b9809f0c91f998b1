import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { messageResponse } from "../auth/contract.ts";
import { skuParams } from "../catalog/products/admin-routes.ts";
import { staffApi } from "../staff/admin-api.ts";
import { MOVEMENT_KINDS } from "./schema.ts";
import { TRANSFERS_PAGE_MAX, TRANSFER_LINES_MAX, type TransferService } from "./transfers.ts";
import { TRANSFER_STATES } from "./schema.ts";
import { HISTORY_PAGE_MAX, LOOKUP_MAX, MANUAL_KINDS, REASON_MAX, STOCK_LINES_MAX, type StockService } from "./service.ts";
import { staffDoor } from "../staff/door.ts";
import { storeNothing } from "../../lib/no-store.ts";

const sku = z.string({ error: "Give the SKU." }).trim().min(1, "Give the SKU.").max(64);
const lines = <T extends z.ZodType>(item: T, what: string) =>
  z.array(item).min(1, `Add at least one ${what}.`).max(STOCK_LINES_MAX, `At most ${STOCK_LINES_MAX} ${what}s at once.`);

const branchRef = z.object({ id: z.number().int(), slug: z.string(), name: z.string() });
const branchId = z.number({ error: "Choose a branch." }).int("Choose a branch.").positive("Choose a branch.");
const stockResult = z.object({
  products: z.array(z.object({ sku: z.string(), name: z.string(), branch: branchRef, before: z.number().int(), after: z.number().int(), difference: z.number().int().optional() })),
});
const history = z.object({
  data: z.array(
    z.object({
      id: z.number().int(),
      sku: z.string(),
      name: z.string(),
      change: z.number().int(),
      kind: z.enum(MOVEMENT_KINDS),
      kind_label: z.string(),
      reason: z.string(),
      stock_after: z.number().int(),
      branch: branchRef,
      order_number: z.string().nullable(),
      staff: z.string().nullable(),
      at: z.string(),
    }),
  ),
  next_cursor: z.string().nullable(),
});

/** The stock desk's API (issue 20): each call all or nothing; needs stock.count. */
export async function stockRoutes(app: FastifyInstance, options: { stock: StockService; transfers: TransferService }): Promise<void> {
  const { stock } = options;
  const api = staffApi(app, { tags: ["admin: stock"] });

  storeNothing(app);

  api.post(
    "/admin/stock/movements",
    {
      config: staffDoor("stock.count"),
      summary: `Stock movements by hand: each \`{sku, change, reason, branch_id}\` (kind adjusted by default, which needs a reason; or received or returned; at the default branch when \`branch_id\` is left out). All applied or none: 422 names the rows (\`movements.N.field\`). At most ${STOCK_LINES_MAX}`,
      body: z.object({
        movements: lines(
          z.object({
            sku,
            change: z.number({ error: "Give the change as a whole number." }).int("Give the change as a whole number."),
            reason: z.string().max(REASON_MAX, `The reason can be at most ${REASON_MAX} characters.`).optional(),
            kind: z.enum(MANUAL_KINDS, { error: `Choose one of: ${MANUAL_KINDS.join(", ")}.` }).optional(),
            branch_id: branchId.optional(),
          }),
          "movement",
        ),
      }),
      response: { 200: stockResult },
    },
    async (actor, request) => stock.move(actor, request.body.movements),
  );

  api.post(
    "/admin/stock/deliveries",
    {
      config: staffDoor("stock.count"),
      summary: "A delivery received at a branch (`branch_id`, the default one when left out): several SKUs at once, each a `received` movement with the delivery's reference. All or none",
      body: z.object({
        reference: z.string().max(REASON_MAX, `The reference can be at most ${REASON_MAX} characters.`).default(""),
        branch_id: branchId.optional(),
        lines: lines(z.object({ sku, quantity: z.number({ error: "Give the quantity received." }).int("Give the quantity as a whole number.") }), "line"),
      }),
      response: { 200: stockResult },
    },
    async (actor, request) => stock.receive(actor, request.body),
  );

  api.post(
    "/admin/stock/counts",
    {
      config: staffDoor("stock.count"),
      summary: "A stock count at a branch (`branch_id`, the default one when left out): what is on the shelf per SKU; each difference from the branch's books is recorded as a `counted` movement, worked out under the row lock. All or none",
      body: z.object({
        note: z.string().max(REASON_MAX).default(""),
        branch_id: branchId.optional(),
        counts: lines(z.object({ sku, counted: z.number({ error: "Give the count." }).int("Give the count as a whole number.") }), "count"),
      }),
      response: { 200: stockResult },
    },
    async (actor, request) => stock.count(actor, request.body.counts, request.body.note, request.body.branch_id),
  );

  api.get(
    "/admin/stock/lookup",
    {
      summary: `Products for a desk's row, at most ${LOOKUP_MAX}: an exact SKU or barcode first (\`exact: true\`, what a scanner sends), then names containing \`q\` and SKUs starting with it (from 2 characters); each with its stock at \`branch_id\` (the default branch when left out) and in all. Drafts are found, archived products not. Needs catalogue.view`,
      querystring: z.object({ q: z.string().max(200).default(""), branch_id: z.coerce.number().int().positive().optional() }),
      response: {
        200: z.object({
          branch: branchRef,
          data: z.array(z.object({ sku: z.string(), name: z.string(), barcode: z.string().nullable(), status: z.enum(["draft", "published", "archived"]), stock: z.number().int(), total: z.number().int(), exact: z.boolean() })),
        }),
      },
    },
    async (actor, request) => stock.lookup(actor, { q: request.query.q, branchId: request.query.branch_id }),
  );

  api.get(
    "/admin/stock/movements",
    {
      summary: "Stock movements newest first, a keyset page at a time; of one variant with `sku`, of all a product's variants with `product` (any of their SKUs), of one kind with `kind`, at one branch with `branch_id`",
      querystring: z.object({
        sku: z.string().max(64).optional(),
        product: z.string().max(64).optional(),
        branch_id: z.coerce.number().int().positive().optional(),
        kind: z.union([z.literal(""), z.enum(MOVEMENT_KINDS)]).optional(),
        cursor: z.string().max(100).regex(/^[A-Za-z0-9_-]*$/, "Invalid cursor.").optional(),
        limit: z.coerce.number().int().min(1).max(HISTORY_PAGE_MAX).optional(),
      }),
      response: { 200: history, 404: messageResponse },
    },
    async (actor, request) => {
      const { branch_id, ...query } = request.query;
      return stock.history(actor, { ...query, branchId: branch_id, kind: query.kind || undefined, sku: query.sku || undefined, product: query.product || undefined });
    },
  );

  api.get(
    "/admin/stock/levels",
    {
      summary: "A variant's stock at each branch (every open branch; a closed one while it holds some), what is in transit to and from each, and its total on the shelves",
      querystring: z.object({ sku: z.string({ error: "Give the SKU." }).trim().min(1, "Give the SKU.").max(64) }),
      response: {
        200: z.object({
          sku: z.string(),
          total: z.number().int(),
          data: z.array(z.object({ branch: branchRef, stock: z.number().int(), in_transit: z.object({ incoming: z.number().int(), outgoing: z.number().int() }) })),
        }),
        404: messageResponse,
      },
    },
    async (actor, request) => stock.levels(actor, request.query.sku),
  );

  api.get(
    "/admin/products/:sku/stock-movements",
    { summary: "One product's stock movements, newest first", params: skuParams, querystring: z.object({ cursor: z.string().max(100).regex(/^[A-Za-z0-9_-]*$/).optional() }), response: { 200: history, 404: messageResponse } },
    async (actor, request) => stock.history(actor, { sku: request.params.sku, cursor: request.query.cursor }),
  );

  const transferRef = z.object({ id: z.number().int(), slug: z.string(), name: z.string() });
  const transfer = z.object({
    id: z.number().int(),
    number: z.string(),
    state: z.enum(TRANSFER_STATES),
    from: transferRef,
    to: transferRef,
    order: z.object({ number: z.string() }).nullable().describe("The collection order it was raised for: sent whole, its goods the order's, cancelled only with the order"),
    note: z.string(),
    lines: z.array(
      z.object({ variant_id: z.number().int(), sku: z.string(), name: z.string(), quantity: z.number().int(), sent: z.number().int().nullable(), received: z.number().int().nullable(), shortfall: z.number().int().nullable() }),
    ),
    requested_at: z.string(),
    sent_at: z.string().nullable(),
    received_at: z.string().nullable(),
  });
  const transferParams = z.object({ id: z.coerce.number().int().positive() });
  const quantities = z
    .object({ lines: z.array(z.object({ sku, quantity: z.number({ error: "Give the quantity." }).int("Give the quantity as a whole number.") })).max(TRANSFER_LINES_MAX).optional() })
    .default({});
  const transferErrors = { 404: messageResponse, 409: messageResponse };

  api.post(
    "/admin/stock/transfers",
    {
      config: staffDoor("stock.count"),
      summary: "A transfer between branches, asked for: `{from_branch_id, to_branch_id, lines: [{sku, quantity}], note?}` → 201 in state `requested`. Needs stock.count",
      body: z.object({
        from_branch_id: branchId,
        to_branch_id: branchId,
        note: z.string().max(200, "The note can be at most 200 characters.").optional(),
        lines: lines(z.object({ sku, quantity: z.number({ error: "Give the quantity." }).int("Give the quantity as a whole number.") }), "line"),
      }),
      response: { 201: z.object({ data: transfer }), ...transferErrors },
    },
    async (actor, request, reply) => reply.code(201).send({ data: await options.transfers.request(actor, request.body) }),
  );

  api.get(
    "/admin/stock/transfers",
    {
      summary: "Transfers newest first, a keyset page at a time; of one `state`, to or from one `branch_id`",
      querystring: z.object({
        state: z.enum(TRANSFER_STATES).optional(),
        branch_id: z.coerce.number().int().positive().optional(),
        cursor: z.coerce.number().int().positive().optional(),
        limit: z.coerce.number().int().min(1).max(TRANSFERS_PAGE_MAX).optional(),
      }),
      response: { 200: z.object({ data: z.array(transfer), next_cursor: z.number().int().nullable() }) },
    },
    async (actor, request) => options.transfers.list(actor, { state: request.query.state, branchId: request.query.branch_id, cursor: request.query.cursor, limit: request.query.limit }),
  );

  api.get(
    "/admin/stock/transfers/:id",
    { summary: "One transfer with its lines: asked for, sent, received and short", params: transferParams, response: { 200: z.object({ data: transfer }), ...transferErrors } },
    async (actor, request) => ({ data: await options.transfers.get(actor, request.params.id) }),
  );

  // Sending and receiving take the same body and answer alike: one route each, from this table.
  const moves = [
    {
      step: "send",
      summary: "Sends a requested transfer: each line's quantity (as asked unless `lines` says otherwise, 0 to leave one out) leaves the sending branch as `transfer_out`, all or none; 409 once sent or cancelled",
    },
    {
      step: "receive",
      summary: "Receives a transfer in transit: what arrived of each line (all that was sent unless `lines` says less) joins the receiving branch as `transfer_in`; the rest is its shortfall; 409 unless in transit",
    },
  ] as const;
  for (const { step, summary } of moves) {
    api.post(
      `/admin/stock/transfers/:id/${step}`,
      { config: staffDoor("stock.count"), summary, params: transferParams, body: quantities, response: { 200: z.object({ data: transfer }), ...transferErrors } },
      async (actor, request) => ({ data: await options.transfers[step](actor, request.params.id, request.body.lines) }),
    );
  }

  api.post(
    "/admin/stock/transfers/:id/cancel",
    { config: staffDoor("stock.count"), summary: "Cancels a transfer not yet sent; 409 otherwise", params: transferParams, response: { 200: z.object({ data: transfer }), ...transferErrors } },
    async (actor, request) => ({ data: await options.transfers.cancel(actor, request.params.id) }),
  );
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { basketEnvelope, readingOwner, writingOwner } from "../../plugins/basket-envelope.ts";
import type { BasketOwner } from "../../plugins/guest.ts";
import type { ReorderService } from "../orders/reorder.ts";
import type { BasketCodes } from "../promotions/basket-codes.ts";
import { type BulkVerdict, bulkMessage } from "./bulk.ts";
import { QUICK_ORDER_MAX_LINES } from "./quick-order-text.ts";
import { type Basket, type BasketService, type LinesOutcome, MAX_QUANTITY, emptyBasket } from "./service.ts";
import { signedIn } from "../auth/signed-in.ts";

const quantity = z.coerce
  .number({ error: "Enter a quantity." })
  .int("Enter a whole number.")
  .min(1, "The quantity must be at least 1.")
  .max(MAX_QUANTITY, `The quantity must be at most ${MAX_QUANTITY}.`);
const id = z.coerce.number({ error: "Invalid product ID." }).int("Invalid product ID.").positive("Invalid product ID.").max(2_147_483_647, "Invalid product ID.");
const variantId = z.coerce.number({ error: "Invalid variant ID." }).int("Invalid variant ID.").positive("Invalid variant ID.").max(2_147_483_647, "Invalid variant ID.");

/**
 * A quick order's lines. Only the list's shape is checked at the door: each
 * line's SKU and quantity are judged on their own (a bad one is refused with
 * its error by line while the rest go in), so they are taken as typed.
 */
const bulkBody = z.object({
  lines: z
    .array(
      z.object({
        sku: z.union([z.string(), z.number()], { error: "Enter a SKU." }),
        quantity: z.union([z.number(), z.string()], { error: "Enter a quantity." }).optional(),
      }),
      { error: "Send the lines as a list of {sku, quantity}." },
    )
    .min(1, "Add at least one line.")
    .max(QUICK_ORDER_MAX_LINES, `A quick order takes at most ${QUICK_ORDER_MAX_LINES} lines at a time.`),
});

export async function basketRoutes(app: FastifyInstance, options: { basket: BasketService; reorder: ReorderService; codes: BasketCodes; enabled: boolean; secureCookies: boolean }): Promise<void> {
  const { basket } = options;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["basket"];
  const answer = basketEnvelope(app, { enabled: options.enabled, empty: emptyBasket, cartOf: basket.cart });
  const writing = (request: FastifyRequest, reply: FastifyReply) => writingOwner(request, reply, options.secureCookies);

  r.get("/basket", { schema: { tags, summary: "Your basket: items, subtotal (ex VAT), taxes, total and itemCount" } }, async (request, reply) => {
    const owner = readingOwner(request);
    return answer(reply, owner, "", async () => (owner ? basket.cart(owner) : emptyBasket));
  });

  r.post(
    "/basket",
    {
      schema: {
        tags,
        summary: "Adds a product's variant (a product with one needs none named; with several, variant_id or 422); the quantity (1–999) never passes the variant's stock",
        body: z.object({ product_id: id, variant_id: variantId.optional(), quantity: quantity.default(1) }),
      },
    },
    async (request, reply) => {
      const owner = writing(request, reply);
      return answer(reply, owner, "Added to your basket.", () => basket.add(owner, request.body.product_id, request.body.quantity, request.body.variant_id));
    },
  );

  r.put(
    "/basket/:cart_item_id",
    { schema: { tags, summary: "Changes a line's quantity", params: z.object({ cart_item_id: id }), body: z.object({ quantity }) } },
    async (request, reply) => {
      const owner = writing(request, reply);
      return answer(reply, owner, "Basket updated.", () => basket.update(owner, request.params.cart_item_id, request.body.quantity));
    },
  );

  r.delete("/basket/:cart_item_id", { schema: { tags, summary: "Removes a line", params: z.object({ cart_item_id: id }) } }, async (request, reply) => {
    const owner = writing(request, reply);
    return answer(reply, owner, "Removed from your basket.", () => basket.remove(owner, request.params.cart_item_id));
  });

  r.delete("/basket", { schema: { tags, summary: "Empties the basket" } }, async (request, reply) => {
    const owner = writing(request, reply);
    return answer(reply, owner, "Your basket is empty.", () => basket.clear(owner));
  });

  // Discount codes (issue 32): the basket's envelope, with `errors.code` saying why a code was refused.
  /** The envelope for a write that says what it did along with the basket it left. */
  const answerWithMessage = (reply: FastifyReply, owner: BasketOwner, work: () => Promise<{ cart: Basket; message: string }>) => {
    const done = { message: "" };
    return answer(reply, owner, () => done.message, async () => {
      const result = await work();
      done.message = result.message;
      return result.cart;
    });
  };
  const code = z.string({ error: "Enter a code." }).trim().min(1, "Enter a code.").max(40, "That is not a code we issue.");
  r.post(
    "/basket/discount",
    { schema: { tags, summary: "Applies a discount code: 422 errors.code says why not (unknown, not started, expired, used up, not for this basket or account, another code already in)", body: z.object({ code }) } },
    async (request, reply) => {
      const owner = writing(request, reply);
      return answerWithMessage(reply, owner, () => options.codes.apply(owner, request.body.code));
    },
  );

  r.delete(
    "/basket/discount",
    { schema: { tags, summary: "Removes a discount code (`code` in the query), or every code without one", querystring: z.object({ code: code.optional() }) } },
    async (request, reply) => {
      const owner = writing(request, reply);
      return answerWithMessage(reply, owner, () => options.codes.remove(owner, request.query.code));
    },
  );

  /** The envelope with each line's verdict beside it; `success` only when every line passed. */
  const bulkAnswer = async (owner: BasketOwner | null, verdict: BulkVerdict, checking: boolean) => ({
    success: Object.keys(verdict.errors).length === 0,
    message: bulkMessage(verdict, checking),
    errors: verdict.errors,
    cart: owner ? await basket.cart(owner) : emptyBasket,
    lines: verdict.lines,
  });

  r.post(
    "/basket/bulk",
    {
      schema: {
        tags,
        summary:
          "Quick order: adds lines of {sku (any case), quantity (1–999, 1 when left out)} in one step; lines refused (unknown SKU, not on sale, short of stock with what the basket holds, a bad quantity) are left out with errors by `lines.{n}.sku` / `lines.{n}.quantity`. 200 when any line was added, 422 when none",
        body: bulkBody,
      },
    },
    async (request, reply) => {
      const owner = writing(request, reply);
      const verdict = await basket.addBulk(owner, request.body.lines);
      reply.code(verdict.lines.some((l) => l.ok) ? 200 : 422);
      return bulkAnswer(owner, verdict, false);
    },
  );

  r.post(
    "/basket/bulk/check",
    {
      schema: {
        tags,
        summary: "Quick order's check: what POST /api/basket/bulk would do with these lines now, line by line (product, price, stock, errors), writing nothing",
        body: bulkBody,
      },
    },
    async (request) => {
      const owner = readingOwner(request);
      return bulkAnswer(owner, await basket.checkBulk(owner, request.body.lines), true);
    },
  );

  // Lives with the basket: it answers the basket's envelope and is gone when the basket is switched off.
  r.post(
    "/account/orders/:order_id/reorder",
    {
      schema: {
        tags: ["orders"],
        summary: "Buy again: adds one of your orders' lines to your basket at today's prices, capped at the stock; another's order answers 404",
        params: z.object({ order_id: z.coerce.number({ error: "Invalid order ID." }).int("Invalid order ID.").positive("Invalid order ID.").max(2_147_483_647, "Invalid order ID.") }),
      },
    },
    async (request, reply) => {
      const userId = signedIn(request).id;
      const done: { outcome?: LinesOutcome; message?: string } = {};
      const owner = { userId, prices: request.prices };
      const body = await answer(reply, owner, () => done.message ?? "", async () => {
        Object.assign(done, await options.reorder.reorder(userId, request.params.order_id));
        return basket.cart(owner);
      });
      // The line-by-line report beside the envelope, so a page can show what was capped or skipped.
      return done.outcome ? { ...body, reorder: done.outcome } : body;
    },
  );
}

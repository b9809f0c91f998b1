import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { readingOwner } from "../../plugins/basket-envelope.ts";
import { ukPostcode } from "../account/contract.ts";
import { emailField } from "../auth/contract.ts";
import type { BasketService } from "../basket/service.ts";
import type { DeliveryService } from "../delivery/service.ts";
import type { OrderService } from "../orders/service.ts";
import type { ReturnsService } from "../returns/service.ts";
import type { PaymentService } from "../payments/service.ts";
import { MAX_SUGGESTIONS, type PostcodeProvider } from "../postcode/service.ts";
import { type CheckoutService, PriceChangedError } from "./service.ts";
import { thankYouOrder } from "./thank-you.ts";
import { storeNothing } from "../../lib/no-store.ts";
import { signedIn } from "../auth/signed-in.ts";

const LOOKUP_FAILED = "No addresses found or an unknown error occurred.";
const SUGGEST_FAILED = "No postcode suggestions found or an unknown error occurred.";

const line = (label: string, required: boolean) =>
  required
    ? z.string({ error: `Enter ${label}.` }).trim().min(1, `Enter ${label}.`).max(100, "This line is too long.")
    : z.string().trim().max(100, "This line is too long.").optional().default("");

export const address = z.object({
  name: z.string().trim().max(100, "The name must be at most 100 characters.").optional().default(""),
  company: z.string().trim().max(100, "The company name must be at most 100 characters.").optional().default(""),
  line_1: line("the first line of the address", true),
  line_2: line("", false),
  line_3: line("", false),
  town: z.string({ error: "Enter the town or city." }).trim().min(1, "Enter the town or city.").max(60),
  county: z.string().trim().max(60).optional().default(""),
  postcode: ukPostcode,
});

export const checkoutBody = z.object({
  email: emailField,
  phone: z.string().trim().max(30, "The phone number is too long.").regex(/^[0-9+() -]*$/, "Enter a valid phone number.").optional().default(""),
  delivery_method: z.string({ error: "Choose a delivery method." }).min(1, "Choose a delivery method.").max(40),
  delivery_address: address.optional(),
  billing_address: address.optional(),
  collector_name: z.string().trim().max(100, "The name must be at most 100 characters.").optional().default(""),
  payment_method: z.enum(["bank_transfer", "pay_on_collection", "pay_on_account", "card"], { error: "Choose how you will pay." }),
  notes: z.string().trim().max(1000, "Notes must be at most 1,000 characters.").optional().default(""),
  po_reference: z.string().trim().max(50, "The purchase-order reference must be at most 50 characters.").optional().default(""),
  expected_total: z.number().min(0).max(10_000_000).optional(),
  branch_id: z.number({ error: "Choose a branch." }).int("Choose a branch.").positive("Choose a branch.").optional(),
  site_id: z.number({ error: "Choose a site." }).int("Choose a site.").positive("Choose a site.").max(2_147_483_647, "Choose a site.").optional(),
});

/**
 * A postcode look-up's answer: `{success: true, [key]: list}`, or 404 when the
 * provider finds nothing and 502 (logged) when it fails, both with `failed`.
 */
async function found<K extends string, T>(request: FastifyRequest, reply: FastifyReply, key: K, failed: string, logLine: string, find: () => Promise<T[]>) {
  try {
    const list = await find();
    if (list.length === 0) return reply.code(404).send({ success: false, message: failed });
    return { success: true, [key]: list } as { success: true } & Record<K, T[]>;
  } catch (error) {
    request.log.warn({ err: error }, logLine);
    return reply.code(502).send({ success: false, message: failed });
  }
}

export interface CheckoutRouteOptions {
  checkout: CheckoutService;
  basket: BasketService;
  delivery: DeliveryService;
  postcodes: PostcodeProvider;
  orders: OrderService;
  payments: PaymentService;
  basketEnabled: boolean;
}

export async function checkoutRoutes(app: FastifyInstance, options: CheckoutRouteOptions): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["checkout"];
  storeNothing(app, "private, no-store");

  r.get(
    "/checkout/delivery-options",
    {
      schema: {
        tags,
        summary: "Delivery methods (with prices for this basket and postcode) and payment methods on offer",
        querystring: z.object({ postcode: z.union([z.literal(""), ukPostcode]).optional() }),
      },
    },
    async (request) => {
      const owner = readingOwner(request);
      const cart = owner && options.basketEnabled ? await options.basket.cart(owner) : null;
      const goodsTotal = Math.round((cart?.total ?? 0) * 100);
      const hasHeavy = cart ? await options.basket.hasHeavy(owner!) : false;
      const offered = await options.delivery.options({ goodsTotal, hasHeavy, postcode: request.query.postcode || null, freeDeliveryCode: cart?.free_delivery_code });
      const extra = await options.checkout.providerOptions(request.user?.id ?? null);
      // Where and when this basket can be collected: only when collection is on offer.
      const collect_at = cart?.items.length && offered.delivery.some((d) => d.kind === "collect") ? await options.checkout.collectionChoices(cart.items.map((i) => ({ variantId: i.variant_id, quantity: i.quantity }))) : [];
      return { data: { ...offered, payment: [...offered.payment, ...extra], collect_at } };
    },
  );

  r.post(
    "/checkout/postcode-lookup",
    { schema: { tags, summary: "The addresses at a postcode", body: z.object({ postcode: ukPostcode }) } },
    async (request, reply) => found(request, reply, "addresses", LOOKUP_FAILED, "postcode lookup failed", () => options.postcodes.lookup(request.body.postcode)),
  );

  r.post(
    "/checkout/postcode-suggestions",
    {
      schema: {
        tags,
        summary: `Up to ${MAX_SUGGESTIONS} postcodes that start with the query (from 2 characters)`,
        body: z.object({ query: z.string({ error: "Type at least 2 characters." }).trim().min(2, "Type at least 2 characters.").max(8, "Type a postcode.") }),
      },
    },
    async (request, reply) => found(request, reply, "postcodes", SUGGEST_FAILED, "postcode suggestions failed", () => options.postcodes.suggest(request.body.query)),
  );

  r.post(
    "/checkout",
    {
      schema: {
        tags,
        summary: "Places the order from the basket; an Idempotency-Key header makes a retry return the same order. By card: `{order, payment: {redirect_url}}`, the hosted payment page to send the browser to (503 when it cannot be opened: then no order is left and the basket is as it was)",
        body: checkoutBody,
        headers: z.object({ "idempotency-key": z.string().min(8).max(100).regex(/^[A-Za-z0-9_-]+$/).optional() }),
      },
    },
    async (request, reply) => {
      if (!options.basketEnabled) return reply.code(404).send({ message: "Not Found" });
      const owner = readingOwner(request);
      if (!owner) throw new ValidationError({ basket: ["Your basket is empty."] });
      try {
        const { order, replay, payment } = await options.checkout.placeOrder(owner, request.user?.id ?? null, request.body, request.headers["idempotency-key"] ?? null);
        // Card: the order, and the payment page the browser goes to next.
        return reply.code(replay ? 200 : 201).send(payment ? { order, payment } : order);
      } catch (error) {
        if (error instanceof PriceChangedError) return reply.code(409).send({ message: error.message, totals: error.totals });
        throw error;
      }
    },
  );

  r.get(
    "/checkout/card-payment",
    { schema: { tags, summary: "This browser's card order still waiting on an open payment page (the customer came back with the Back button), or null" } },
    async (request) => {
      const owner = readingOwner(request);
      return { data: owner ? await options.payments.pendingFor(owner) : null };
    },
  );

  r.post(
    "/checkout/card-payment/cancel",
    { schema: { tags, summary: "Cancels that order: its payment page is closed, nothing is charged, its items go back in the basket (404 when there is none)" } },
    async (request) => {
      const owner = readingOwner(request);
      if (!owner || !(await options.payments.cancelPending(owner))) throw new HttpError(404, "There is no card payment waiting.");
      return { data: null };
    },
  );

  r.get(
    "/checkout/orders/:number",
    {
      schema: {
        tags,
        summary: "The order just placed, for the thank-you page: its owner, or a guest holding the signed link",
        params: z.object({ number: z.string().regex(/^TC-\d{6,}$/) }),
        querystring: z.object({ expires: z.string().max(20).optional(), signature: z.string().max(100).optional() }),
      },
    },
    async (request) => {
      const order = await thankYouOrder({ orders: options.orders, verify: options.checkout.verifyThankYou }, request.params.number, request.query, request.user?.id ?? null);
      if (!order) throw new HttpError(404, "Order not found.");
      return { data: order };
    },
  );

}

export async function orderRoutes(app: FastifyInstance, options: { orders: OrderService; returns: ReturnsService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["orders"];
  storeNothing(app, "private, no-store");
  r.get(
    "/account/orders",
    {
      schema: {
        tags,
        summary: "Your orders, newest first, 20 a page; `site` keeps those for one of your company's sites",
        querystring: z.object({ page: z.coerce.number().int().min(1).max(500).optional(), site: z.coerce.number().int().positive().max(2_147_483_647).optional() }),
      },
    },
    async (request) => {
      return options.orders.history(signedIn(request).id, request.query.page, request.query.site);
    },
  );
  r.get(
    "/account/orders/:order_id",
    { schema: { tags, summary: "One of your orders; another's answers 404", params: z.object({ order_id: z.coerce.number().int().positive().max(2_147_483_647) }) } },
    async (request) => {
      const order = await options.orders.forUser(signedIn(request).id, request.params.order_id);
      if (!order) throw new HttpError(404, "Order not found.");
      // What can still be returned (per line, until when) and the order's returns (issue 31).
      const returns = await options.returns.forOrder(order.id);
      return { data: { ...order, returnable: returns?.returnable ?? null, returns: returns?.returns ?? [] } };
    },
  );
}

import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { messageResponse, validationResponse } from "../auth/contract.ts";
import { numberParams } from "../orders/admin-routes.ts";
import { staffApi } from "../staff/admin-api.ts";
import { WebhookSignatureError } from "./gateway.ts";
import { PAYMENT_MESSAGES, type PaymentService } from "./service.ts";
import { HttpError } from "../../http-errors.ts";
import type { OrderPayLinks } from "../orders/links.ts";
import { staffDoor } from "../staff/door.ts";

const tokenParams = z.object({ token: z.string().min(20).max(100).regex(/^[A-Za-z0-9_-]+$/) });

const orderPayment = z.object({
  gateway: z.string(),
  test_mode: z.boolean(),
  status: z.enum(["open", "paid", "expired", "failed", "flagged"]),
  paid: z.number(),
  refunded: z.number(),
  refundable: z.number(),
  problem: z.string().nullable(),
  refunds: z.array(
    z.object({
      id: z.number(),
      amount: z.number(),
      status: z.enum(["pending", "succeeded", "failed"]),
      source: z.enum(["staff", "gateway", "automatic"]),
      reason: z.string(),
      created_at: z.string(),
      staff_name: z.string().nullable(),
    }),
  ),
  refunded_lines: z.record(z.string(), z.number()),
});

export const refundBody = z
  .object({
    amount: z.number({ error: "Enter the amount in pounds." }).positive("Enter an amount above £0.00.").max(1_000_000).multipleOf(0.01, "Use pounds and pence.").optional(),
    lines: z
      .array(z.object({ line_id: z.number().int().positive(), quantity: z.number().int().min(0).max(10_000) }))
      .max(500)
      .optional(),
    reason: z.string({ error: "Give the reason for the refund." }).trim().min(1, "Give the reason for the refund.").max(500, "Keep the reason to 500 characters."),
  })
  .refine((b) => b.amount === undefined || b.lines === undefined, "Refund by lines or by an amount, not both.");

const errors = { 401: messageResponse, 403: messageResponse, 404: messageResponse, 409: messageResponse, 422: validationResponse, 502: messageResponse };

/**
 * Card payments over HTTP (ADR 0033): Stripe's webhook, the customer's
 * return from and cancel of the payment page, and the orders desk's refunds.
 */
export async function paymentRoutes(app: FastifyInstance, options: { payments: PaymentService; payLinks: OrderPayLinks }): Promise<void> {
  const { payments } = options;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["payments"];
  const staff = staffApi(app, { tags, errors });

  // The webhook's signature is over the exact bytes sent: its body is kept raw, in this scope only.
  await app.register(async (raw) => {
    raw.removeContentTypeParser("application/json");
    raw.addContentTypeParser("application/json", { parseAs: "buffer", bodyLimit: 512 * 1024 }, (_request, body, done) => done(null, body));
    raw.post(
      "/payments/stripe/webhook",
      {
        schema: {
          tags,
          summary: "Stripe's webhook: 400 unless the Stripe-Signature header verifies over the raw body; each event id applied once (a repeat answers 200 and changes nothing); 200 only once the event is recorded",
          hide: false,
        },
      },
      async (request, reply) => {
        if (!payments.gateway || payments.gateway.testMode) return reply.code(404).send({ message: "Not Found" });
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const signature = request.headers["stripe-signature"];
        try {
          const outcome = await payments.webhook(body, typeof signature === "string" ? signature : undefined);
          return reply.send({ received: true, duplicate: outcome === "duplicate" });
        } catch (error) {
          if (error instanceof WebhookSignatureError) return reply.code(400).send({ message: error.message });
          throw error;
        }
      },
    );
  });

  r.get(
    "/payments/return/:token",
    { schema: { tags, summary: "Where the payment page sends the customer after paying: the shop asks the gateway, marks the payment once, and sends the browser on (303)", params: tokenParams } },
    async (request, reply) => {
      reply.header("cache-control", "private, no-store");
      return reply.redirect(await payments.returned(request.params.token), 303);
    },
  );

  r.get(
    "/payments/cancel/:token",
    { schema: { tags, summary: "Where the payment page sends a customer who leaves it: the page is closed, the order cancelled and the basket put back (303 to checkout)", params: tokenParams } },
    async (request, reply) => {
      reply.header("cache-control", "private, no-store");
      const { redirect } = await payments.cancelled(request.params.token);
      return reply.redirect(redirect, 303);
    },
  );

  r.get(
    "/payments/order/:number",
    {
      schema: {
        tags,
        summary:
          "The card payment link emailed for an order taken by staff: opens a payment page for the order's total, or the one still open (303 to it); once paid, 303 to the order's thank-you page. 404 for a link that is not valid or has expired, 409 for a cancelled order, 503 when the payment service does not answer",
        params: numberParams,
        querystring: z.object({ expires: z.string().max(20).optional(), signature: z.string().max(100).optional() }),
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "private, no-store");
      const { number } = request.params;
      if (!options.payLinks.verifyPayLink(number.toUpperCase(), request.query.expires, request.query.signature)) throw new HttpError(404, PAYMENT_MESSAGES.linkInvalid);
      return reply.redirect(await payments.payOrderLink(number), 303);
    },
  );

  r.get(
    "/payments/hire/:token",
    {
      schema: {
        tags,
        summary:
          "The card payment link in a hire confirmation (customers without a trade account): opens a payment page for the hire and its deposit, or the one still open (303 to it); once paid, 303 to the customer's hire requests. 404 for a link that is not valid, 409 for a request that can no longer be paid, 503 when the payment service does not answer",
        params: tokenParams,
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "private, no-store");
      return reply.redirect(await payments.payHire(request.params.token), 303);
    },
  );

  staff.get(
    "/admin/orders/:number/payment",
    { summary: "The order's card payment: paid, refunded, what may still be refunded, each refund; null for an order not paid by card. Needs orders.prices", params: numberParams, response: { 200: z.object({ data: orderPayment.nullable() }) } },
    async (actor, request) => ({ data: await payments.paymentFor(actor, request.params.number) }),
  );

  staff.post(
    "/admin/orders/:number/refunds",
    {
      config: staffDoor("refunds.create"),
      summary:
        "Refunds the order's card payment: whole (no amount and no lines), some lines (`lines`), or an amount in pounds; never more than paid less refunded (422). Needs refunds.create; a sales member only up to their refund limit (403). 502 when the gateway refused: nothing was refunded",
      params: numberParams,
      body: refundBody,
      response: { 200: z.object({ data: orderPayment.nullable() }) },
    },
    async (actor, request) => {
      await payments.refundOrder(actor, request.params.number, request.body);
      return { data: await payments.paymentFor(actor, request.params.number) };
    },
  );
}

import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { messageResponse, validationResponse } from "../auth/contract.ts";
import type { OrderLinks } from "../orders/links.ts";
import type { OrderService } from "../orders/service.ts";
import type { OrderCancelling } from "./cancel.ts";
import { NOTE_MAX, type Requester, type ReturnsService } from "./service.ts";
import { RETURN_METHODS, RETURN_REASONS } from "./statuses.ts";

const numberParams = z.object({ number: z.string().max(20).regex(/^TC-\d{6,}$/i, "Give an order number such as TC-000123.") });
/** A guest's way in: the signature of the link in the order's emails. */
const linkQuery = z.object({ expires: z.string().max(20).optional(), signature: z.string().max(100).optional() });
const lineId = z.number({ error: "Give the order line's id." }).int().positive().max(2_147_483_647);
const quantity = z.number({ error: "Enter a quantity." }).int("Enter a whole number.").min(1, "Enter at least 1.").max(100_000, "Enter at most 100,000.");

const returnBody = z.object({
  lines: z
    .array(
      z.object({
        line_id: lineId,
        quantity,
        reason: z.enum(RETURN_REASONS, { error: `Choose a reason: ${RETURN_REASONS.join(", ")}.` }),
        note: z.string().max(NOTE_MAX, `Keep it to ${NOTE_MAX} characters.`).optional(),
      }),
    )
    .min(1, "Choose at least one item to return.")
    .max(200),
  method: z.enum(RETURN_METHODS, { error: `Choose how it comes back: ${RETURN_METHODS.join(", ")}.` }),
  branch_id: z.number().int().positive().max(2_147_483_647).optional().describe("Method branch: the branch the goods come back to (the order's own when not given)"),
});

const returnLine = z.object({ line_id: z.number(), name: z.string(), sku: z.string(), quantity: z.number(), reason: z.string(), reason_label: z.string(), note: z.string(), received: z.number(), damaged: z.number() });
const customerReturn = z.object({
  number: z.string(),
  status: z.string(),
  status_label: z.string(),
  method: z.string(),
  method_label: z.string(),
  branch: z.object({ id: z.number(), name: z.string() }).nullable(),
  created_at: z.string(),
  reject_reason: z.string().nullable(),
  refund: z.object({ amount: z.number(), method: z.string().nullable(), credit_note: z.string().nullable(), at: z.string().nullable() }).nullable(),
  lines: z.array(returnLine),
  timeline: z.array(z.object({ status: z.string(), label: z.string(), note: z.string(), at: z.string() })),
});
const errors = { 401: messageResponse, 403: messageResponse, 404: messageResponse, 409: messageResponse, 422: validationResponse };

/**
 * The customer's returns and cancelling (issue 31): the order's customer by
 * cookie or bearer token, or a guest with the signature of the order's link.
 */
export async function returnRoutes(app: FastifyInstance, options: { returns: ReturnsService; cancelling: OrderCancelling; orders: OrderService; links: OrderLinks }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["returns"];
  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "private, no-store");
  });
  const requester = (request: FastifyRequest, number: string, query: z.infer<typeof linkQuery>): Requester => {
    const upper = number.toUpperCase();
    return { userId: request.user?.id ?? null, signedFor: options.links.verifyOrderLink(upper, query.expires, query.signature) ? upper : null, triedLink: Boolean(query.signature) };
  };

  r.post(
    "/orders/:number/returns",
    {
      schema: {
        tags,
        summary:
          "Asks to return some of a delivered or collected order's lines: each `line_id` as GET /api/account/orders/{order_id} gives it, with a reason and how it comes back. 422 naming the line when its quantity exceeds what is left to return, the window has closed or the product cannot be returned; 403 for someone else's order. A change of mind inside the window is approved at once, with `instructions`",
        params: numberParams,
        querystring: linkQuery,
        body: returnBody,
        response: { 201: z.object({ data: customerReturn.extend({ instructions: z.array(z.string()) }) }), ...errors },
      },
    },
    async (request, reply) => {
      const { number } = request.params;
      const made = await options.returns.request(number, requester(request, number, request.query), request.body);
      return reply.code(201).send({ data: made });
    },
  );

  r.get(
    "/orders/:number/returns",
    { schema: { tags, summary: "The order's returns with their status and refunds", params: numberParams, querystring: linkQuery, response: { 200: z.object({ data: z.array(customerReturn) }), ...errors } } },
    async (request) => ({ data: await options.returns.list(request.params.number, requester(request, request.params.number, request.query)) }),
  );

  r.post(
    "/orders/:number/cancel",
    {
      schema: {
        tags,
        summary:
          "Cancels the whole order, or `lines` of it, before dispatch: the stock goes back and a card payment is refunded at once (an order on account is credited). 409 once dispatched. Some lines only for orders paid by card or on account",
        params: numberParams,
        querystring: linkQuery,
        body: z.object({ lines: z.array(z.object({ line_id: lineId, quantity })).max(200).optional() }),
        response: { 200: z.object({ data: z.record(z.string(), z.unknown()) }), ...errors },
      },
    },
    async (request) => {
      const { number } = request.params;
      const done = await options.cancelling.cancel(number, requester(request, number, request.query), request.body);
      const order = await options.orders.byNumber(done.number);
      return { data: { ...order, cancelled: done.cancelled, refund_failed: done.refund_failed } };
    },
  );
}

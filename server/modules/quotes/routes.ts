import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { ukPostcode } from "../account/contract.ts";
import { PriceChangedError } from "../checkout/types.ts";
import type { QuoteAcceptance } from "./accept.ts";
import { quoteAcceptBody, quoteChangesBody, quoteDeclineBody, quoteNumberParams, quoteRequestBody, revisionQuery } from "./contract.ts";
import type { QuoteService } from "./service.ts";
import { storeNothing } from "../../lib/no-store.ts";
import { signedIn } from "../auth/signed-in.ts";
import { jsonApi } from "../../lib/json-api.ts";
import { sendPdf } from "../../lib/pdf-reply.ts";


/** The customer's quotes (issue 32): ask from the basket, read, accept at the quoted prices, ask for changes, decline. */
export async function quoteRoutes(app: FastifyInstance, options: { quotes: QuoteService; acceptance: QuoteAcceptance }): Promise<void> {
  // The customer's id (401 for anyone else); the quotes declare no answers, so no shared errors either.
  const api = jsonApi(app, { tags: ["quotes"], errors: {}, who: (request) => signedIn(request, "Sign in to see your quotes.").id });
  storeNothing(app, "private, no-store");

  api.post(
    "/quotes",
    { summary: "Asks for a quote on the signed-in customer's basket (which it empties): 201 `{data: {number, status: \"requested\"}}`; 422 for an empty basket", body: quoteRequestBody },
    async (customerId, request, reply) => reply.code(201).send({ data: await options.quotes.request(customerId, request.body) }),
  );

  api.get(
    "/quotes",
    { summary: "Your quotes and, for a company's owners, admins and accounts users, the company's; newest first, 20 a page (`cursor`)", querystring: z.object({ cursor: z.coerce.number().int().positive().max(2_147_483_647).optional() }) },
    async (customerId, request) => options.quotes.list(customerId, request.query.cursor),
  );

  api.get(
    "/quotes/:number",
    { summary: "One quote: lines, totals (null while it is being priced), revisions, timeline, and what you may do (`can`); 404 when not yours", params: quoteNumberParams },
    async (customerId, request) => ({ data: await options.quotes.get(customerId, request.params.number) }),
  );

  api.get(
    "/quotes/:number/pdf",
    { summary: "A sent version as a PDF (the latest, or `revision`)", params: quoteNumberParams, querystring: revisionQuery },
    async (customerId, request, reply) => {
      const pdf = await options.quotes.pdf(customerId, request.params.number, request.query.revision);
      return sendPdf(reply, pdf, `${request.params.number}.pdf`);
    },
  );

  api.get(
    "/quotes/:number/delivery-options",
    { summary: "Delivery methods for the quote's goods (the quoted delivery price in place of the usual), payment methods, and collection branches", params: quoteNumberParams, querystring: z.object({ postcode: z.union([z.literal(""), ukPostcode]).optional() }) },
    async (customerId, request) => options.acceptance.options(customerId, request.params.number, request.query.postcode || null),
  );

  api.post(
    "/quotes/:number/accept",
    {
      summary: "Accepts the quote: 201 with the order as checkout answers, its lines at the quoted prices (by card, `{order, payment}`); 409 when expired, declined, not yet sent or already accepted. An Idempotency-Key makes a retry the same order (200)",
      params: quoteNumberParams,
      body: quoteAcceptBody,
      headers: z.object({ "idempotency-key": z.string().min(8).max(100).regex(/^[A-Za-z0-9_-]+$/).optional() }),
    },
    async (customerId, request, reply) => {
      try {
        const { order, replay, payment } = await options.acceptance.accept(customerId, request.params.number, request.body, request.headers["idempotency-key"] ?? null);
        return reply.code(replay ? 200 : 201).send(payment ? { order, payment } : order);
      } catch (error) {
        if (error instanceof PriceChangedError) return reply.code(409).send({ message: error.message, totals: error.totals });
        throw error;
      }
    },
  );

  api.post(
    "/quotes/:number/changes",
    { summary: "Asks for changes to a sent quote: it goes back to the shop as the next revision; the sent one is kept", params: quoteNumberParams, body: quoteChangesBody },
    async (customerId, request) => ({ data: await options.quotes.askForChanges(customerId, request.params.number, request.body.message) }),
  );

  api.post(
    "/quotes/:number/decline",
    { summary: "Declines the quote (with a reason, optional)", params: quoteNumberParams, body: quoteDeclineBody },
    async (customerId, request) => ({ data: await options.quotes.decline(customerId, request.params.number, request.body.reason) }),
  );
}

import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { HttpError } from "../../http-errors.ts";
import { messageResponse, validationResponse } from "../auth/contract.ts";
import type { User } from "../auth/schema.ts";
import { priceDisplayBody, tradeAccountJson, tradeSetupBody } from "./contract.ts";
import type { TradeService } from "./service.ts";

function signedIn(request: FastifyRequest): User {
  if (!request.user) throw new HttpError(401, "Unauthenticated.");
  return request.user;
}

export async function tradeRoutes(app: FastifyInstance, options: { trade: TradeService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { trade } = options;
  const tags = ["trade"];
  const errors = { 401: messageResponse, 404: messageResponse, 409: messageResponse, 422: validationResponse };
  const answer = z.object({ data: tradeAccountJson });

  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "private, no-store");
  });

  r.post(
    "/trade/setup",
    {
      schema: {
        tags,
        summary: "Applies for a trade account; the applicant becomes its owner and the account is pending until staff decide",
        body: tradeSetupBody,
        response: { 201: answer, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await trade.apply(signedIn(request).id, request.body) }),
  );

  r.get(
    "/trade/dashboard",
    { schema: { tags, summary: "Your trade account: state, credit limit, terms and discount; 404 without one", response: { 200: answer, ...errors } } },
    async (request) => {
      const account = await trade.accountOf(signedIn(request).id);
      if (!account) throw new HttpError(404, "Not Found");
      return { data: account };
    },
  );

  r.put(
    "/trade/price-display",
    { schema: { tags, summary: "A member's choice of prices inc VAT or ex VAT (the trade default), remembered on their membership", body: priceDisplayBody, response: { 200: answer, ...errors } } },
    async (request) => ({ data: await trade.setPricesIncVat(signedIn(request).id, request.body.prices_inc_vat) }),
  );
}

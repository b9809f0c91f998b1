import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { HttpError } from "../../http-errors.ts";
import { messageResponse, validationResponse } from "../auth/contract.ts";
import { jsonApi } from "../../lib/json-api.ts";
import { signedIn } from "../auth/signed-in.ts";
import { priceDisplayBody, tradeAccountJson, tradeDashboardJson, tradeSetupBody } from "./contract.ts";
import type { TradeDashboardService } from "./dashboard.ts";
import type { TradeService } from "./service.ts";
import { storeNothing } from "../../lib/no-store.ts";

export async function tradeRoutes(app: FastifyInstance, options: { trade: TradeService; dashboard: TradeDashboardService }): Promise<void> {
  const { trade, dashboard } = options;
  const errors = { 401: messageResponse, 404: messageResponse, 409: messageResponse, 422: validationResponse };
  const api = jsonApi(app, { tags: ["trade"], errors, who: signedIn });
  const answer = z.object({ data: tradeAccountJson });

  storeNothing(app, "private, no-store");

  api.post(
    "/trade/setup",
    {
      summary: "Applies for a trade account; the applicant becomes its owner and the account is pending until staff decide",
      body: tradeSetupBody,
      response: { 201: answer },
    },
    async (user, request, reply) => reply.code(201).send({ data: await trade.apply(user.id, request.body) }),
  );

  api.get(
    "/trade/dashboard",
    {
      summary:
        "Your trade account: state, terms and discount; once approved, credit (limit, balance, available, overdue), recent orders (a buyer's own), unpaid invoices by due date (owners, admins, accounts) and 12 months of spend. 404 without an account",
      response: { 200: z.object({ data: tradeDashboardJson }) },
    },
    async (user) => {
      const data = await dashboard.dashboardOf(user.id);
      if (!data) throw new HttpError(404, "Not Found");
      return { data };
    },
  );

  api.put(
    "/trade/price-display",
    { summary: "A member's choice of prices inc VAT or ex VAT (the trade default), remembered on their membership", body: priceDisplayBody, response: { 200: answer } },
    async (user, request) => ({ data: await trade.setPricesIncVat(user.id, request.body.prices_inc_vat) }),
  );
}

import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { messageResponse, validationResponse } from "../auth/contract.ts";
import { staffApi } from "../staff/admin-api.ts";
import type { PromotionAdmin } from "./admin.ts";
import { PROMOTION_STATUSES, promotionInput, promotionJson, promotionPatch } from "./contract.ts";
import { staffDoor } from "../staff/door.ts";
import { storeNothing } from "../../lib/no-store.ts";

const errors = { 401: messageResponse, 403: messageResponse };
const id = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const report = z.object({ orders: z.number().int(), discount_given: z.number(), sales: z.number(), uses_given_back: z.number().int() });

/** The promotions desk (issue 32): reading needs promotions.view; changing, promotions.manage; every change audited. */
export async function adminPromotionRoutes(app: FastifyInstance, options: { admin: PromotionAdmin }): Promise<void> {
  const api = staffApi(app, { tags: ["admin: promotions"], errors });
  storeNothing(app);

  api.get(
    "/admin/promotions",
    {
      summary: "Promotions, newest first, 50 a page (`cursor`: the last id of the page before)",
      querystring: z.object({ status: z.enum(PROMOTION_STATUSES).optional(), cursor: z.coerce.number().int().positive().max(2_147_483_647).optional() }),
      response: { 200: z.object({ data: z.array(promotionJson), next_cursor: z.number().int().nullable() }), 422: validationResponse },
    },
    async (actor, request) => options.admin.list(actor, request.query),
  );

  api.post(
    "/admin/promotions",
    {
      config: staffDoor("promotions.manage"),
      summary: "Creates a discount code or a multi-buy; 422 by field (a code already in use: errors.code)",
      body: promotionInput,
      response: { 201: z.object({ data: promotionJson }), 422: validationResponse },
    },
    async (actor, request, reply) => reply.code(201).send(await options.admin.create(actor, request.body)),
  );

  api.get(
    "/admin/promotions/:id",
    {
      summary: "A promotion with its report: orders that used it, discount given, their sales, uses given back",
      params: id,
      response: { 200: z.object({ data: promotionJson, report }), 404: messageResponse },
    },
    async (actor, request) => options.admin.get(actor, request.params.id),
  );

  api.patch(
    "/admin/promotions/:id",
    {
      config: staffDoor("promotions.manage"),
      summary: "Changes any field (`status`: paused or ended stops it at once, active resumes it); the whole is checked again",
      params: id,
      body: promotionPatch,
      response: { 200: z.object({ data: promotionJson }), 404: messageResponse, 422: validationResponse },
    },
    async (actor, request) => options.admin.update(actor, request.params.id, request.body),
  );

  api.post(
    "/admin/promotions/:id/preview",
    {
      config: staffDoor("promotions.view"),
      summary: "What a sample basket (SKUs and quantities, at list prices, as a consumer or trade member) would get from it and the running multi-buys; writes nothing",
      params: id,
      body: z.object({
        lines: z.array(z.object({ sku: z.string().trim().min(1, "Give a SKU.").max(64), quantity: z.number().int().min(1, "At least 1.").max(999, "At most 999.") })).min(1, "Add at least one line.").max(100, "At most 100 lines."),
        trade: z.boolean().default(false),
      }),
    },
    async (actor, request) => options.admin.preview(actor, request.params.id, request.body),
  );
}

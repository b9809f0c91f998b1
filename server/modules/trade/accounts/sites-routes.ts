import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { messageResponse, validationResponse } from "../../auth/contract.ts";
import { siteBody, siteJson, sitePatchBody } from "../sites-contract.ts";
import type { TradeSitesService } from "./sites.ts";
import { tradeIdParams } from "./users-contract.ts";
import { jsonApi } from "../../../lib/json-api.ts";
import { signedIn } from "../../auth/signed-in.ts";
import { storeNothing } from "../../../lib/no-store.ts";

/** The company's sites: every member reads them; owners and admins add, change and archive; anyone outside the company gets 404. */
export async function tradeSitesRoutes(app: FastifyInstance, options: { sites: TradeSitesService }): Promise<void> {
  const { sites } = options;
  const errors = { 401: messageResponse, 404: messageResponse, 422: validationResponse };
  const api = jsonApi(app, { tags: ["trade"], errors, who: signedIn });
  storeNothing(app, "private, no-store");

  api.get(
    "/trade/sites",
    { summary: "The company's sites (live first, then archived) and whether you may change them", response: { 200: z.object({ data: z.array(siteJson), can_manage: z.boolean() }) } },
    async (user) => sites.list(user.id),
  );
  api.post(
    "/trade/sites",
    { summary: "Adds a site: a name, its delivery address, a contact, and its PO rule (required, and the prefix its references start with)", body: siteBody, response: { 201: z.object({ data: siteJson }) } },
    async (user, request, reply) => reply.code(201).send({ data: await sites.create(user.id, request.body) }),
  );
  api.patch(
    "/trade/sites/:id",
    { summary: "Changes a site, or archives it (`archived: true`): its orders keep it, and it is no longer offered at checkout", params: tradeIdParams, body: sitePatchBody, response: { 200: z.object({ data: siteJson }) } },
    async (user, request) => ({ data: await sites.update(user.id, request.params.id, request.body) }),
  );
}

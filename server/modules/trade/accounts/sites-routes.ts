import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { messageResponse, validationResponse } from "../../auth/contract.ts";
import { siteBody, siteJson, sitePatchBody } from "../sites-contract.ts";
import type { TradeSitesService } from "./sites.ts";
import { tradeIdParams } from "./users-contract.ts";
import { signedIn } from "../../auth/signed-in.ts";
import { storeNothing } from "../../../lib/no-store.ts";

/** The company's sites: every member reads them; owners and admins add, change and archive; anyone outside the company gets 404. */
export async function tradeSitesRoutes(app: FastifyInstance, options: { sites: TradeSitesService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { sites } = options;
  const tags = ["trade"];
  const errors = { 401: messageResponse, 404: messageResponse, 422: validationResponse };
  storeNothing(app, "private, no-store");

  r.get(
    "/trade/sites",
    { schema: { tags, summary: "The company's sites (live first, then archived) and whether you may change them", response: { 200: z.object({ data: z.array(siteJson), can_manage: z.boolean() }), ...errors } } },
    async (request) => sites.list(signedIn(request).id),
  );
  r.post(
    "/trade/sites",
    { schema: { tags, summary: "Adds a site: a name, its delivery address, a contact, and its PO rule (required, and the prefix its references start with)", body: siteBody, response: { 201: z.object({ data: siteJson }), ...errors } } },
    async (request, reply) => reply.code(201).send({ data: await sites.create(signedIn(request).id, request.body) }),
  );
  r.patch(
    "/trade/sites/:id",
    { schema: { tags, summary: "Changes a site, or archives it (`archived: true`): its orders keep it, and it is no longer offered at checkout", params: tradeIdParams, body: sitePatchBody, response: { 200: z.object({ data: siteJson }), ...errors } } },
    async (request) => ({ data: await sites.update(signedIn(request).id, request.params.id, request.body) }),
  );
}

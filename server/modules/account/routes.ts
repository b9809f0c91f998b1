import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { messageResponse, successResponse, validationResponse } from "../auth/contract.ts";
import type { AuthService } from "../auth/service.ts";
import { signedIn } from "../auth/signed-in.ts";
import { addressBody, addressIdParams, addressJson, newsletterJson, passwordBody, profileBody, userJson } from "./contract.ts";
import type { AccountService } from "./service.ts";
import { storeNothing } from "../../lib/no-store.ts";

export async function accountRoutes(app: FastifyInstance, options: { account: AccountService; auth: AuthService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { account, auth } = options;
  const tags = ["account"];
  const errors = { 401: messageResponse, 404: messageResponse, 422: validationResponse };

  // Account answers are personal: never stored by a shared cache.
  storeNothing(app, "private, no-store");

  r.get("/account", { schema: { tags, summary: "Your profile", response: { 200: z.object({ data: userJson }), ...errors } } }, async (request) => ({
    data: await account.profile(signedIn(request).id),
  }));

  r.put(
    "/account",
    { schema: { tags, summary: "Updates your profile; a new email needs the current password", body: profileBody, response: { 200: z.object({ data: userJson }), ...errors } } },
    async (request) => ({ data: await account.updateProfile(signedIn(request).id, request.body) }),
  );

  r.put(
    "/account/password",
    { schema: { tags, summary: "Changes your password and signs out your other sessions", body: passwordBody, response: { 200: successResponse, ...errors } } },
    async (request) => {
      await auth.changePassword(signedIn(request), request.body.current_password, request.body.password, request.tokenId);
      return { success: true as const };
    },
  );

  r.get(
    "/account/addresses",
    { schema: { tags, summary: "Your addresses", response: { 200: z.object({ data: z.array(addressJson) }), ...errors } } },
    async (request) => ({ data: await account.listAddresses(signedIn(request).id) }),
  );

  r.post(
    "/account/addresses",
    { schema: { tags, summary: "Adds a UK address", body: addressBody, response: { 201: z.object({ data: addressJson }), ...errors } } },
    async (request, reply) => reply.code(201).send({ data: await account.addAddress(signedIn(request).id, request.body) }),
  );

  r.put(
    "/account/addresses/:id",
    { schema: { tags, summary: "Changes one of your addresses", params: addressIdParams, body: addressBody, response: { 200: z.object({ data: addressJson }), ...errors } } },
    async (request) => ({ data: await account.updateAddress(signedIn(request).id, request.params.id, request.body) }),
  );

  r.delete(
    "/account/addresses/:id",
    { schema: { tags, summary: "Deletes one of your addresses", params: addressIdParams, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await account.deleteAddress(signedIn(request).id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  r.get(
    "/account/newsletter",
    { schema: { tags, summary: "Your newsletter settings", response: { 200: z.object({ data: newsletterJson }), ...errors } } },
    async (request) => ({ data: await account.newsletter(signedIn(request).id) }),
  );

  r.put(
    "/account/newsletter",
    { schema: { tags, summary: "Changes your newsletter settings", body: newsletterJson, response: { 200: z.object({ data: newsletterJson }), ...errors } } },
    async (request) => ({ data: await account.setNewsletter(signedIn(request).id, request.body) }),
  );
}

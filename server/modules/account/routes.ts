import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { messageResponse, successResponse, validationResponse } from "../auth/contract.ts";
import type { AuthService } from "../auth/service.ts";
import { jsonApi, noContent } from "../../lib/json-api.ts";
import { signedIn } from "../auth/signed-in.ts";
import { addressBody, addressIdParams, addressJson, newsletterJson, passwordBody, profileBody, userJson } from "./contract.ts";
import type { AccountService } from "./service.ts";
import { storeNothing } from "../../lib/no-store.ts";

export async function accountRoutes(app: FastifyInstance, options: { account: AccountService; auth: AuthService }): Promise<void> {
  const { account, auth } = options;
  const errors = { 401: messageResponse, 404: messageResponse, 422: validationResponse };
  const api = jsonApi(app, { tags: ["account"], errors, who: signedIn });

  // Account answers are personal: never stored by a shared cache.
  storeNothing(app, "private, no-store");

  api.get("/account", { summary: "Your profile", response: { 200: z.object({ data: userJson }) } }, async (user) => ({
    data: await account.profile(user.id),
  }));

  api.put(
    "/account",
    { summary: "Updates your profile; a new email needs the current password", body: profileBody, response: { 200: z.object({ data: userJson }) } },
    async (user, request) => ({ data: await account.updateProfile(user.id, request.body) }),
  );

  api.put(
    "/account/password",
    { summary: "Changes your password and signs out your other sessions", body: passwordBody, response: { 200: successResponse } },
    async (user, request) => {
      await auth.changePassword(user, request.body.current_password, request.body.password, request.tokenId);
      return { success: true as const };
    },
  );

  api.get(
    "/account/addresses",
    { summary: "Your addresses", response: { 200: z.object({ data: z.array(addressJson) }) } },
    async (user) => ({ data: await account.listAddresses(user.id) }),
  );

  api.post(
    "/account/addresses",
    { summary: "Adds a UK address", body: addressBody, response: { 201: z.object({ data: addressJson }) } },
    async (user, request, reply) => reply.code(201).send({ data: await account.addAddress(user.id, request.body) }),
  );

  api.put(
    "/account/addresses/:id",
    { summary: "Changes one of your addresses", params: addressIdParams, body: addressBody, response: { 200: z.object({ data: addressJson }) } },
    async (user, request) => ({ data: await account.updateAddress(user.id, request.params.id, request.body) }),
  );

  api.delete(
    "/account/addresses/:id",
    { summary: "Deletes one of your addresses", params: addressIdParams, response: { 204: z.null() } },
    noContent((user, request) => account.deleteAddress(user.id, request.params.id)),
  );

  api.get(
    "/account/newsletter",
    { summary: "Your newsletter settings", response: { 200: z.object({ data: newsletterJson }) } },
    async (user) => ({ data: await account.newsletter(user.id) }),
  );

  api.put(
    "/account/newsletter",
    { summary: "Changes your newsletter settings", body: newsletterJson, response: { 200: z.object({ data: newsletterJson }) } },
    async (user, request) => ({ data: await account.setNewsletter(user.id, request.body) }),
  );
}

import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { messageResponse, validationResponse } from "../../auth/contract.ts";
import { jsonApi, noContent } from "../../../lib/json-api.ts";
import { signedIn } from "../../auth/signed-in.ts";
import { TRADE_ROLES } from "../schema.ts";
import { tradeAcceptBody, tradeIdParams, tradeInvitationJson, tradeInviteBody, tradeRoleBody, tradeUserJson } from "./users-contract.ts";
import type { TradeUsersService } from "./users.ts";
import { storeNothing } from "../../../lib/no-store.ts";

/** The company's users and invitations: owners and admins manage; everyone else gets 404. */
export async function tradeUsersRoutes(app: FastifyInstance, options: { users: TradeUsersService }): Promise<void> {
  const { users } = options;
  const errors = { 401: messageResponse, 403: messageResponse, 404: messageResponse, 409: messageResponse, 410: messageResponse, 422: validationResponse };
  const api = jsonApi(app, { tags: ["trade"], errors, who: signedIn });

  storeNothing(app, "private, no-store");

  api.get(
    "/trade/users",
    {
      summary: "The company's users (name, email, role, status, last active) and open invitations; owners and admins only",
      response: { 200: z.object({ data: z.array(tradeUserJson), invitations: z.array(tradeInvitationJson) }) },
    },
    async (user) => {
      const list = await users.list(user.id);
      return { data: list.users, invitations: list.invitations };
    },
  );

  api.post(
    "/trade/users/invite",
    { summary: "Invites someone by email with a role; the email carries a single-use link valid 7 days", body: tradeInviteBody, response: { 201: z.object({ data: tradeInvitationJson }) } },
    async (user, request, reply) => reply.code(201).send({ data: await users.invite(user.id, request.body) }),
  );

  api.put(
    "/trade/users/:id",
    { summary: `Changes a user's role (${TRADE_ROLES.join(", ")}); an admin cannot change an owner; one owner always stays`, params: tradeIdParams, body: tradeRoleBody, response: { 200: z.object({ data: tradeUserJson }) } },
    async (user, request) => ({ data: await users.setRole(user.id, request.params.id, request.body.role) }),
  );

  api.delete(
    "/trade/users/:id",
    { summary: "Removes a user from the company; an admin cannot remove an owner; one owner always stays", params: tradeIdParams, response: { 204: z.null() } },
    noContent((user, request) => users.remove(user.id, request.params.id)),
  );

  api.post(
    "/trade/invitations/:id/resend",
    { summary: "Sends an open invitation again with a fresh link valid 7 days; the old link stops working", params: tradeIdParams, response: { 200: z.object({ data: tradeInvitationJson }) } },
    async (user, request) => ({ data: await users.resend(user.id, request.params.id) }),
  );

  api.delete(
    "/trade/invitations/:id",
    { summary: "Revokes an open invitation", params: tradeIdParams, response: { 204: z.null() } },
    noContent((user, request) => users.revoke(user.id, request.params.id)),
  );

  api.post(
    "/trade/invitations/accept",
    {
      summary: "The signed-in invitee accepts with the token from their email; the invitation must be open, unexpired and sent to their email",
      body: tradeAcceptBody,
      response: { 200: z.object({ data: z.object({ trade_account_id: z.number().int(), role: z.enum(TRADE_ROLES) }) }) },
    },
    async (user, request) => ({ data: await users.accept(user.id, request.body.token) }),
  );
}

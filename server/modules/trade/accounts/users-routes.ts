import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { messageResponse, validationResponse } from "../../auth/contract.ts";
import { signedIn } from "../../auth/signed-in.ts";
import { TRADE_ROLES } from "../schema.ts";
import { tradeAcceptBody, tradeIdParams, tradeInvitationJson, tradeInviteBody, tradeRoleBody, tradeUserJson } from "./users-contract.ts";
import type { TradeUsersService } from "./users.ts";
import { storeNothing } from "../../../lib/no-store.ts";

/** The company's users and invitations: owners and admins manage; everyone else gets 404. */
export async function tradeUsersRoutes(app: FastifyInstance, options: { users: TradeUsersService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { users } = options;
  const tags = ["trade"];
  const errors = { 401: messageResponse, 403: messageResponse, 404: messageResponse, 409: messageResponse, 410: messageResponse, 422: validationResponse };

  storeNothing(app, "private, no-store");

  r.get(
    "/trade/users",
    {
      schema: {
        tags,
        summary: "The company's users (name, email, role, status, last active) and open invitations; owners and admins only",
        response: { 200: z.object({ data: z.array(tradeUserJson), invitations: z.array(tradeInvitationJson) }), ...errors },
      },
    },
    async (request) => {
      const list = await users.list(signedIn(request).id);
      return { data: list.users, invitations: list.invitations };
    },
  );

  r.post(
    "/trade/users/invite",
    { schema: { tags, summary: "Invites someone by email with a role; the email carries a single-use link valid 7 days", body: tradeInviteBody, response: { 201: z.object({ data: tradeInvitationJson }), ...errors } } },
    async (request, reply) => reply.code(201).send({ data: await users.invite(signedIn(request).id, request.body) }),
  );

  r.put(
    "/trade/users/:id",
    { schema: { tags, summary: `Changes a user's role (${TRADE_ROLES.join(", ")}); an admin cannot change an owner; one owner always stays`, params: tradeIdParams, body: tradeRoleBody, response: { 200: z.object({ data: tradeUserJson }), ...errors } } },
    async (request) => ({ data: await users.setRole(signedIn(request).id, request.params.id, request.body.role) }),
  );

  r.delete(
    "/trade/users/:id",
    { schema: { tags, summary: "Removes a user from the company; an admin cannot remove an owner; one owner always stays", params: tradeIdParams, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await users.remove(signedIn(request).id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  r.post(
    "/trade/invitations/:id/resend",
    { schema: { tags, summary: "Sends an open invitation again with a fresh link valid 7 days; the old link stops working", params: tradeIdParams, response: { 200: z.object({ data: tradeInvitationJson }), ...errors } } },
    async (request) => ({ data: await users.resend(signedIn(request).id, request.params.id) }),
  );

  r.delete(
    "/trade/invitations/:id",
    { schema: { tags, summary: "Revokes an open invitation", params: tradeIdParams, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await users.revoke(signedIn(request).id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  r.post(
    "/trade/invitations/accept",
    {
      schema: {
        tags,
        summary: "The signed-in invitee accepts with the token from their email; the invitation must be open, unexpired and sent to their email",
        body: tradeAcceptBody,
        response: { 200: z.object({ data: z.object({ trade_account_id: z.number().int(), role: z.enum(TRADE_ROLES) }) }), ...errors },
      },
    },
    async (request) => ({ data: await users.accept(signedIn(request).id, request.body.token) }),
  );
}

import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { messageResponse, validationResponse } from "../auth/contract.ts";
import { staffActorOf } from "./actor.ts";
import { staffApi } from "./admin-api.ts";
import { noContent } from "../../lib/json-api.ts";
import { apiTokenBody, setupBody, staffJson, staffLoginBody, staffSummary, staffUpdateBody, totpEnrolment } from "./contract.ts";
import { STAFF_DEVICE_COOKIE, staffDeviceCookies, staffSignInCookies, staffSignOutCookies } from "./cookies.ts";
import { ROLE_LABELS, ROLE_PERMISSIONS } from "./permissions.ts";
import type { StaffService } from "./service.ts";
import { type FilterPresets, PRESET_SCREENS, presetBody } from "./presets.ts";
import { type StaffSignIn, TooManyAttempts } from "./sign-in.ts";
import { staffDoor } from "./door.ts";

export interface StaffRouteOptions {
  staff: StaffService;
  presets: FilterPresets;
  signIn: StaffSignIn;
  secureCookies: boolean;
}

const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const errors = { 401: messageResponse, 403: messageResponse, 404: messageResponse, 409: messageResponse, 422: validationResponse };


export async function staffRoutes(app: FastifyInstance, options: StaffRouteOptions): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { staff, secureCookies } = options;
  const auth = ["admin: sign-in"];
  const people = ["admin: staff"];
  const authApi = staffApi(app, { tags: auth, errors });
  const peopleApi = staffApi(app, { tags: people, errors });

  r.post(
    "/admin/auth/login",
    {
      schema: {
        tags: auth,
        summary: "Signs a member of staff in; totp is needed once they have enrolled an authenticator (always in production)",
        body: staffLoginBody,
        response: { 200: z.object({ staff: staffSummary, token: z.string() }), 401: messageResponse, 422: validationResponse, 429: messageResponse },
      },
    },
    async (request, reply) => {
      try {
        const signedIn = await options.signIn.signIn(request.body, request.ip, request.cookies[STAFF_DEVICE_COOKIE]);
        reply.header("set-cookie", [...staffSignInCookies(signedIn.token, secureCookies), ...staffDeviceCookies(signedIn.device, secureCookies)]);
        request.log.info({ staffId: signedIn.staff.id }, "staff signed in");
        const { id, email, name, role } = signedIn.staff;
        return { staff: { id, email, name, role }, token: signedIn.token };
      } catch (error) {
        if (error instanceof TooManyAttempts) reply.header("retry-after", String(error.retryAfter));
        throw error;
      }
    },
  );

  r.post("/admin/auth/logout", { schema: { tags: auth, summary: "Ends this staff session", response: { 204: z.null() } } }, async (request, reply) => {
    const session = request.staffPrincipal?.sessionId;
    if (session) await staff.signOut(session);
    reply.header("set-cookie", staffSignOutCookies(secureCookies));
    return reply.code(204).send(null);
  });

  r.get(
    "/admin/auth/me",
    { schema: { tags: auth, summary: "The member of staff signed in, with what their role may do", response: { 200: z.object({ staff: staffJson, permissions: z.array(z.string()), via: z.string() }), 401: messageResponse } } },
    async (request) => {
      const actor = staffActorOf(request);
      const member = await staff.me(actor);
      // The role acting: an API token's own (its scope), with its label, not its creator's.
      return { staff: { ...member, role: actor.role, role_label: ROLE_LABELS[actor.role] }, permissions: [...ROLE_PERMISSIONS[actor.role]], via: actor.via };
    },
  );

  authApi.post(
    "/admin/auth/reauthenticate",
    { config: staffDoor("member", { sessionOnly: true }), summary: "Asks the password again: sensitive actions are allowed for 5 minutes after", body: z.object({ password: z.string().max(200) }), response: { 204: z.null() } },
    noContent((actor, request) => options.signIn.reauthenticate(actor, request.body.password)),
  );

  authApi.post("/admin/auth/totp", { config: staffDoor("member", { sessionOnly: true }), summary: "Starts enrolling an authenticator app: a secret and its QR code", response: { 200: totpEnrolment } }, async (actor) => staff.startTotp(actor));

  authApi.post(
    "/admin/auth/totp/confirm",
    { config: staffDoor("member", { sessionOnly: true }), summary: "Confirms the authenticator with a code; answers ten recovery codes, shown once", body: z.object({ code: z.string().max(20) }), response: { 200: z.object({ recovery_codes: z.array(z.string()) }) } },
    async (actor, request) => staff.confirmTotp(actor, request.body.code),
  );

  r.get(
    "/admin/setup/:token",
    { schema: { tags: auth, summary: "A set-up link: who it is for, and the authenticator to enrol", params: z.object({ token: z.string().max(100) }), response: { 200: z.object({ staff: staffJson, totp_required: z.boolean(), totp: totpEnrolment }), 404: messageResponse } } },
    async (request) => staff.setupDetails(request.params.token),
  );

  r.post(
    "/admin/setup/:token",
    {
      schema: {
        tags: auth,
        summary: "Completes a set-up link: a password, and an authenticator code (required in production); signs the member in",
        params: z.object({ token: z.string().max(100) }),
        body: setupBody,
        response: { 200: z.object({ staff: staffJson, recovery_codes: z.array(z.string()), token: z.string() }), 404: messageResponse, 422: validationResponse },
      },
    },
    async (request, reply) => {
      const done = await staff.completeSetup(request.params.token, request.body);
      reply.header("set-cookie", staffSignInCookies(done.token, secureCookies));
      return done;
    },
  );

  peopleApi.get("/admin/staff", { summary: "Every member of staff (owners)", response: { 200: z.object({ data: z.array(staffJson) }) } }, async (actor) => ({
    data: await staff.list(actor),
  }));

  peopleApi.post(
    "/admin/staff",
    {
      config: staffDoor("staff.manage", { sessionOnly: true }),
      summary: "Invites a member of staff: answers a one-time set-up link (24 hours). Needs the password within 5 minutes",
      body: z.object({ email: z.string(), name: z.string(), role: z.string() }),
      response: { 201: z.object({ staff: staffJson, setup_url: z.string(), expires_at: z.string() }) },
    },
    async (actor, request, reply) => reply.code(201).send(await staff.invite(actor, request.body)),
  );

  peopleApi.patch(
    "/admin/staff/:id",
    { config: staffDoor("staff.manage", { sessionOnly: true }), summary: "Changes a member's role or refund limit; the last owner stays an owner", params: idParams, body: staffUpdateBody, response: { 200: staffJson } },
    async (actor, request) => staff.update(actor, request.params.id, request.body),
  );

  peopleApi.delete("/admin/staff/:id", { config: staffDoor("staff.manage", { sessionOnly: true }), summary: "Removes a member of staff; never the last owner", params: idParams, response: { 200: staffJson } }, async (actor, request) => staff.remove(actor, request.params.id));

  peopleApi.post(
    "/admin/staff/:id/setup-link",
    { config: staffDoor("staff.manage", { sessionOnly: true }), summary: "A new set-up link (resets their authenticator)", params: idParams, response: { 200: z.object({ staff: staffJson, setup_url: z.string(), expires_at: z.string() }) } },
    async (actor, request) => staff.resendSetup(actor, request.params.id),
  );

  const tokenJson = z.object({ id: z.number().int(), name: z.string(), role: z.string(), role_label: z.string(), created_by: z.string(), created_at: z.string(), last_used_at: z.string().nullable(), revoked: z.boolean() });
  peopleApi.get("/admin/tokens", { summary: "Staff API tokens", response: { 200: z.object({ data: z.array(tokenJson) }) } }, async (actor) => ({
    data: await staff.tokens(actor),
  }));

  peopleApi.post(
    "/admin/tokens",
    { config: staffDoor("tokens.manage", { sessionOnly: true }), summary: "Creates a staff API token with a role; its value is shown in this answer only", body: apiTokenBody, response: { 201: z.object({ id: z.number().int(), name: z.string(), role: z.string(), token: z.string() }) } },
    async (actor, request, reply) => reply.code(201).send(await staff.createToken(actor, request.body)),
  );

  peopleApi.delete("/admin/tokens/:id", { config: staffDoor("tokens.manage", { sessionOnly: true }), summary: "Revokes a staff API token at once", params: idParams, response: { 200: z.object({ id: z.number().int(), revoked: z.boolean() }) } }, async (actor, request) => staff.revokeToken(actor, request.params.id));

  const preset = z.object({ id: z.number().int(), name: z.string(), query: z.string() });
  authApi.get(
    "/admin/presets",
    { summary: "Your saved filters for a list (orders, customers, audit)", querystring: z.object({ screen: z.enum(PRESET_SCREENS) }), response: { 200: z.object({ data: z.array(preset) }) } },
    async (actor, request) => ({ data: await options.presets.list(actor, request.query.screen) }),
  );
  authApi.post(
    "/admin/presets",
    { config: staffDoor("member"), summary: "Saves the list's filters under a name (the same name replaces them)", body: presetBody, response: { 201: preset } },
    async (actor, request, reply) => reply.code(201).send(await options.presets.save(actor, request.body)),
  );
  authApi.delete(
    "/admin/presets/:id",
    { config: staffDoor("member"), summary: "Deletes one of your saved filters", params: idParams, response: { 200: z.object({ id: z.number().int() }) } },
    async (actor, request) => options.presets.remove(actor, request.params.id),
  );
}

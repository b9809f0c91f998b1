import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { type CsrfTokens, clearSessionCookie, csrfSessionOf, setSessionCookie } from "../../plugins/auth.ts";
import { guestHashOf } from "../../plugins/guest.ts";
import type { LimiterStore } from "../../plugins/rate-limit.ts";
import {
  authResponse,
  loginBody,
  messageResponse,
  recoveryBody,
  recoveryTokenBody,
  registerBody,
  resetPasswordBody,
  successResponse,
  userJson,
  validationResponse,
} from "./contract.ts";
import { ACCOUNT_BLOCKED, type AuthService, INVALID_CREDENTIALS, RECOVERY_SENT, toUserJson } from "./service.ts";

export interface AuthRouteOptions {
  auth: AuthService;
  secureCookies: boolean;
  /** The storefront's CSRF tokens (plugins/auth.ts): each bound to the session it was issued for. */
  csrf: CsrfTokens;
  /** Where the rate limits count: memory, or Redis shared by every process (ADR 0026). */
  limits: LimiterStore;
  /** Run after every sign-in and registration, e.g. to merge a guest's baskets. */
  onSignedIn?: ((userId: number, guestHash: string | null) => Promise<void>)[];
}

/** Recovery answers take at least this long, known address or not, so timing tells nothing. */
const RECOVERY_MIN_MS = 250;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function authRoutes(app: FastifyInstance, options: AuthRouteOptions): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { auth, secureCookies, csrf } = options;
  // 5 failed sign-ins for one email from one address within a minute lock that pair for the rest of the minute.
  const loginFailures = options.limits.limiter({ name: "login", max: 5, windowMs: 60_000 });
  // Recovery emails: a few per address and per client in 15 minutes.
  const recoveryByEmail = options.limits.limiter({ name: "recovery-email", max: 3, windowMs: 15 * 60_000 });
  const recoveryByClient = options.limits.limiter({ name: "recovery-client", max: 10, windowMs: 15 * 60_000 });

  const tooMany = (seconds: number) => ({ message: `Too many attempts. Please try again in ${seconds} seconds.` });
  const tags = ["auth"];

  r.get("/sanctum/csrf-cookie", { schema: { tags, summary: "Sets the XSRF-TOKEN cookie", response: { 204: z.null() } } }, async (request, reply) => {
    csrf.issue(reply, csrfSessionOf(request));
    reply.header("cache-control", "no-store");
    return reply.code(204).send(null);
  });

  const signedInAnswer = async (request: FastifyRequest, reply: FastifyReply, issued: { token: string; maxAge: number; remember: boolean }, user: Parameters<typeof toUserJson>[0]) => {
    setSessionCookie(reply, issued.token, issued.remember, issued.maxAge, secureCookies, csrf);
    const guestHash = guestHashOf(request);
    for (const hook of options.onSignedIn ?? []) await hook(user.id, guestHash);
    request.log.info({ userId: user.id }, "signed in");
    return { user: toUserJson(user), token: issued.token, max_age: issued.maxAge };
  };

  r.post(
    "/api/auth/register",
    { schema: { tags, summary: "Creates an account and signs in", body: registerBody, response: { 201: authResponse, 422: validationResponse } } },
    async (request, reply) => {
      const { user, ...issued } = await auth.register(request.body);
      if (request.tokenId) await auth.signOut(request.tokenId);
      return reply.code(201).send(await signedInAnswer(request, reply, issued, user));
    },
  );

  r.post(
    "/api/auth/login",
    {
      schema: {
        tags,
        summary: "Signs in; max_age is the token lifetime in seconds (30 days with remember, 1 day without). 403 when the password is right but staff have blocked the account",
        body: loginBody,
        response: { 200: authResponse, 403: messageResponse, 422: validationResponse, 429: messageResponse },
      },
    },
    async (request, reply) => {
      const key = `${request.body.email}|${request.ip}`;
      // Counted before the password is checked, in one step, so concurrent guesses
      // (from any process) cannot all slip past the check; a success clears the count.
      const wait = await loginFailures.attempt(key);
      if (wait > 0) return reply.code(429).header("retry-after", String(wait)).send(tooMany(wait));
      const user = await auth.verifyCredentials(request.body.email, request.body.password);
      if (!user) return reply.code(422).send({ message: INVALID_CREDENTIALS, errors: { email: [INVALID_CREDENTIALS] } });
      await loginFailures.reset(key);
      // Only after the password matched: a guesser learns nothing new from the answer.
      if (user.blockedAt) return reply.code(403).send({ message: ACCOUNT_BLOCKED });
      const issued = await auth.signIn(user, request.body.remember, request.tokenId);
      return await signedInAnswer(request, reply, issued, user);
    },
  );

  r.post("/api/auth/logout", { schema: { tags, summary: "Revokes the token and clears the cookie", response: { 204: z.null() } } }, async (request, reply) => {
    if (request.tokenId) await auth.signOut(request.tokenId);
    clearSessionCookie(reply, secureCookies, csrf);
    return reply.code(204).send(null);
  });

  r.get(
    "/api/user",
    { schema: { tags, summary: "The signed-in user; 204 with no body when signed out", response: { 200: userJson, 204: z.null() } } },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      if (!request.user) return reply.code(204).send(null);
      return toUserJson(request.user);
    },
  );

  r.post(
    "/api/auth/recovery",
    {
      schema: {
        tags,
        summary: "Emails a password reset link; the same answer whether or not the address has an account",
        body: recoveryBody,
        response: { 200: successResponse, 429: messageResponse },
      },
    },
    async (request, reply) => {
      const started = Date.now();
      // Each counted in one step with its check. A client already over its limit
      // spends nothing of the address's; a request refused for the address still counts for the client.
      const byClient = await recoveryByClient.attempt(request.ip);
      const byEmail = byClient > 0 ? await recoveryByEmail.retryAfter(request.body.email) : await recoveryByEmail.attempt(request.body.email);
      const wait = Math.max(byEmail, byClient);
      if (wait > 0) return reply.code(429).header("retry-after", String(wait)).send(tooMany(wait));
      await auth.requestRecovery(request.body.email);
      await sleep(Math.max(0, RECOVERY_MIN_MS - (Date.now() - started)));
      return { success: true as const, message: RECOVERY_SENT };
    },
  );

  r.post(
    "/api/auth/recovery/token",
    { schema: { tags, summary: "Checks a password reset link", body: recoveryTokenBody, response: { 200: successResponse, 422: validationResponse } } },
    async (request) => {
      await auth.checkRecoveryToken(request.body.email, request.body.token);
      return { success: true as const };
    },
  );

  r.post(
    "/api/auth/reset-password",
    {
      schema: {
        tags,
        summary: "Sets a new password with a reset link; signs the user out everywhere",
        body: resetPasswordBody,
        response: { 200: successResponse, 422: validationResponse },
      },
    },
    async (request) => {
      await auth.resetPassword(request.body.email, request.body.token, request.body.password);
      return { success: true as const };
    },
  );
}

import type { FastifyInstance } from "fastify";
import type { RedirectMatcher } from "../modules/redirects/service.ts";

export { type RedirectRule, loadRedirectRules, parseRedirectRules, resolveRedirect } from "../modules/redirects/rules.ts";

/** Route rules answered before any routing (issue 29): the database's rules, held in memory by the matcher. */
export function registerRedirects(app: FastifyInstance, matcher: RedirectMatcher): void {
  app.addHook("onRequest", async (request, reply) => {
    if (request.method !== "GET" && request.method !== "HEAD") return;
    const hit = matcher.resolve(request.url);
    if (hit) return reply.redirect(hit.location, hit.status);
  });
}

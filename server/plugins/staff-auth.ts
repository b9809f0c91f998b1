import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Db } from "../db/client.ts";
import { isOwnOrigin } from "../lib/own-origin.ts";
import { sameSecret } from "../lib/same-secret.ts";
import type { StaffActor } from "../modules/staff/actor.ts";
import { refusedAtDoor } from "../modules/staff/door.ts";
import { ADMIN_COOKIE, ADMIN_CSRF_COOKIE, ADMIN_CSRF_HEADER, adminCsrfValid, isAdminPath, staffSignOutCookies } from "../modules/staff/cookies.ts";
import { type StaffPrincipal, actorOf, resolveStaffApiToken, resolveStaffSession } from "../modules/staff/sessions.ts";

declare module "fastify" {
  interface FastifyRequest {
    /** The member of staff (or staff API token) behind a back-office request; null elsewhere and for anyone else. */
    staffPrincipal: StaffPrincipal | null;
    /** That principal as the API's actor (`via: api` or `token`); the screens make theirs with `via: screen`. */
    staffActor: StaffActor | null;
  }
}

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== "string" || !header.startsWith("Bearer ")) return null;
  return header.slice(7).trim() || null;
}

/** A browser's write from this site: Origin (or Sec-Fetch-Site) says so, or says nothing. */
function fromThisSite(request: FastifyRequest, publicOrigin: string): boolean {
  const site = request.headers["sec-fetch-site"];
  if (typeof site === "string" && site !== "same-origin" && site !== "none") return false;
  const origin = request.headers.origin;
  return !origin || isOwnOrigin(request, origin, publicOrigin);
}

/** The back office's API operations open to anyone: sign-in, sign-out, and an invitation's set-up link (its token is the credential). */
const OPEN_ADMIN_API = /^\/api\/admin\/(auth\/login|auth\/logout|setup\/[^/]+)$/;

/**
 * The back office's door (ADR 0029): on `/admin` and `/api/admin` only, reads
 * the staff session (cookie `tc_admin`, or a bearer session or API token on the
 * API), refuses cross-site writes (the admin CSRF token for cookie-borne API
 * writes, the Origin for the screens' form posts), and marks every answer
 * no-store. The storefront's session is never read as staff, nor staff's as a customer's.
 */
export function registerStaffAuth(app: FastifyInstance, options: { db: Db; secureCookies: boolean; publicOrigin: string }): void {
  app.decorateRequest("staffPrincipal", null);
  app.decorateRequest("staffActor", null);

  app.addHook("onSend", async (request, reply) => {
    if (isAdminPath(request.url)) reply.header("cache-control", "no-store");
  });

  // Every back-office write says at its door who may come in (modules/staff/door.ts); one that does not is a mistake caught at start.
  app.addHook("onRoute", (route) => {
    const methods = [route.method].flat();
    if (!route.url.startsWith("/api/admin/") || OPEN_ADMIN_API.test(route.url) || !methods.some((m) => UNSAFE.has(m))) return;
    if (!route.config?.staffDoor) throw new Error(`${methods.join(",")} ${route.url} declares no staffDoor: add config: staffDoor(…) to its options.`);
  });

  app.addHook("onRequest", async (request, reply) => {
    if (!isAdminPath(request.url)) return;
    const isApi = request.url.startsWith("/api/");
    const fromHeader = isApi ? bearer(request) : null;
    const fromCookie = request.cookies[ADMIN_COOKIE];
    if (fromHeader) {
      request.staffPrincipal = (await resolveStaffApiToken(options.db, fromHeader)) ?? (await resolveStaffSession(options.db, fromHeader));
    } else if (fromCookie) {
      request.staffPrincipal = await resolveStaffSession(options.db, fromCookie);
      // Ended (idle, 8 hours, removed): forget it in this browser.
      if (!request.staffPrincipal) reply.header("set-cookie", staffSignOutCookies(options.secureCookies));
    }
    if (request.staffPrincipal) request.staffActor = actorOf(request.staffPrincipal, "api");
    // Who before what: an API request without a staff credential is refused here, before its body is read or
    // checked, so a guest learns nothing of an operation's fields from its 422 (issue 33). Signing in and out,
    // and a set-up link, are the API's only doors open to anyone.
    if (isApi && !request.staffActor && !OPEN_ADMIN_API.test(request.url.split("?")[0]!)) return reply.code(401).send({ message: "Sign in to the back office." });
    // And a member whose role (or a token where only a session will do) may not pass the write's door is refused here too.
    const door = request.routeOptions.config.staffDoor;
    const refused = door && request.staffActor ? refusedAtDoor(door, request.staffActor) : null;
    if (refused) return reply.code(403).send({ message: refused });

    if (!UNSAFE.has(request.method)) return;
    if (!fromThisSite(request, options.publicOrigin)) return reply.code(403).send({ message: "Cross-site requests are not allowed here." });
    // A bearer client sends no cookies for a page to abuse; a cookie-borne API write echoes the CSRF token.
    if (!isApi || (fromHeader && !fromCookie) || !fromCookie) return;
    const cookie = request.cookies[ADMIN_CSRF_COOKIE];
    const header = request.headers[ADMIN_CSRF_HEADER];
    if (!cookie || typeof header !== "string" || !sameSecret(cookie, header) || !adminCsrfValid(header, fromCookie)) return reply.code(419).send({ message: "CSRF token mismatch." });
  });
}

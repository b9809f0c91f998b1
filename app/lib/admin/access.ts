import { redirect } from "react-router";
import type { StaffActor } from "../../../server/modules/staff/actor.ts";
import { type Permission, can } from "../../../server/modules/staff/permissions.ts";
import { pagePath } from "../access.ts";
import { safeRedirect } from "../safe-redirect.ts";

/** The back office's sign-in page, bringing the member back to where they were going. */
export function adminLoginUrlFor(url: URL): string {
  return `/admin/login?${new URLSearchParams({ redirect: pagePath(url) })}`;
}

/** Staff only: anyone else is sent to the back office's sign-in. */
export function requireStaff(staff: StaffActor | null, request: Request): StaffActor {
  if (!staff) throw redirect(adminLoginUrlFor(new URL(request.url)));
  return staff;
}

/**
 * A screen's own permission, checked in its loader and again in its action
 * (a loader's guard does not stop a direct POST): a member whose role lacks it
 * gets a 403 page, never the data.
 */
export function requirePermission(staff: StaffActor | null, request: Request, permission: Permission): StaffActor {
  const actor = requireStaff(staff, request);
  if (!can(actor.role, permission)) throw new Response("Your role does not allow this page.", { status: 403, statusText: "Forbidden" });
  return actor;
}

/** Where to go after signing in: a back-office path only. */
export function adminRedirect(target: string | null): string {
  const safe = safeRedirect(target, "/admin");
  return safe === "/admin" || safe.startsWith("/admin/") || safe.startsWith("/admin?") ? safe : "/admin";
}

/** A form post from another site is refused (the session cookie is SameSite=Strict too). */
export function requireSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  if (origin && origin !== new URL(request.url).origin) throw new Response("Forbidden", { status: 403 });
}

/** The status and message of what a service threw, for a screen's own answer. */
export function serviceError(error: unknown): { status: number; message: string; errors?: Record<string, string[]> } | null {
  const e = error as { statusCode?: number; message?: string; errors?: Record<string, string[]> };
  if (typeof e?.statusCode !== "number" || e.statusCode >= 500) return null;
  return { status: e.statusCode, message: e.message ?? "", ...(e.errors ? { errors: e.errors } : {}) };
}

/** A record's number from the address (`/admin/customers/12`); anything else is the screen's Not Found, saying `missing`. */
export function idParam(param: string, missing: string): number {
  if (!/^\d{1,9}$/.test(param)) throw new Response(missing, { status: 404, statusText: "Not Found" });
  return Number(param);
}

/**
 * What a service refused as sent (422: a bad filter, an old page link), for
 * the screen to show beside what was typed: its message, its field errors,
 * and `text`, every field's error in one line (else the message). Anything
 * else is thrown as it was.
 */
export function refusalOr(error: unknown): { message: string; errors: Record<string, string[]>; text: string } {
  const known = serviceError(error);
  if (!known || known.status !== 422) throw error;
  const errors = known.errors ?? {};
  return { message: known.message, errors, text: Object.values(errors).flat().join(" ") || known.message };
}

/** A service's 404 as the screen's own Not Found page; anything else thrown as it was. */
export function notFoundOr(error: unknown): never {
  const known = serviceError(error);
  if (known?.status === 404) throw new Response(known.message, { status: 404, statusText: "Not Found" });
  throw error;
}

import type { FastifyInstance } from "fastify";
import { DEMO_STAFF } from "../db/seed/index.ts";
import type { StaffRole } from "../modules/staff/permissions.ts";
import { TestBrowser } from "./browser.ts";

/**
 * A browser signed in as each demo staff role, and a guest's, each from the
 * next address `address()` gives: a test file's own range, so the sign-in
 * limits by address are its own, and its counter runs on for later browsers.
 */
export async function staffBrowsers(app: FastifyInstance, address: () => string): Promise<Record<StaffRole | "guest", TestBrowser>> {
  const as = {} as Record<StaffRole | "guest", TestBrowser>;
  for (const member of DEMO_STAFF) {
    const b = new TestBrowser(app, address());
    await b.staffSignIn(member.email, "demo-password-2026");
    as[member.role] = b;
  }
  as.guest = new TestBrowser(app, address());
  return as;
}

import type { FastifyInstance } from "fastify";
import { beforeAll } from "vitest";
import { DEMO_STAFF } from "../db/seed/index.ts";
import type { StaffRole } from "../modules/staff/permissions.ts";
import { type TestShop, type TestShopForFile, testShopForFile } from "./app.ts";
import { TestBrowser } from "./browser.ts";

/**
 * A browser signed in as each demo staff role, and a guest's, each from the
 * next address `address()` gives: a test file's own range, so the sign-in
 * limits by address are its own, and its counter runs on for later browsers.
 */
export async function staffBrowsers(app: FastifyInstance, address: () => string): Promise<Record<StaffRole | "guest", TestBrowser>> {
  const as = {} as Record<StaffRole | "guest", TestBrowser>;
  for (const member of DEMO_STAFF) as[member.role] = await staffBrowser(app, address(), member.email);
  as.guest = new TestBrowser(app, address());
  return as;
}

/** A browser from `address` signed in as the demo member of staff with this email. */
export async function staffBrowser(app: FastifyInstance, address: string, email: string): Promise<TestBrowser> {
  const b = new TestBrowser(app, address);
  await b.staffSignIn(email, "demo-password-2026");
  return b;
}

/** A test file's shop with its staff browsers: `as` is filled in before the file's tests, `shop()` once made. */
export interface StaffTestShop<Extra extends string> {
  shop(): TestShop;
  as: Record<StaffRole | "guest" | Extra, TestBrowser>;
  /** The next address of the file's range, for another browser. */
  address(): string;
}

/**
 * The usual start of an API test file: testShopForFile's shop, and a browser
 * per staff role (and a guest's) from the file's own address range
 * (`"198.51.105"`). A file that needs more (a customer's browser, services)
 * adds its own beforeAll: it runs after this one. `Extra` names the browsers
 * it adds to `as`.
 */
export function staffTestShop<Extra extends string = never>(range: string, options: TestShopForFile = {}): StaffTestShop<Extra> {
  let ip = 1;
  const file: StaffTestShop<Extra> = {
    shop: testShopForFile(options),
    as: {} as Record<StaffRole | "guest" | Extra, TestBrowser>,
    address: () => `${range}.${ip++}`,
  };
  beforeAll(async () => {
    Object.assign(file.as, await staffBrowsers(file.shop().app, file.address));
  }, options.timeout ?? 120_000);
  return file;
}

/**
 * A shop of its own for a test file or a describe block, and a browser signed
 * in as each named demo member of staff (`{desk: "hire@staff.example.com"}`),
 * the n-th from `${range}.n`: made before its tests, the shop closed after.
 */
export function shopWithStaff<Name extends string>(range: string, members: Record<Name, string>, options: TestShopForFile = {}): { shop(): TestShop; as: Record<Name, TestBrowser> } {
  const shop = testShopForFile(options);
  const as = {} as Record<Name, TestBrowser>;
  beforeAll(async () => {
    let n = 0;
    for (const [name, email] of Object.entries(members) as [Name, string][]) as[name] = await staffBrowser(shop().app, `${range}.${(n += 1)}`, email);
  }, options.timeout ?? 120_000);
  return { shop, as };
}

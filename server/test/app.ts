import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll } from "vitest";
import { type Config, loadConfig } from "../config.ts";
import { type BuildAppOptions, buildApp } from "../app.ts";
import { createServices } from "../services.ts";
import { type TestDatabase, createTestDatabase } from "./database.ts";

export interface TestShop {
  app: FastifyInstance;
  database: TestDatabase;
  config: Config;
  close(): Promise<void>;
}

/** The API on a fresh, seeded test database, driven through `app.inject`. */
export async function createTestShop(
  env: Record<string, string> = {},
  options: {
    beforeReady?: (app: FastifyInstance) => void;
    now?: () => number;
    /** The built storefront (`node scripts/ensure-build.ts`) for tests of pages; the API alone by default. */
    storefront?: BuildAppOptions["storefront"];
    pageCache?: BuildAppOptions["pageCache"];
    /** With REDIS_URL in env: the run's own prefix for the rate limits' keys. */
    rateLimitPrefix?: string;
    /** Card payments' gateway (server/test/payments.ts: the real Stripe SDK against a fake on loopback). */
    paymentGateway?: BuildAppOptions["paymentGateway"];
  } = {},
): Promise<TestShop> {
  const database = await createTestDatabase({ seeded: true });
  const dataDir = mkdtempSync(path.join(tmpdir(), "tc-test-"));
  const config = loadConfig({ NODE_ENV: "test", COOKIE_SECRET: "x".repeat(32), DATA_DIR: dataDir, ...env });
  const app = await buildApp({ config, database, storefront: options.storefront ?? { mode: "none" }, pageCache: options.pageCache, logger: false, now: options.now, rateLimitPrefix: options.rateLimitPrefix, paymentGateway: options.paymentGateway });
  options.beforeReady?.(app);
  await app.ready();
  return {
    app,
    database,
    config,
    async close() {
      await app.close();
      await database.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface TestShopForFile {
  env?: Record<string, string>;
  shop?: Parameters<typeof createTestShop>[1];
  /** For beforeAll: a shop with the built storefront takes longer. */
  timeout?: number;
}

/**
 * The usual start of a test file: a fresh shop made before its tests and
 * closed after them; `shop()` gives it once made. A file that needs more set-up
 * adds its own beforeAll after this call: it runs after this one.
 */
export function testShopForFile(options: TestShopForFile = {}): () => TestShop {
  let made: TestShop | undefined;
  beforeAll(async () => {
    made = await createTestShop(options.env, options.shop);
  }, options.timeout ?? 120_000);
  afterAll(() => made?.close());
  return () => {
    if (!made) throw new Error("The test shop is made in beforeAll.");
    return made;
  };
}

/** A log that says nothing, for what a test makes itself. */
export const quietLog = { info() {}, warn() {}, error() {} };

/** The shop's services on its own database and config, as the app makes them, logging nothing; `extras` as createServices takes them. */
export function servicesOf(shop: TestShop, extras?: Parameters<typeof createServices>[4]): ReturnType<typeof createServices> {
  return createServices(shop.database.db, shop.config, quietLog, undefined, extras);
}

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, expect } from "vitest";
import { type Config, loadConfig } from "../config.ts";
import { type BuildAppOptions, buildApp } from "../app.ts";
import { createServices } from "../services.ts";
import type { StaffActor } from "../modules/staff/actor.ts";
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
  const config = testConfig(dataDir, env);
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

/** The configuration a test's app runs with: its files in `dataDir`, `env` over the test defaults. */
export function testConfig(dataDir: string, env: Record<string, string> = {}): Config {
  return loadConfig({ NODE_ENV: "test", COOKIE_SECRET: "x".repeat(32), DATA_DIR: dataDir, ...env });
}

/**
 * The start of a test file that builds its own apps or services: a fresh
 * database (`seeded` with the demo shop when asked) and an empty folder named
 * from `dirPrefix`, made before its tests and removed after them. Read them
 * once that beforeAll has run.
 */
export function testDatabaseForFile(options: { seeded: boolean; dirPrefix: string }) {
  let database: TestDatabase | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    database = await createTestDatabase({ seeded: options.seeded });
    dir = mkdtempSync(path.join(tmpdir(), options.dirPrefix));
  }, 120_000);
  afterAll(async () => {
    await database?.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return {
    get database(): TestDatabase {
      if (!database) throw new Error("The test database is made in beforeAll.");
      return database;
    },
    get dir(): string {
      if (!dir) throw new Error("The test folder is made in beforeAll.");
      return dir;
    },
  };
}

/**
 * Processes of one shop on the file's database (testDatabaseForFile): each
 * call builds and readies another app with its own `env`, as another process
 * would; all are closed after the file's tests, before the database goes.
 */
export function shopProcesses(own: { database: TestDatabase; dir: string }, shared: { rateLimitPrefix?: string } = {}) {
  const apps: FastifyInstance[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });
  return async (env: Record<string, string> = {}): Promise<FastifyInstance> => {
    const app = await buildApp({ config: testConfig(own.dir, env), database: own.database, storefront: { mode: "none" }, logger: false, rateLimitPrefix: shared.rateLimitPrefix });
    await app.ready();
    apps.push(app);
    return app;
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

/**
 * The shop's services (servicesOf) and their system actor, made in a
 * beforeAll after the shop's: for a test file that acts as staff through the
 * services, as the shop CLI does. Read them once that beforeAll has run.
 */
export function servicesForFile(shop: () => TestShop) {
  let made: { services: ReturnType<typeof createServices>; system: StaffActor } | undefined;
  beforeAll(async () => {
    const services = servicesOf(shop());
    made = { services, system: await services.staff.systemActor() };
  }, 120_000);
  const ready = () => {
    if (!made) throw new Error("The services are made in beforeAll.");
    return made;
  };
  return {
    get services() {
      return ready().services;
    },
    get system() {
      return ready().system;
    },
  };
}

/** A shop of its own with `env` switching a feature off: each of `routes` ("METHOD /path") answers 404 there, whatever it is sent. */
export async function expectNotFoundWith(env: Record<string, string>, routes: readonly `${"GET" | "POST" | "PUT" | "DELETE"} /${string}`[]): Promise<void> {
  const off = await createTestShop(env);
  try {
    for (const route of routes) {
      const [method, url] = route.split(" ") as ["GET" | "POST" | "PUT" | "DELETE", string];
      expect((await off.app.inject({ method, url, payload: method === "GET" ? undefined : {} })).statusCode, route).toBe(404);
    }
  } finally {
    await off.close();
  }
}

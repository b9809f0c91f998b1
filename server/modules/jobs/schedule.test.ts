// The shop's scheduled jobs (issue 21, ADR 0038): the list itself, each job's
// work run once against a demo shop, and the app starting and closing its
// runner when asked to (tests build the app with it off).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, projectRoot } from "../../app.ts";
import { loadConfig } from "../../config.ts";
import { type TestShop, createTestShop, servicesOf } from "../../test/app.ts";
import { createTestDatabase } from "../../test/database.ts";
import { createNightlyBackup } from "../backups/nightly.ts";
import { createCatalogueCsv } from "../catalog/csv/jobs.ts";
import { checkJobName, checkSchedule } from "./runner.ts";
import { SCHEDULED_JOBS } from "./schedule.ts";

const rowsOf = (result: unknown) => (result as { rows?: unknown[] }).rows ?? (result as unknown[]);

describe("the list of scheduled jobs", () => {
  it("names each job once, in a queue's characters, with a schedule and a line for docs/operations.md", () => {
    const names = SCHEDULED_JOBS.map((job) => job.name);
    expect(new Set(names).size).toBe(names.length);
    for (const job of SCHEDULED_JOBS) {
      expect(() => checkJobName(job.name)).not.toThrow();
      expect(() => checkSchedule(job.name, job.schedule)).not.toThrow();
      expect(job.description.length).toBeGreaterThan(10);
    }
  });

  it("has a row in docs/operations.md's Scheduled jobs for each job, and none for a job not in the list", () => {
    const page = readFileSync(path.join(projectRoot, "docs/operations.md"), "utf8");
    const start = page.indexOf("## Scheduled jobs");
    expect(start).toBeGreaterThan(-1);
    const section = page.slice(start, page.indexOf("\n## ", start + 1));
    const rows = [...section.matchAll(/^\| `([a-z0-9.-]+)` \|/gm)].map((m) => m[1]);
    expect(rows.sort()).toEqual(SCHEDULED_JOBS.map((job) => job.name).sort());
  });

  it("keeps the sweeps' old intervals: every 10 minutes, the import files hourly", () => {
    const every = Object.fromEntries(SCHEDULED_JOBS.map((job) => [job.name, job.schedule]));
    expect(every).toMatchObject({
      "hire.lapse-holds": { everySeconds: 600 },
      "auth.prune-tokens": { everySeconds: 600 },
      "staff.prune-sessions": { everySeconds: 600 },
      "payments.sweep": { everySeconds: 600 },
      "catalog.sweep-imports": { everySeconds: 3600 },
    });
  });
});

describe("each job's work on the demo shop", () => {
  let shop: TestShop;
  beforeAll(async () => {
    shop = await createTestShop();
  }, 120_000);
  afterAll(() => shop?.close());

  it("runs without an error", { timeout: 120_000 }, async () => {
    const services = servicesOf(shop);
    const csv = createCatalogueCsv(shop.database.db, { dataDir: shop.config.dataDir, sharedProgress: false });
    // A job that throws fails the test, named.
    const backups = createNightlyBackup({ config: { ...shop.config, databaseUrl: shop.database.url }, database: shop.database, mail: services.mail });
    for (const job of SCHEDULED_JOBS) await job.run({ services, db: shop.database.db, csv, backups }, { id: job.name, attempt: 1, scheduledFor: null });
  });
});

describe("the app's runner", () => {
  /** Builds the app on a fresh database, readies it, reads whether pg-boss's table is there (PostgreSQL), closes it. */
  async function pgBossTableAfterReady(jobs: boolean | undefined): Promise<unknown> {
    const database = await createTestDatabase();
    const dataDir = mkdtempSync(path.join(tmpdir(), "tc-jobs-"));
    try {
      const config = loadConfig({ NODE_ENV: "test", COOKIE_SECRET: "x".repeat(32), DATA_DIR: dataDir });
      const app = await buildApp({ config, database, storefront: { mode: "none" }, logger: false, jobs });
      await app.ready();
      const table = database.kind === "postgres" ? rowsOf(await database.db.execute(sql`select to_regclass('pgboss.job')::text as t`)) : null;
      await app.close();
      return table;
    } finally {
      await database.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }

  it("starts when the app is ready and stops when it closes, with jobs on", async () => {
    const table = await pgBossTableAfterReady(true);
    // On PostgreSQL, pg-boss has made its tables on start.
    if (table) expect(table).toEqual([{ t: "pgboss.job" }]);
  }, 60_000);

  it("is left off by default under NODE_ENV=test", async () => {
    const table = await pgBossTableAfterReady(undefined);
    if (table) expect(table).toEqual([{ t: null }]);
  }, 60_000);
});

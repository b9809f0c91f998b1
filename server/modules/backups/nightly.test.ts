// The nightly backup as the shop runs it: the real job from SCHEDULED_JOBS on
// the in-process job runner (its retry delays skipped, nothing else), against
// the demo shop. A night that succeeds leaves a backup and prunes by the
// retention; a night whose every attempt fails shows on the dashboard's
// background jobs panel and emails each owner through the outbox.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_STAFF } from "../../db/seed/index.ts";
import { createTestShop, quietLog, servicesOf, type TestShop } from "../../test/app.ts";
import { until } from "../../test/until.ts";
import { createCatalogueCsv } from "../catalog/csv/jobs.ts";
import { failingJobs } from "../dashboard/service.ts";
import { createInProcessRunner } from "../jobs/in-process.ts";
import { SCHEDULED_JOBS, scheduleJobs } from "../jobs/schedule.ts";
import { mailOutbox } from "../mail/schema.ts";
import { backupName, listBackups } from "./files.ts";
import { createNightlyBackup } from "./nightly.ts";

let shop: TestShop;
let scratch: string;

beforeAll(async () => {
  shop = await createTestShop();
  scratch = mkdtempSync(path.join(tmpdir(), "tc-nightly-"));
}, 120_000);
afterAll(async () => {
  await shop?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** The nightly job alone on an in-process runner, its backups into `backupDir`; the runner started. */
async function nightlyOn(backupDir: string) {
  const services = servicesOf(shop);
  const backups = createNightlyBackup({ config: { ...shop.config, databaseUrl: shop.database.url, backupDir }, database: shop.database, mail: services.mail });
  const runner = createInProcessRunner({ log: quietLog, wait: async () => {} });
  const job = SCHEDULED_JOBS.find((j) => j.name === "backups.nightly")!;
  scheduleJobs(runner, [job], { services, db: shop.database.db, csv: createCatalogueCsv(shop.database.db, { dataDir: shop.config.dataDir, sharedProgress: false }), backups });
  await runner.start();
  return { runner, backups };
}

describe("the nightly backup", () => {
  it("is scheduled at night, London time", () => {
    expect(SCHEDULED_JOBS.find((j) => j.name === "backups.nightly")?.schedule).toEqual({ cron: "30 2 * * *" });
  });

  it("takes a backup and keeps 7 daily and 4 weekly", async () => {
    const backupDir = path.join(scratch, "ok");
    mkdirSync(backupDir);
    // Sixty nights of older backups (files by their names only: retention reads names).
    const old = Array.from({ length: 60 }, (_, i) => backupName(new Date(Date.UTC(2025, 0, 1 + i, 2, 30))));
    for (const name of old) writeFileSync(path.join(backupDir, name), "x");
    const { backups } = await nightlyOn(backupDir);
    const done = await backups.run({ attempt: 1 });
    expect(path.dirname(done.file)).toBe(backupDir);
    const kept = await listBackups(backupDir);
    // Days: tonight's and 24 February to 1 March 2025. Weeks (from Monday): tonight's, the week of 1 March (a daily
    // already), and the Sundays 23 and 16 February.
    const day = (d: number, m = 2) => backupName(new Date(Date.UTC(2025, m - 1, d, 2, 30)));
    expect(kept.map((b) => b.name)).toEqual([path.basename(done.file), day(1, 3), day(28), day(27), day(26), day(25), day(24), day(23), day(16)]);
    expect(done.pruned).toHaveLength(60 - 8);
  }, 120_000);

  it("when every attempt fails: the failure is on the dashboard's background jobs panel, and each owner is emailed once", async () => {
    // A file where the folder should be: every attempt fails to make it.
    const backupDir = path.join(scratch, "not-a-folder");
    writeFileSync(backupDir, "x");
    const { runner } = await nightlyOn(backupDir);
    try {
      await runner.enqueue("backups.nightly");
      const failed = await until(async () => (await runner.failures()).find((f) => f.name === "backups.nightly"), { what: "the nightly backup's failure" });
      expect(failed.attempts).toBe(3);
      expect(failingJobs(await runner.failures())).toEqual([expect.objectContaining({ name: "backups.nightly", failures: 1 })]);
    } finally {
      await runner.stop();
    }
    const owners = DEMO_STAFF.filter((m) => m.role === "owner").map((m) => m.email);
    const mails = await shop.database.db.select().from(mailOutbox).where(eq(mailOutbox.subject, `${shop.config.appName}: last night's backup failed`));
    expect(mails.map((m) => m.to).sort()).toEqual(owners.sort());
    expect(mails[0]!.text).toContain(backupDir);
  }, 120_000);
});

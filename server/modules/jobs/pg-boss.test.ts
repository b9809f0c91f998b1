// The pg-boss runner on PostgreSQL (issue 21, ADR 0038): two runners, each on
// a pool of its own (two shop processes), share one database's queue.
// TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx --no-install vitest run server/modules/jobs/pg-boss.test.ts
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Database, openPostgres } from "../../db/client.ts";
import { type TestDatabase, createTestDatabase } from "../../test/database.ts";
import { createPgBossRunner, poolOf } from "./pg-boss.ts";
import type { JobContext, JobLog, JobRunner } from "./runner.ts";
import { until } from "../../test/until.ts";

const quietLog = () => ({ info: vi.fn(), warn: vi.fn(), error: vi.fn() }) satisfies JobLog;

describe.skipIf(!process.env.TEST_DATABASE_URL)("the pg-boss job runner, two processes on one database (PostgreSQL)", () => {
  let database: TestDatabase;
  const processes: Database[] = [];
  const runners: JobRunner[] = [];

  /** A runner on a pool of its own, as a second shop process would have; polling quickly. */
  async function runnerOf(log: JobLog = quietLog()): Promise<JobRunner> {
    const own = await openPostgres(database.url!, { max: 4 });
    processes.push(own);
    const runner = createPgBossRunner({ pool: poolOf(own.db), log, pollingIntervalSeconds: 0.5, stopTimeoutMs: 2_000 });
    runners.push(runner);
    return runner;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
  }, 60_000);

  afterAll(async () => {
    for (const runner of runners) await runner.stop();
    for (const own of processes) await own.close();
    await database?.destroy();
  }, 60_000);

  it("runs a job scheduled in both processes exactly once per tick", async () => {
    const runs: { process: string; context: JobContext }[] = [];
    const [a, b] = [await runnerOf(), await runnerOf()];
    for (const [label, runner] of [["a", a], ["b", b]] as const) {
      runner.schedule("test.tick", { everySeconds: 2 }, async (_data, context) => void runs.push({ process: label, context }));
    }
    await Promise.all([a.start(), b.start()]);
    const slots = () => new Set(runs.map((r) => r.context.scheduledFor?.toISOString()));
    await until(() => slots().size >= 4);
    await Promise.all([a.stop(), b.stop()]);

    // Every tick ran once: as many runs as ticks, one job each, each on its 2-second slot.
    expect(runs.length).toBe(slots().size);
    expect(new Set(runs.map((r) => r.context.id)).size).toBe(runs.length);
    for (const run of runs) {
      expect(run.context.attempt).toBe(1);
      expect(run.context.scheduledFor!.getTime() % 2_000).toBe(0);
    }
    // Both processes sent for every slot; the database let one job per slot in.
    const { rows } = await poolOf(database.db).query<{ slots: number; jobs: number }>(
      `select count(distinct singleton_on)::int as slots, count(*)::int as jobs from pgboss.job where name = 'test.tick'`,
    );
    expect(rows[0]!.jobs).toBe(rows[0]!.slots);
  }, 60_000);

  it("counts the jobs waiting or running per job, the same from either process", async () => {
    const [a, b] = [await runnerOf(), await runnerOf()];
    const release: (() => void)[] = [];
    for (const runner of [a, b]) {
      runner.define("test.queued", async () => new Promise<void>((resolve) => release.push(resolve)));
      runner.define("test.quiet", async () => {});
    }
    expect(Object.fromEntries(await a.queued())).toEqual({ "test.queued": 0, "test.quiet": 0 });
    await Promise.all([a.start(), b.start()]);
    for (let i = 0; i < 3; i++) await a.enqueue("test.queued");
    expect((await b.queued()).get("test.queued")).toBe(3);
    await until(() => release.length > 0, { what: "a run started" });
    for (;;) {
      const waiting = release.splice(0);
      for (const done of waiting) done();
      if ((await a.queued()).get("test.queued") === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(Object.fromEntries(await b.queued())).toEqual({ "test.queued": 0, "test.quiet": 0 });
    await Promise.all([a.stop(), b.stop()]);
  }, 60_000);

  it("retries a failing job with backoff, then shows it in either process's failures and logs it", async () => {
    const log = quietLog();
    const [a, b] = [await runnerOf(log), await runnerOf(log)];
    const attempts: JobContext[] = [];
    for (const runner of [a, b]) {
      runner.define(
        "test.fails",
        async (_data, context) => {
          attempts.push(context);
          throw new Error("the SMTP server said no");
        },
        { retry: { limit: 1, delaySeconds: 1, delayMaxSeconds: 2 } },
      );
    }
    await Promise.all([a.start(), b.start()]);
    expect(await a.failures()).toEqual([]);
    await a.enqueue("test.fails", { invoice: 12 });
    await until(async () => (await b.failures()).length > 0);

    // One job, two attempts (the first and its one retry), and the same failure seen from both processes.
    expect(attempts.map((c) => c.attempt)).toEqual([1, 2]);
    expect(new Set(attempts.map((c) => c.id)).size).toBe(1);
    const failures = await b.failures();
    expect(failures).toEqual([expect.objectContaining({ name: "test.fails", id: attempts[0]!.id, error: "the SMTP server said no", attempts: 2 })]);
    expect(await a.failures()).toEqual(failures);
    expect(log.warn).toHaveBeenCalledWith(expect.objectContaining({ job: "test.fails", attempt: 1 }), expect.stringContaining("retries"));
    expect(log.error).toHaveBeenCalledWith(expect.objectContaining({ job: "test.fails", attempts: 2 }), expect.stringContaining("retries exhausted"));
    // The retry waited for pg-boss's backoff: it started no sooner than a second after the first attempt failed.
    const { rows } = await poolOf(database.db).query<{ retry_delay: number; retry_backoff: boolean }>(`select retry_delay, retry_backoff from pgboss.job where name = 'test.fails'`);
    expect(rows).toEqual([{ retry_delay: 1, retry_backoff: true }]);
    await Promise.all([a.stop(), b.stop()]);
  }, 60_000);

  it("keeps one cron schedule in Europe/London however many processes declare it, and drops a schedule no longer declared", async () => {
    const [a, b] = [await runnerOf(), await runnerOf()];
    a.schedule("test.morning", { cron: "0 7 * * *" }, async () => {});
    b.schedule("test.morning", { cron: "0 7 * * *" }, async () => {});
    await a.start();
    await b.start();
    const schedules = async () => (await poolOf(database.db).query<{ name: string; cron: string; timezone: string }>(`select name, cron, timezone from pgboss.schedule order by name`)).rows;
    expect(await schedules()).toEqual([{ name: "test.morning", cron: "0 7 * * *", timezone: "Europe/London" }]);
    await Promise.all([a.stop(), b.stop()]);

    // The next release no longer has the job: its start takes the schedule away.
    const c = await runnerOf();
    c.define("test.other", async () => {});
    await c.start();
    expect(await schedules()).toEqual([]);
    await c.stop();
  }, 60_000);
});

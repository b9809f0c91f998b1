import { afterEach, describe, expect, it, vi } from "vitest";
import { createInProcessRunner } from "./in-process.ts";
import type { JobContext, JobLog } from "./runner.ts";
import { until } from "../../test/until.ts";

function quietLog() {
  return { info: vi.fn(), warn: vi.fn(), error: vi.fn() } satisfies JobLog;
}

/** Retries wait through this: it records each delay asked for and waits no real time. */
function recordedWaits() {
  const delays: number[] = [];
  return { delays, wait: async (ms: number) => void delays.push(ms) };
}

describe("the in-process job runner (PGlite)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("runs an interval job once per slot, at the slot's start, and stops with stop()", async () => {
    vi.useFakeTimers({ now: new Date("2026-06-01T10:00:00.500Z") });
    const runner = createInProcessRunner({ log: quietLog() });
    const runs: (Date | null)[] = [];
    runner.schedule("test.every-minute", { everySeconds: 60 }, async (_data, context) => void runs.push(context.scheduledFor));
    await runner.start();
    await vi.advanceTimersByTimeAsync(3 * 60_000);
    expect(runs.map((d) => d?.toISOString())).toEqual(["2026-06-01T10:01:00.000Z", "2026-06-01T10:02:00.000Z", "2026-06-01T10:03:00.000Z"]);
    await runner.stop();
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(runs).toHaveLength(3);
  });

  it("counts a job's runs not yet over as its queue, retries included, and every defined job at 0 otherwise", async () => {
    const runner = createInProcessRunner({ log: quietLog(), wait: recordedWaits().wait });
    const release: (() => void)[] = [];
    let attempts = 0;
    runner.define("test.slow", async () => {
      attempts++;
      if (attempts === 1) throw new Error("first attempt fails");
      await new Promise<void>((resolve) => release.push(resolve));
    });
    runner.define("test.idle", async () => {});
    await runner.start();
    await runner.enqueue("test.slow");
    await runner.enqueue("test.slow");
    await until(() => release.length === 2, { what: "both runs waiting" });
    expect(Object.fromEntries(await runner.queued())).toEqual({ "test.slow": 2, "test.idle": 0 });
    for (const done of release) done();
    await until(async () => (await runner.queued()).get("test.slow") === 0, { what: "the queue emptied" });
    await runner.stop();
  });

  it("reads cron times in Europe/London, summer time included", async () => {
    vi.useFakeTimers({ now: new Date("2026-06-01T05:58:00Z") });
    const runner = createInProcessRunner({ log: quietLog() });
    const runs: (Date | null)[] = [];
    runner.schedule("test.seven-am", { cron: "0 7 * * *" }, async (_data, context) => void runs.push(context.scheduledFor));
    await runner.start();
    await vi.advanceTimersByTimeAsync(4 * 60_000);
    // 07:00 in London in June is 06:00 UTC.
    expect(runs.map((d) => d?.toISOString())).toEqual(["2026-06-01T06:00:00.000Z"]);
    await vi.advanceTimersByTimeAsync(24 * 60 * 60_000);
    expect(runs.map((d) => d?.toISOString())).toEqual(["2026-06-01T06:00:00.000Z", "2026-06-02T06:00:00.000Z"]);
    await runner.stop();
  });

  it("skips a turn while the last one is still running, so a job never overlaps itself", async () => {
    vi.useFakeTimers({ now: new Date("2026-06-01T10:00:00Z") });
    const log = quietLog();
    const runner = createInProcessRunner({ log });
    let release = () => {};
    let started = 0;
    runner.schedule("test.slow", { everySeconds: 60 }, () => {
      started++;
      return new Promise<void>((resolve) => (release = resolve));
    });
    await runner.start();
    await vi.advanceTimersByTimeAsync(3 * 60_000);
    expect(started).toBe(1);
    expect(log.warn).toHaveBeenCalledWith({ job: "test.slow" }, expect.stringContaining("skipped"));
    release();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(started).toBe(2);
    release();
    await runner.stop();
  });

  it("retries a failed attempt with a doubling delay, and a later success records no failure", async () => {
    const { delays, wait } = recordedWaits();
    const log = quietLog();
    const runner = createInProcessRunner({ log, wait });
    const attempts: JobContext[] = [];
    runner.define(
      "test.flaky",
      async (_data, context) => {
        attempts.push(context);
        if (context.attempt < 3) throw new Error(`attempt ${context.attempt} failed`);
      },
      { retry: { limit: 5, delaySeconds: 2, delayMaxSeconds: 60 } },
    );
    await runner.start();
    await runner.enqueue("test.flaky");
    await until(() => attempts.length === 3, { timeoutMs: 5_000, intervalMs: 10 });
    await runner.stop();
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    // One job: every attempt carries its id.
    expect(new Set(attempts.map((a) => a.id)).size).toBe(1);
    expect(delays).toEqual([2_000, 4_000]);
    expect(log.warn).toHaveBeenCalledTimes(2);
    expect(log.error).not.toHaveBeenCalled();
    expect(await runner.failures()).toEqual([]);
  });

  it("records a job whose retries run out as a failure, logged as an error, the delay bounded", async () => {
    const { delays, wait } = recordedWaits();
    const log = quietLog();
    const runner = createInProcessRunner({ log, wait });
    let calls = 0;
    runner.define(
      "test.broken",
      async () => {
        calls++;
        throw new Error("the gateway said no");
      },
      { retry: { limit: 3, delaySeconds: 10, delayMaxSeconds: 25 } },
    );
    await runner.start();
    await runner.enqueue("test.broken", { invoice: 7 });
    await until(async () => (await runner.failures()).length === 1, { timeoutMs: 5_000, intervalMs: 10 });
    await runner.stop();
    expect(calls).toBe(4);
    expect(delays).toEqual([10_000, 20_000, 25_000]);
    const [failure] = await runner.failures();
    expect(failure).toMatchObject({ name: "test.broken", error: "the gateway said no", attempts: 4 });
    expect(log.error).toHaveBeenCalledWith(expect.objectContaining({ job: "test.broken", attempts: 4 }), expect.stringContaining("retries exhausted"));
    // Failures older than the window asked for are left out.
    expect(await runner.failures({ since: new Date(Date.now() + 60_000) })).toEqual([]);
  });

  it("passes an enqueued job its data, and refuses unknown jobs, bad names and late definitions", async () => {
    const runner = createInProcessRunner({ log: quietLog() });
    const seen: Record<string, unknown>[] = [];
    runner.define("test.once", async (data) => void seen.push(data));
    expect(() => runner.define("Test Once", async () => {})).toThrow(/lower-case/);
    expect(() => runner.schedule("test.zero", { everySeconds: 0 }, async () => {})).toThrow(/everySeconds/);
    expect(() => runner.define("test.once", async () => {})).toThrow(/twice/);
    await expect(runner.enqueue("test.once")).rejects.toThrow(/before the runner started/);
    await runner.start();
    expect(() => runner.define("test.late", async () => {})).toThrow(/before start/);
    await expect(runner.enqueue("test.nothing")).rejects.toThrow(/No job/);
    await runner.enqueue("test.once", { account: 3 });
    await until(() => seen.length === 1, { timeoutMs: 5_000, intervalMs: 10 });
    await runner.stop();
    expect(seen).toEqual([{ account: 3 }]);
  });
});

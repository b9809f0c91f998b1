import { randomUUID } from "node:crypto";
import { FAILURES_WINDOW_MS, type JobDefinition, type JobFailure, type JobLog, type JobRunner, type JobSchedule, backoffSeconds, errorMessage, jobDefinitions, nextCronOccurrence, retryOf } from "./runner.ts";

export interface InProcessRunnerOptions {
  log: JobLog;
  /** The clock the schedules read; tests may move it. */
  now?: () => number;
  /** Waits between a failed attempt and its retry; tests pass one that records the delay. */
  wait?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** How long stop() waits for running attempts. Default 10 s. */
  stopTimeoutMs?: number;
}

/** The longest a Node timer can wait; a later cron occurrence re-arms on the way. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const KEPT_FAILURES = 100;

function abortableWait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    timer.unref();
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}

/**
 * The runner on PGlite, the embedded database that one process owns: timers
 * in this process, retries with a doubling delay, failures kept in memory (the
 * last hundred) and logged. There is no second process to share a job with,
 * so running once needs no lock.
 */
export function createInProcessRunner(options: InProcessRunnerOptions): JobRunner {
  const { log } = options;
  const now = options.now ?? Date.now;
  const wait = options.wait ?? abortableWait;
  const definitions = jobDefinitions(() => started);
  /** Scheduled jobs with a run still going (retries included): their next turn is skipped. */
  const running = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();
  const failed: JobFailure[] = [];
  /** Runs not yet over per job (retries waiting included): this runner's queue. */
  const pending = new Map<string, number>();
  let stopping = new AbortController();
  let started = false;

  function later(ms: number, fn: () => void) {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, Math.max(0, Math.min(ms, MAX_TIMER_MS)));
    timer.unref();
    timers.add(timer);
  }

  /** The next moment the job is due after `after`: the next slot's start, or the cron's next occurrence in London. */
  function nextDue(when: JobSchedule, after: number): number {
    if ("everySeconds" in when) {
      const slot = when.everySeconds * 1000;
      return (Math.floor(after / slot) + 1) * slot;
    }
    return nextCronOccurrence(when.cron, new Date(after)).getTime();
  }

  function arm(name: string, job: JobDefinition, when: JobSchedule) {
    const due = nextDue(when, now());
    const tick = () => {
      if (stopping.signal.aborted) return;
      // A timer capped at MAX_TIMER_MS, or one woken early, waits on for its moment.
      if (now() < due) return later(due - now(), tick);
      arm(name, job, when);
      if (running.has(name)) {
        log.warn({ job: name }, "job still running from its last turn: this turn is skipped");
        return;
      }
      running.add(name);
      track(run(name, job, {}, new Date(due)).finally(() => running.delete(name)));
    };
    later(due - now(), tick);
  }

  function track(promise: Promise<void>) {
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise));
  }

  async function run(name: string, job: JobDefinition, data: Record<string, unknown>, scheduledFor: Date | null): Promise<void> {
    pending.set(name, (pending.get(name) ?? 0) + 1);
    try {
      await attempts(name, job, data, scheduledFor);
    } finally {
      pending.set(name, pending.get(name)! - 1);
    }
  }

  async function attempts(name: string, job: JobDefinition, data: Record<string, unknown>, scheduledFor: Date | null): Promise<void> {
    const retry = retryOf(job.options);
    const id = randomUUID();
    for (let attempt = 1; ; attempt++) {
      try {
        await job.handler(data, { id, attempt, scheduledFor });
        return;
      } catch (error) {
        if (attempt > retry.limit || stopping.signal.aborted) {
          failed.unshift({ name, id, error: errorMessage(error), failedAt: new Date(now()), attempts: attempt });
          failed.length = Math.min(failed.length, KEPT_FAILURES);
          log.error({ err: error, job: name, jobId: id, attempts: attempt }, `job ${name} failed, retries exhausted`);
          return;
        }
        const delay = backoffSeconds(retry, attempt);
        log.warn({ err: error, job: name, jobId: id, attempt, retryInSeconds: delay }, `job ${name} failed; retrying`);
        await wait(delay * 1000, stopping.signal);
      }
    }
  }

  return {
    kind: "in-process",
    define: definitions.define,
    schedule: definitions.schedule,
    async enqueue(name, data = {}) {
      track(run(name, definitions.toEnqueue(name), data, null));
    },
    async start() {
      if (started) return;
      started = true;
      stopping = new AbortController();
      for (const [name, job] of definitions.jobs) if (job.when) arm(name, job, job.when);
    },
    async stop() {
      if (!started) return;
      started = false;
      stopping.abort();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      // A handler past the bound is left to finish on its own; the process is closing.
      const bound = new Promise<void>((resolve) => setTimeout(resolve, options.stopTimeoutMs ?? 10_000).unref());
      await Promise.race([Promise.allSettled([...inFlight]), bound]);
    },
    async failures({ since = new Date(now() - FAILURES_WINDOW_MS), limit = 20 } = {}) {
      return failed.filter((f) => f.failedAt >= since).slice(0, limit);
    },
    async queued() {
      return new Map([...definitions.jobs.keys()].map((name) => [name, pending.get(name) ?? 0]));
    },
  };
}

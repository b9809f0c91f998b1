import type pg from "pg";
import { type ConstructorOptions, type JobWithMetadata, PgBoss, type SendOptions } from "pg-boss";
import { FAILURES_WINDOW_MS, JOB_TIME_ZONE, type JobDefinition, type JobFailure, type JobLog, type JobRunner, TIMEOUT_DEFAULT_SECONDS, jobDefinitions, lastCronOccurrence, retryOf } from "./runner.ts";

/** Marks the jobs a cron schedule sends, so their handler is told the occurrence; taken off before the handler sees the data. */
const FROM_SCHEDULE = "$schedule";

export interface PgBossRunnerOptions {
  /** The shop's own pool: pg-boss's statements share its connections (and its bounds). */
  pool: pg.Pool;
  log: JobLog;
  /** The schema pg-boss keeps its tables in. Default `pgboss`. */
  schema?: string;
  /** How often each worker asks for a job. Default 5 s; tests go down to 0.5 s. */
  pollingIntervalSeconds?: number;
  /** pg-boss's own timers and settings, for tests (its cron pass, maintenance). */
  boss?: Omit<ConstructorOptions, "db" | "schema" | "connectionString">;
  /** How long stop() waits for running attempts. Default 10 s. */
  stopTimeoutMs?: number;
}

/** No pg-boss tables yet (no process has started the queue): nothing is queued and nothing has failed. */
function noQueueYet(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === "42P01" || code === "3F000";
}

interface FailureRow {
  name: string;
  id: string;
  error: string | null;
  completed_on: Date;
  retry_count: number;
}

/**
 * The runner on PostgreSQL: every job is a pg-boss queue of the same name.
 * - A cron schedule is pg-boss's own (`schedule()`): whichever process's
 *   cron pass claims the minute sends the one job for it.
 * - `everySeconds` is a throttled send: each process sends at the middle of
 *   each slot with `singletonSeconds`, and pg-boss's unique index on
 *   (name, slot) lets one job per slot in, counted on the database's clock.
 *   The middle, so a process whose clock is a little off still lands in the
 *   slot it means.
 * - A failed attempt is retried with pg-boss's exponential backoff; a job
 *   whose retries are spent stays in its table as `failed` (7 days), which is
 *   where failures() reads it for every process alike.
 */
export function createPgBossRunner(options: PgBossRunnerOptions): JobRunner {
  const { log, pool } = options;
  const schema = options.schema ?? "pgboss";
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Not a schema name: ${schema}`);
  const definitions = jobDefinitions(() => boss !== null);
  const jobs = definitions.jobs;
  const timers = new Set<NodeJS.Timeout>();
  let boss: PgBoss | null = null;

  const sendOptions = (definition: JobDefinition): SendOptions => {
    const retry = retryOf(definition.options);
    return {
      retryLimit: retry.limit,
      retryDelay: Math.max(1, Math.round(retry.delaySeconds)),
      retryBackoff: true,
      retryDelayMax: Math.max(1, Math.round(retry.delayMaxSeconds)),
      expireInSeconds: definition.options?.timeoutSeconds ?? TIMEOUT_DEFAULT_SECONDS,
    };
  };

  async function work(name: string, definition: JobDefinition, job: JobWithMetadata<Record<string, unknown>>) {
    const attempt = job.retryCount + 1;
    const { [FROM_SCHEDULE]: fromSchedule, ...data } = job.data ?? {};
    // A cron job stands for the occurrence it was sent for (pg-boss sends it within the minute); a throttled one for its slot.
    const scheduledFor = fromSchedule === true && definition.when && "cron" in definition.when ? lastCronOccurrence(definition.when.cron, job.createdOn) : slotOf(job.singletonOn);
    try {
      return await definition.handler(data, { id: job.id, attempt, scheduledFor });
    } catch (error) {
      if (job.retryCount >= job.retryLimit) log.error({ err: error, job: name, jobId: job.id, attempts: attempt }, `job ${name} failed, retries exhausted`);
      else log.warn({ err: error, job: name, jobId: job.id, attempt }, `job ${name} failed; pg-boss retries it`);
      throw error;
    }
  }

  function armInterval(name: string, definition: JobDefinition, everySeconds: number) {
    const slot = everySeconds * 1000;
    const fire = () => {
      timers.delete(timer);
      if (!boss) return;
      arm();
      boss.send(name, {}, { ...sendOptions(definition), singletonSeconds: everySeconds, singletonKey: name }).catch((err: unknown) => log.warn({ err, job: name }, `could not send job ${name}`));
    };
    let timer: NodeJS.Timeout;
    const arm = () => {
      const now = Date.now();
      const middle = Math.floor(now / slot) * slot + slot / 2;
      timer = setTimeout(fire, middle > now ? middle - now : middle + slot - now);
      timer.unref();
      timers.add(timer);
    };
    arm();
  }

  return {
    kind: "pg-boss",
    define: definitions.define,
    schedule: definitions.schedule,
    async enqueue(name, data = {}) {
      // toEnqueue() refuses before start(), so boss is set.
      const definition = definitions.toEnqueue(name);
      await boss?.send(name, data, sendOptions(definition));
    },
    async start() {
      if (boss) return;
      const instance = new PgBoss({
        ...options.boss,
        schema,
        // pg-boss's statements through the shop's pool, parsed by plain node-postgres (dates as Date).
        db: { executeSql: (text: string, values?: unknown[]) => pool.query(text, values) },
      });
      // An unheard 'error' event would end the process; pg-boss reports and carries on.
      instance.on("error", (err) => log.error({ err }, "job queue error"));
      instance.on("warning", (warning) => log.warn({ warning }, `job queue warning: ${warning.message}`));
      await instance.start();
      const cron = new Set<string>();
      for (const [name, definition] of jobs) {
        await instance.createQueue(name, sendOptions(definition));
        if (definition.when && "cron" in definition.when) {
          cron.add(name);
          await instance.schedule(name, definition.when.cron, { [FROM_SCHEDULE]: true }, { ...sendOptions(definition), tz: JOB_TIME_ZONE });
        }
        const workOptions = { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 5, batchSize: 1, includeMetadata: true } as const;
        await instance.work<Record<string, unknown>, unknown, typeof workOptions>(name, workOptions, async (batch) => {
          for (const job of batch) await work(name, definition, job);
        });
      }
      // A schedule left by a job since taken off the list would go on sending jobs nobody works.
      for (const row of await instance.getSchedules()) if (!cron.has(row.name)) await instance.unschedule(row.name, row.key);
      boss = instance;
      for (const [name, definition] of jobs) if (definition.when && "everySeconds" in definition.when) armInterval(name, definition, definition.when.everySeconds);
    },
    async stop() {
      const instance = boss;
      if (!instance) return;
      boss = null;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await instance.stop({ graceful: true, timeout: options.stopTimeoutMs ?? 10_000, close: false });
    },
    async failures({ since = new Date(Date.now() - FAILURES_WINDOW_MS), limit = 20 } = {}) {
      try {
        // pg-boss's own table read directly: its findJobs() lists oldest first with no state filter.
        const { rows } = await pool.query<FailureRow>(
          `select name, id::text as id, output->>'message' as error, completed_on, retry_count
           from ${schema}.job where state = 'failed' and completed_on >= $1 and name = any($2::text[])
           order by completed_on desc limit $3`,
          [since, [...jobs.keys()], limit],
        );
        return rows.map((r): JobFailure => ({ name: r.name, id: r.id, error: r.error ?? "failed", failedAt: r.completed_on, attempts: r.retry_count + 1 }));
      } catch (error) {
        if (noQueueYet(error)) return [];
        throw error;
      }
    },
    async queued() {
      const depth = new Map([...jobs.keys()].map((name) => [name, 0]));
      try {
        // Jobs waiting, retrying or running; pg-boss partitions its table by queue and indexes each by state.
        const { rows } = await pool.query<{ name: string; count: number }>(
          `select name, count(*)::int as count from ${schema}.job where state in ('created', 'retry', 'active') and name = any($1::text[]) group by name`,
          [[...jobs.keys()]],
        );
        for (const row of rows) depth.set(row.name, row.count);
      } catch (error) {
        if (!noQueueYet(error)) throw error;
      }
      return depth;
    },
  };
}

/** The pg pool under a Database opened by openPostgres (drizzle's node-postgres client). */
export function poolOf(db: unknown): pg.Pool {
  // drizzle's node-postgres database keeps its client as $client; the Db type over both drivers does not show it.
  const client = (db as { $client?: pg.Pool }).$client;
  if (!client || typeof client.query !== "function") throw new Error("Not a node-postgres database");
  return client;
}

/**
 * A throttled job's slot: pg-boss keeps it as a timestamp without time zone
 * in UTC, which node-postgres reads as local time; its fields are UTC's.
 */
function slotOf(value: Date | string | null): Date | null {
  if (value === null) return null;
  if (typeof value === "string") return new Date(`${value.replace(" ", "T")}Z`);
  return new Date(Date.UTC(value.getFullYear(), value.getMonth(), value.getDate(), value.getHours(), value.getMinutes(), value.getSeconds(), value.getMilliseconds()));
}

import { CronExpressionParser } from "cron-parser";

/**
 * Background work as jobs (issue 21, ADR 0038): one interface, two runners.
 * On PostgreSQL, pg-boss keeps the jobs in the database, so any number of shop
 * processes share them and each job runs once; on PGlite (one process by
 * construction) a small in-process runner runs the same handlers.
 */

/** Cron times are read in the shop's time zone. */
export const JOB_TIME_ZONE = "Europe/London";

/**
 * When a job runs: a cron expression (five fields, minutes first, read in
 * Europe/London), or every so many seconds, counted in slots from the epoch
 * so that every process agrees which slot it is in.
 */
export type JobSchedule = { cron: string } | { everySeconds: number };

export interface JobRetry {
  /** Retries after the first attempt fails; the job is recorded as failed after the last. Default 3. */
  limit?: number;
  /** The first retry's delay; each next one doubles it (with some jitter on pg-boss). Default 30 s. */
  delaySeconds?: number;
  /** No retry waits longer than this. Default 10 minutes. */
  delayMaxSeconds?: number;
}

export interface JobOptions {
  retry?: JobRetry;
  /** How long one attempt may run before pg-boss counts it failed (and retries it). Default 15 minutes. */
  timeoutSeconds?: number;
}

export interface JobLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface JobContext {
  /** The job's id in its runner. */
  id: string;
  /** 1 for the first attempt, 2 for the first retry, and so on. */
  attempt: number;
  /** The slot or cron occurrence a scheduled run stands for; absent for a one-off. */
  scheduledFor: Date | null;
}

export type JobHandler = (data: Record<string, unknown>, context: JobContext) => Promise<unknown>;

/** A job whose last attempt failed, retries exhausted. */
export interface JobFailure {
  name: string;
  id: string;
  /** The error's message, as the handler threw it. */
  error: string;
  failedAt: Date;
  /** How many attempts were made, the first one included. */
  attempts: number;
}

export interface JobRunner {
  readonly kind: "pg-boss" | "in-process";
  /** A job that runs only when enqueued. Define every job before start(). */
  define(name: string, handler: JobHandler, options?: JobOptions): void;
  /** A job that runs on a schedule (and may also be enqueued). */
  schedule(name: string, when: JobSchedule, handler: JobHandler, options?: JobOptions): void;
  /** Runs a defined job once, soon, in whichever process picks it up. Needs start(). */
  enqueue(name: string, data?: Record<string, unknown>): Promise<void>;
  /** Starts the schedules and the workers. */
  start(): Promise<void>;
  /** Stops scheduling and waits (boundedly) for running attempts to finish. */
  stop(): Promise<void>;
  /** Failed jobs (retries exhausted) since a moment, newest first; answers [] when it cannot tell. */
  failures(options?: { since?: Date; limit?: number }): Promise<JobFailure[]>;
  /** Runs waiting or going per defined job (0 for a job with none): the queue depth /metrics shows. */
  queued(): Promise<Map<string, number>>;
}

export const RETRY_DEFAULTS = { limit: 3, delaySeconds: 30, delayMaxSeconds: 600 } as const;
export const TIMEOUT_DEFAULT_SECONDS = 15 * 60;
/** What failures() looks back over unless told. */
export const FAILURES_WINDOW_MS = 24 * 60 * 60 * 1000;

export function retryOf(options: JobOptions | undefined): Required<JobRetry> {
  return { ...RETRY_DEFAULTS, ...options?.retry };
}

/** Seconds before retry number `retry` (1 for the first): the delay doubling each time, bounded. */
export function backoffSeconds(retry: Required<JobRetry>, attempt: number): number {
  return Math.min(retry.delayMaxSeconds, retry.delaySeconds * 2 ** (attempt - 1));
}

/** Job names are pg-boss queue names too, so they keep to its characters. */
export function checkJobName(name: string): void {
  if (!/^[a-z0-9][a-z0-9.-]*$/.test(name)) throw new Error(`A job's name is lower-case letters, digits, dots and hyphens: ${JSON.stringify(name)}`);
}

export function checkSchedule(name: string, when: JobSchedule): void {
  if ("everySeconds" in when && !(Number.isInteger(when.everySeconds) && when.everySeconds >= 1)) throw new Error(`Job ${name}: everySeconds must be a whole number of seconds, at least 1`);
  if ("cron" in when) {
    if (when.cron.trim().split(/\s+/).length !== 5) throw new Error(`Job ${name}: a cron expression has five fields, minutes first: ${JSON.stringify(when.cron)}`);
    nextCronOccurrence(when.cron, new Date());
  }
}

/** The first occurrence of a cron expression, read in London, after a moment. */
export function nextCronOccurrence(cron: string, after: Date): Date {
  return CronExpressionParser.parse(cron, { tz: JOB_TIME_ZONE, currentDate: after }).next().toDate();
}

/** The last occurrence at or before a moment: the one a cron job sent then stands for. */
export function lastCronOccurrence(cron: string, atOrBefore: Date): Date {
  // prev() answers strictly before its date, so a millisecond on keeps an occurrence on the moment itself.
  return CronExpressionParser.parse(cron, { tz: JOB_TIME_ZONE, currentDate: new Date(atOrBefore.getTime() + 1) }).prev().toDate();
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export interface JobDefinition {
  handler: JobHandler;
  options: JobOptions | undefined;
  when: JobSchedule | null;
}

/** The jobs a runner knows, checked as they are defined; both runners keep theirs here. */
export function jobDefinitions(isStarted: () => boolean) {
  const jobs = new Map<string, JobDefinition>();
  function add(name: string, handler: JobHandler, options: JobOptions | undefined, when: JobSchedule | null) {
    checkJobName(name);
    if (when) checkSchedule(name, when);
    if (jobs.has(name)) throw new Error(`Job ${name} is defined twice`);
    if (isStarted()) throw new Error(`Job ${name}: define jobs before start()`);
    jobs.set(name, { handler, options, when });
  }
  return {
    jobs,
    define: (name: string, handler: JobHandler, options?: JobOptions) => add(name, handler, options, null),
    schedule: (name: string, when: JobSchedule, handler: JobHandler, options?: JobOptions) => add(name, handler, options, when),
    /** The job enqueue() names, once the runner runs. */
    toEnqueue(name: string): JobDefinition {
      const job = jobs.get(name);
      if (!job) throw new Error(`No job named ${name}`);
      if (!isStarted()) throw new Error(`Job ${name} enqueued before the runner started`);
      return job;
    },
  };
}

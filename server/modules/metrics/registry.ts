import { sql } from "drizzle-orm";
import type pg from "pg";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { Db } from "../../db/client.ts";
import { PriceChangedError } from "../checkout/types.ts";
import type { JobHandler, JobRunner } from "../jobs/runner.ts";
import type { AttemptLimiter, LimiterStore } from "../../plugins/rate-limit.ts";
import { askPrimary, shareWithPrimary, underPrimary } from "./cluster.ts";

/**
 * The shop's Prometheus metrics (ADR 0056): one registry per app, never
 * prom-client's global one, so the many apps a test process builds each count
 * their own and none throws "already registered".
 */

/** The route label of a request no route matched: a scan of random paths adds no series. */
export const UNMATCHED_ROUTE = "(unmatched)";

export type CheckoutOutcome = "placed" | "replayed" | "price_changed" | "refused" | "failed";
export type WebhookOutcome = "applied" | "duplicate" | "refused" | "failed";

export interface MetricsSources {
  db: Db;
  kind: "pglite" | "postgres";
  /** The node-postgres pool on PostgreSQL; PGlite has one connection and no pool. */
  pool: pg.Pool | null;
  jobs: JobRunner;
}

export type ShopMetrics = ReturnType<typeof createShopMetrics>;

/** `lastBackupAt`: the newest complete backup in BACKUP_DIR (modules/backups/files.ts), read at each scrape, so every process reports the same moment. */
export function createShopMetrics(options: { lastBackupAt?: () => Promise<Date | null> } = {}) {
  const registry = new Registry();
  const registers = [registry];
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) => new Counter({ name, help, labelNames, registers });
  const requestDuration = new Histogram({
    name: "tradecounter_http_request_duration_seconds",
    help: "Time to answer a request, by the route pattern it matched, its method and its status.",
    labelNames: ["route", "method", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const pageCache = counter("tradecounter_page_cache_requests_total", "Requests the visitor page cache could answer (ADR 0025): result is hit or miss; store is page or json.", ["store", "result"] as const);
  const checkouts = counter("tradecounter_checkouts_total", "Orders placed at checkout, by outcome: placed, replayed (same Idempotency-Key), price_changed, refused (4xx) or failed.", ["outcome"] as const);
  const webhooks = counter("tradecounter_payment_webhooks_total", "Payment webhooks received, by outcome: applied, duplicate, refused (signature did not verify) or failed.", ["outcome"] as const);
  const jobRuns = counter("tradecounter_job_runs_total", "Background job attempts, by job and outcome (succeeded or failed; a failed attempt may be retried).", ["job", "outcome"] as const);
  const refusals = counter("tradecounter_rate_limit_refusals_total", "Requests refused by a rate limit, by the limit's name.", ["limit"] as const);
  new Gauge({
    name: "tradecounter_backup_last_success_timestamp_seconds",
    // Read from BACKUP_DIR by each process alike: the machine's is the newest, not their sum.
    aggregator: "max",
    help: "When the newest complete backup in BACKUP_DIR was taken (Unix seconds); 0 while there is none.",
    registers,
    async collect() {
      const at = (await options.lastBackupAt?.()) ?? null;
      this.set(at ? at.getTime() / 1000 : 0);
    },
  });
  let defaults = false;
  const startDefaults = () => {
    if (defaults) return;
    defaults = true;
    collectDefaultMetrics({ register: registry });
  };
  // Under a primary, every process's registry is gathered at each scrape, so each reports its process metrics from the start.
  if (underPrimary()) {
    shareWithPrimary(registry);
    startDefaults();
  }

  return {
    registry,
    observeRequest(route: string | undefined, method: string, status: number, seconds: number): void {
      requestDuration.observe({ route: route ?? UNMATCHED_ROUTE, method, status: String(status) }, seconds);
    },
    pageCache(store: "page" | "json", result: "hit" | "miss"): void {
      pageCache.inc({ store, result });
    },
    /** Wraps a job's handler so each attempt is counted. */
    countedJob(name: string, handler: JobHandler): JobHandler {
      return async (data, context) => {
        try {
          const result = await handler(data, context);
          jobRuns.inc({ job: name, outcome: "succeeded" });
          return result;
        } catch (error) {
          jobRuns.inc({ job: name, outcome: "failed" });
          throw error;
        }
      };
    },
    /** The same runner, each attempt of every job defined through it counted. */
    countedJobs(runner: JobRunner): JobRunner {
      const countedJob = this.countedJob;
      // Both runners are closures over their state (no `this`), so their methods travel in a spread.
      return {
        ...runner,
        define: (name, handler, options) => runner.define(name, countedJob(name, handler), options),
        schedule: (name, when, handler, options) => runner.schedule(name, when, countedJob(name, handler), options),
      };
    },
    /** The checkout's placeOrder, its outcomes counted. */
    countedCheckout<T extends { placeOrder(...args: never[]): Promise<{ replay: boolean }> }>(checkout: T): void {
      const place = checkout.placeOrder.bind(checkout);
      checkout.placeOrder = (async (...args: Parameters<T["placeOrder"]>) => {
        try {
          const placed = await place(...args);
          checkouts.inc({ outcome: placed.replay ? "replayed" : "placed" });
          return placed;
        } catch (error) {
          checkouts.inc({ outcome: checkoutFailure(error) });
          throw error;
        }
      }) as T["placeOrder"];
    },
    /** The payments' webhook, its outcomes counted. */
    countedWebhook<T extends { webhook(...args: never[]): Promise<"applied" | "duplicate"> }>(payments: T, isRefusal: (error: unknown) => boolean): void {
      const receive = payments.webhook.bind(payments);
      payments.webhook = (async (...args: Parameters<T["webhook"]>) => {
        try {
          const outcome = await receive(...args);
          webhooks.inc({ outcome });
          return outcome;
        } catch (error) {
          webhooks.inc({ outcome: isRefusal(error) ? "refused" : "failed" });
          throw error;
        }
      }) as T["webhook"];
    },
    /** The same limits, their refusals counted. */
    countedLimits(store: LimiterStore): LimiterStore {
      return {
        kind: store.kind,
        limiter(rule) {
          const limiter = store.limiter(rule);
          const refused = (wait: number) => {
            if (wait > 0) refusals.inc({ limit: rule.name });
            return wait;
          };
          // Every method called on the limiter itself: the stores' limiters keep private fields.
          const counted: AttemptLimiter = {
            name: limiter.name,
            max: limiter.max,
            windowMs: limiter.windowMs,
            attempt: async (key) => refused(await limiter.attempt(key)),
            retryAfter: async (key) => refused(await limiter.retryAfter(key)),
            hit: (key) => limiter.hit(key),
            reset: (key) => limiter.reset(key),
          };
          return counted;
        },
      };
    },
    /** The gauges read at scrape time, each with one cheap query; the process metrics on the first scrape (a test app that is never scraped starts none of their observers). */
    watch(sources: MetricsSources): void {
      watchSources(registry, sources);
    },
    async scrape(): Promise<{ contentType: string; body: string }> {
      startDefaults();
      // One of several shop processes: the primary adds up every process's (metrics/cluster.ts).
      if (underPrimary()) return askPrimary();
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

/** A price that changed under the customer, a refusal they can correct (4xx), or the shop's own failure. */
function checkoutFailure(error: unknown): CheckoutOutcome {
  if (error instanceof PriceChangedError) return "price_changed";
  const status = (error as { statusCode?: unknown }).statusCode;
  return typeof status === "number" && status >= 400 && status < 500 ? "refused" : "failed";
}

interface OutboxRow {
  pending: number;
  oldest: number;
}

function watchSources(registry: Registry, sources: MetricsSources): void {
  const registers = [registry];
  new Gauge({
    name: "tradecounter_job_queue_depth",
    // Read from the database by each process alike: once for the machine, not summed.
    aggregator: "max",
    help: "Jobs waiting, retrying or running, per job.",
    labelNames: ["job"] as const,
    registers,
    async collect() {
      const depth = await sources.jobs.queued();
      this.reset();
      for (const [job, count] of depth) this.set({ job }, count);
    },
  });
  // prom-client collects every metric at once: both outbox gauges share the one query in flight.
  let outboxRead: Promise<OutboxRow> | null = null;
  const readOutbox = () =>
    (outboxRead ??= (async () => {
      try {
        // The outbox's partial index on pending mail keeps this to the few rows waiting.
        const result = (await sources.db.execute(
          sql`select count(*)::int as pending, coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as oldest from mail_outbox where status = 'pending'`,
        )) as unknown as { rows: OutboxRow[] };
        return result.rows[0] ?? { pending: 0, oldest: 0 };
      } finally {
        outboxRead = null;
      }
    })());
  new Gauge({
    name: "tradecounter_mail_outbox_pending",
    aggregator: "max",
    help: "Emails waiting in the outbox to be sent.",
    registers,
    async collect() {
      this.set((await readOutbox()).pending);
    },
  });
  new Gauge({
    name: "tradecounter_mail_outbox_oldest_age_seconds",
    aggregator: "max",
    help: "Age of the oldest email waiting in the outbox; 0 when none waits.",
    registers,
    async collect() {
      this.set((await readOutbox()).oldest);
    },
  });
  const pool = sources.pool;
  new Gauge({
    name: "tradecounter_db_pool_connections",
    help: "Database connections by state: total, idle and waiting (requests waiting for a connection); max is the pool's bound. PGlite (embedded) has one connection.",
    labelNames: ["state"] as const,
    registers,
    collect() {
      if (!pool) {
        this.set({ state: "total" }, 1);
        this.set({ state: "max" }, 1);
        return;
      }
      this.set({ state: "total" }, pool.totalCount);
      this.set({ state: "idle" }, pool.idleCount);
      this.set({ state: "waiting" }, pool.waitingCount);
      this.set({ state: "max" }, pool.options.max ?? 10);
    },
  });
}

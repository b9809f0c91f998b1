// The bench's ways of putting a path under load (scripts/bench.ts): autocannon
// with every response time kept, placing orders as real clients do, and the
// recovery timing check. Each row is what the report prints.
import { randomUUID } from "node:crypto";
import autocannon from "autocannon";
import { BenchClient, guestOrder, percentile, type Sample } from "./client.ts";

export interface Row {
  name: string;
  group: "ceiling" | "catalogue" | "basket" | "order" | "hire" | "page" | "personal" | "back office";
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  connections: number;
  /** p99 target in ms, where one is set. */
  target?: number;
  /** Which percentile the target is for (99 unless said). */
  targetPercentile?: 95 | 99;
  /** Least requests/s as a percentage of the ceiling, where one is set (cached visitor pages). */
  ceilingTarget?: number;
  /** Least requests/s as a percentage of another row's (a signed-in page against the visitor's same page). */
  shareOf?: { name: string; percent: number };
}


/** How long each path is loaded, and by how many clients unless it says. */
export interface LoadSettings {
  duration: number;
  connections: number;
}

export function benchLoad({ duration, connections }: LoadSettings) {
  /** One path under load: every response time is kept, so the percentiles are exact. */
  async function load(
    name: string,
    group: Row["group"],
    base: string,
    request: { path: string; method?: "GET" | "POST"; body?: unknown; sessions?: Record<string, string>[] },
    target?: number,
    clients = connections,
  ): Promise<Row> {
    const times: number[] = [];
    let errors = 0;
    let next = 0;
    let finish: (result: autocannon.Result) => void = () => {};
    let fail: (error: unknown) => void = () => {};
    const done = new Promise<autocannon.Result>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
    const options: autocannon.Options = {
      url: base + request.path,
      method: request.method ?? "GET",
      connections: clients,
      duration,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      // As a browser sends it: the page cache answers kept pages gzipped (ADR 0025).
      headers: { "accept-encoding": "gzip, deflate, br", ...(request.body === undefined ? {} : { "content-type": "application/json" }) },
      // Each connection is its own visitor: its own basket, its own cookies.
      setupClient: request.sessions
        ? (client) => {
            const headers = request.sessions![next++ % request.sessions!.length]!;
            client.setHeaders({ "accept-encoding": "gzip, deflate, br", ...(request.body === undefined ? {} : { "content-type": "application/json" }), ...headers });
          }
        : undefined,
    };
    const instance = autocannon(options, (error, result) => (error ? fail(error) : finish(result)));
    instance.on("response", (_client, status, _bytes, time) => {
      if (status >= 400) errors++;
      else times.push(time);
    });
    const result = await done;
    times.sort((a, b) => a - b);
    return {
      name,
      group,
      rps: Math.round(result.requests.average),
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      p99: percentile(times, 99),
      errors: errors + result.errors + result.timeouts,
      connections: clients,
      target,
    };
  }

  /** Place order: each client adds to its basket (not timed) and checks out (timed). */
  async function placeOrders(base: string, productIds: number[]): Promise<Row> {
    const clients = productIds.length;
    const samples: Sample[] = [];
    const started = Date.now();
    await Promise.all(
      productIds.map(async (productId) => {
        const client = new BenchClient(base);
        await client.csrf();
        while (Date.now() - started < duration * 1000) {
          await client.post("/api/basket", { product_id: productId, quantity: 1 });
          samples.push(
            await client.timed("POST", "/api/checkout", guestOrder, { "idempotency-key": randomUUID() }),
          );
        }
      }),
    );
    const ok = samples.filter((s) => s.status < 400).map((s) => s.ms).sort((a, b) => a - b);
    const failed = samples.find((s) => s.error);
    if (failed) console.log(`\n  first refusal: ${failed.status} ${failed.error}`);
    return {
      name: `POST /api/checkout (place order, ${clients} clients)`,
      group: "order",
      rps: Math.round(ok.length / ((Date.now() - started) / 1000)),
      p50: percentile(ok, 50),
      p95: percentile(ok, 95),
      p99: percentile(ok, 99),
      errors: samples.length - ok.length,
      connections: clients,
      target: 100,
    };
  }


  return { load, placeOrders };
}

/** Recovery requests for known and for unknown addresses, each. */
export const RECOVERY_SAMPLES = 100;
/** Known and unknown addresses' recovery answers count as the same time when their medians are this close. */
export const RECOVERY_CLOSE_MS = 5;

export interface RecoveryTiming {
  known: { p50: number; p95: number; errors: number };
  unknown: { p50: number; p95: number; errors: number };
  /** Median of known minus median of unknown, in ms. */
  difference: number;
  close: boolean;
}

/**
 * Recovery must not tell whether an address has an account, by its answer or
 * by its time (issue 9). One client, one request at a time, known and unknown
 * addresses taking turns, each request from its own client address (the
 * production server trusts X-Forwarded-For), so no limit is met.
 */
export async function recoveryTiming(base: string): Promise<RecoveryTiming> {
  const client = new BenchClient(base);
  await client.csrf();
  const known: Sample[] = [];
  const unknown: Sample[] = [];
  const bodies = new Set<string>();
  for (let i = 1; i <= RECOVERY_SAMPLES; i++) {
    for (const [email, into, n] of [[`bench-recovery-${i}@example.com`, known, 2 * i], [`nobody-${randomUUID()}@example.com`, unknown, 2 * i + 1]] as const) {
      const sample = await client.timed("POST", "/api/auth/recovery", { email }, { "x-forwarded-for": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` });
      bodies.add(`${sample.status} ${sample.body}`);
      into.push(sample);
    }
  }
  if (bodies.size !== 1) console.log(`\n  recovery answers differ: ${[...bodies].join(" | ")}`);
  const summary = (samples: Sample[]) => {
    const ms = samples.filter((s) => s.status === 200).map((s) => s.ms).sort((a, b) => a - b);
    return { p50: percentile(ms, 50), p95: percentile(ms, 95), errors: samples.length - ms.length };
  };
  const k = summary(known);
  const u = summary(unknown);
  const difference = k.p50 - u.p50;
  return { known: k, unknown: u, difference, close: bodies.size === 1 && k.errors + u.errors === 0 && Math.abs(difference) < RECOVERY_CLOSE_MS };
}

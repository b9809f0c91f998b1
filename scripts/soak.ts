// `npm run soak` (not in CI): simulated visitors browse, search, fill baskets
// and check out as guests against the production server on PostgreSQL, for a
// bounded time. Reports each action's count, errors and exact p50/p95/p99, the
// server's memory over the run, and whether every successful checkout left its
// order in the database (and nothing else did). Exits 1 when a verdict is missed.
//
//   npm run soak -- [--visitors 200] [--duration 120] [--checkout-share 0.3]
//
// SOAK_DATABASE_URL names a PostgreSQL server (default: the local one); the
// database `tradecounter_soak` (or SOAK_DATABASE) is dropped and created there
// afresh each run, migrated and seeded with the demo shop, so every order after
// the seed's own is this run's. Writes bench/soak.json.
//
//   npm run soak -- --url http://127.0.0.1:8080 --database-url postgres://…/shop [--out soak-nginx.json]
//
// Against a shop already running (say, several processes behind nginx: ADR
// 0044): no server is started and its database is used as it is (its demo
// products' stock raised), memory is not measured, and a checkout whose answer
// was lost (a network error, a 502 from nginx while a process died) is sent
// again with the same idempotency key, as a customer clicking "Place order"
// again does; the orders verdict then says whether any order was lost or doubled.
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { openPostgres, type Db } from "../server/db/client.ts";
import { seedDemo } from "../server/db/seed/index.ts";
import { countSoleVariantsTo } from "../server/modules/stock/ledger.ts";
import { databaseInvariantViolations } from "../server/test/invariants.ts";
import { BenchClient, guestOrder, percentile } from "./bench/client.ts";
import { argument } from "./lib/argv.ts";
import { writeBenchFile } from "./lib/bench-file.ts";
import { toolDatabase } from "./lib/database.ts";
import { freePort } from "./lib/free-port.ts";
import { connectInspector } from "./lib/inspector.ts";
import { startShopServer, stopShopServer } from "./lib/shop-server.ts";

const numberArg = (name: string, fallback: number): number => {
  const value = Number(argument(`--${name}`) ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name}: a positive number.`);
  return value;
};
const visitors = Math.round(numberArg("visitors", 200));
const durationS = numberArg("duration", 120);
const checkoutShare = numberArg("checkout-share", 0.3);
/** A shop already running, and its database: see the header. */
const externalUrl = argument("--url")?.replace(/\/$/, "");
const externalDatabaseUrl = argument("--database-url");
if (Boolean(externalUrl) !== Boolean(externalDatabaseUrl)) throw new Error("--url and --database-url go together.");
const outFile = argument("--out") ?? "soak.json";
if (!/^[\w.-]+\.json$/.test(outFile)) throw new Error("--out: a file name ending in .json, written under bench/.");
/** Sends of one checkout at most, the first included, when its answer is lost. */
const CHECKOUT_SENDS = 6;
/** A visitor's pause between two actions: uniformly between these (ms). */
const THINK_MS: [number, number] = [50, 300];
/** A request not answered within this fails (counted as an error). */
const REQUEST_TIMEOUT_MS = 30_000;
/** Stock given to every product the visitors buy, far more than any run can sell. */
const SOAK_STOCK = 100_000_000;
/** Memory is steady when the last quarter's mean RSS and heap are each within this of the second quarter's. */
const STEADY_GROWTH = 0.25;
const MEMORY_SAMPLE_MS = 2_000;

const adminUrl = process.env.SOAK_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const soakDb = process.env.SOAK_DATABASE || "tradecounter_soak";

interface Catalogue {
  /** Products the visitors buy, their stock set to SOAK_STOCK. */
  products: { id: number; slug: string }[];
  categoryPaths: string[];
  searchTerms: string[];
  /** The last of the demo shop's own orders, made by the seed: this run's come after it. */
  lastSeededOrderId: number;
}

/** The fresh soak database: migrated, the demo shop seeded (unless it is a running shop's), the bought products' stock raised. */
async function prepareDatabase(databaseUrl: string, options: { fresh: boolean }): Promise<Catalogue> {
  const database = await openPostgres(databaseUrl, { max: 2 });
  try {
    if (options.fresh) {
      await database.migrate();
      console.log("Seeding the demo shop…");
      await seedDemo(database.db);
    }
    const rows = <T>(query: ReturnType<typeof sql>) => database.db.execute(query).then((r) => (r as unknown as { rows: T[] }).rows);
    // Products with one variant: a basket line names the product alone (one with several would need its variant chosen).
    const products = await rows<{ id: number; slug: string }>(sql`
      select id, slug from products
      where status = 'published' and sku not like 'GEN-%' and (select count(*) from product_variants v where v.product_id = products.id and v.status = 'active') = 1`);
    // Through the stock ledger: the invariants checked at the end include stock = its movements.
    await database.db.transaction((tx) => countSoleVariantsTo(tx as unknown as Db, products.map((p) => ({ productId: p.id, counted: SOAK_STOCK })), "Soak stock"));
    const categories = await rows<{ path: string }>(sql`select path from categories order by id`);
    // Words from the products' names, as a visitor would type them.
    const words = await rows<{ word: string }>(sql`
      select distinct lower(w) as word from products, regexp_split_to_table(name, '[^A-Za-z]+') w where length(w) >= 4 order by 1`);
    const [seeded] = await rows<{ n: number; last: number }>(sql`select count(*)::int as n, coalesce(max(id), 0)::int as last from orders`);
    console.log(`The database held ${seeded!.n} orders before the run: left out of the counts below.`);
    console.log(`Stock of all ${products.length} demo products set to ${SOAK_STOCK.toLocaleString("en-GB")}, so no checkout meets "out of stock".`);
    return { products: products.sort((a, b) => a.id - b.id), categoryPaths: categories.map((c) => c.path), searchTerms: words.map((w) => w.word), lastSeededOrderId: seeded!.last };
  } finally {
    await database.close();
  }
}

/** How one kind of action went: every answer's time (so percentiles are exact), errors and expected refusals. */
interface Action {
  /** Requests made, answered or not. */
  count: number;
  times: number[];
  errors: number;
  /** Out-of-stock or price-changed answers: legitimate refusals, not errors. */
  refused: number;
  firstError?: string;
}

const actions = new Map<string, Action>();
const successfulOrders = new Set<string>();
let stopping = false;

function action(name: string): Action {
  let found = actions.get(name);
  if (!found) actions.set(name, (found = { count: 0, times: [], errors: 0, refused: 0 }));
  return found;
}

/** Each visitor's last answer's status; 0 for none (a network failure or timeout). */
const lastStatus = new WeakMap<BenchClient, number>();
/** Whether the visitor's last request may have gone through without its answer arriving: no answer, or a 5xx. */
const lastAnswerLost = (visitor: BenchClient) => (lastStatus.get(visitor) ?? 0) === 0 || lastStatus.get(visitor)! >= 500;

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;
const think = () => new Promise((r) => setTimeout(r, THINK_MS[0] + Math.random() * (THINK_MS[1] - THINK_MS[0])));

/**
 * One request recorded under `name`. An error is a network failure or timeout,
 * or any status but `expected` (so every 5xx, and an HTML page that is not
 * 200); a 409, or a 422 about stock, on a write is a refusal. Answers the body
 * when the status was the expected one.
 */
async function record(
  name: string,
  visitor: BenchClient,
  request: { method?: "GET" | "POST"; url: string; body?: unknown; headers?: Record<string, string>; expected: number[] },
): Promise<string | undefined> {
  const entry = action(name);
  entry.count++;
  try {
    const answer = await visitor.timed(request.method ?? "GET", request.url, request.body, request.headers);
    lastStatus.set(visitor, answer.status);
    entry.times.push(answer.ms);
    if (request.expected.includes(answer.status)) return answer.body;
    if (request.method === "POST" && (answer.status === 409 || (answer.status === 422 && /stock/i.test(answer.body)))) entry.refused++;
    else {
      entry.errors++;
      entry.firstError ??= `${answer.status} ${answer.body.slice(0, 200)}`;
    }
  } catch (error) {
    lastStatus.set(visitor, 0);
    entry.errors++;
    entry.firstError ??= `network: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
  }
  return undefined;
}

/**
 * One visit from a new visitor (new cookies): browse, search, fill the basket,
 * perhaps check out. It ends early at `until`, once its request under way is answered.
 */
async function visit(base: string, catalogue: Catalogue, until: number): Promise<void> {
  const visitor = new BenchClient(base, REQUEST_TIMEOUT_MS);
  const product = pick(catalogue.products);
  const term = encodeURIComponent(pick(catalogue.searchTerms));
  const steps: (() => Promise<unknown>)[] = [
    () => record("GET / (page)", visitor, { url: "/", expected: [200] }),
    () => record("GET /category/{path} (page)", visitor, { url: `/category/${pick(catalogue.categoryPaths)}`, expected: [200] }),
    () => record("GET /product/{slug} (page)", visitor, { url: `/product/${product.slug}`, expected: [200] }),
    () =>
      Math.random() < 0.5
        ? record("GET /search?q= (page)", visitor, { url: `/search?q=${term}`, expected: [200] })
        : record("GET /api/search?q=", visitor, { url: `/api/search?q=${term}`, expected: [200] }),
    () => record("GET /api/products/{slug}", visitor, { url: `/api/products/${product.slug}`, expected: [200] }),
    () => record("GET /sanctum/csrf-cookie", visitor, { url: "/sanctum/csrf-cookie", expected: [200, 204] }),
  ];
  const lines = Math.random() < 0.5 ? [product] : [product, pick(catalogue.products)];
  for (const line of lines) {
    const quantity = 1 + Math.floor(Math.random() * 2);
    steps.push(() => record("POST /api/basket (add)", visitor, { method: "POST", url: "/api/basket", body: { product_id: line.id, quantity }, expected: [200, 201] }));
  }
  steps.push(() => record("GET /api/basket", visitor, { url: "/api/basket", expected: [200] }));
  if (Math.random() < checkoutShare) {
    steps.push(async () => {
      const key = randomUUID();
      for (let send = 1; send <= CHECKOUT_SENDS; send++) {
        const body = await record(send === 1 ? "POST /api/checkout (guest)" : "POST /api/checkout (sent again)", visitor, {
          method: "POST",
          url: "/api/checkout",
          body: guestOrder,
          headers: { "idempotency-key": key },
          // A resend may find the order the lost answer was for: 200, the same order.
          expected: send === 1 ? [201] : [200, 201],
        });
        if (body !== undefined) {
          successfulOrders.add((JSON.parse(body) as { order_number: string }).order_number);
          return;
        }
        // Only against a running shop (nginx, processes that may die): the storefront's own server answers or fails for good.
        if (!externalUrl || !lastAnswerLost(visitor)) return;
        await new Promise((r) => setTimeout(r, 300 * send));
      }
    });
  }
  for (const step of steps) {
    if (stopping || Date.now() >= until) return;
    await think();
    await step();
  }
}

/** A visitor's sessions, one after another, until the time is up; the request under way is finished. */
async function visitorLoop(base: string, catalogue: Catalogue, until: number): Promise<void> {
  while (!stopping && Date.now() < until) {
    await visit(base, catalogue, until);
  }
}

/** The server process's resident memory (VmRSS) in MB, from /proc; undefined where there is none. */
function rssMb(pid: number): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

/** CPU time (user + system) the process has used, in seconds, from /proc (Linux's USER_HZ is 100). */
function cpuSeconds(pid: number): number {
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface MemorySample {
  s: number;
  /** Resident set size, from /proc. */
  rssMb: number;
  /** V8's heap in use (process.memoryUsage().heapUsed, read through the inspector). */
  heapUsedMb: number;
}

/** One measure of memory by quarter of the run, and whether it is steady. */
interface Quarters {
  firstQuarterMb: number;
  secondQuarterMb: number;
  lastQuarterMb: number;
  maxMb: number;
  steady: boolean;
}

function quarters(samples: MemorySample[], measure: "rssMb" | "heapUsedMb"): Quarters {
  const mean = (from: number, to: number) => {
    const inside = samples.filter((m) => m.s >= from && m.s < to).map((m) => m[measure]);
    return inside.length ? inside.reduce((x, y) => x + y, 0) / inside.length : Number.NaN;
  };
  const q = durationS / 4;
  const secondQuarterMb = mean(q, 2 * q);
  const lastQuarterMb = mean(3 * q, Number.POSITIVE_INFINITY);
  return {
    firstQuarterMb: mean(0, q),
    secondQuarterMb,
    lastQuarterMb,
    maxMb: Math.max(...samples.map((m) => m[measure])),
    // The second quarter, not the first: the first holds start-up and warm-up (caches filling, code compiled).
    steady: lastQuarterMb <= secondQuarterMb * (1 + STEADY_GROWTH),
  };
}

const describeQuarters = (q: Quarters) =>
  `first quarter ${q.firstQuarterMb.toFixed(0)} MB, second ${q.secondQuarterMb.toFixed(0)} MB, last ${q.lastQuarterMb.toFixed(0)} MB, max ${q.maxMb.toFixed(0)} MB`;

interface OrdersReport {
  successfulCheckouts: number;
  /** This run's orders in the database (the seeded ones left out). */
  ordersInDatabase: number;
  /** Order numbers answered 201 but not in the database. */
  lost: string[];
  /** Orders in the database whose checkout did not answer success. */
  unanswered: string[];
  invariantViolations: string[];
}

/** This run's orders (after the seeded ones) against the checkouts that answered 201. */
async function checkOrders(db: Db, lastSeededOrderId: number): Promise<OrdersReport> {
  const { rows } = (await db.execute(sql`select number from orders where id > ${lastSeededOrderId}`)) as unknown as { rows: { number: string }[] };
  const inDatabase = new Set(rows.map((r) => r.number));
  return {
    successfulCheckouts: successfulOrders.size,
    ordersInDatabase: inDatabase.size,
    lost: [...successfulOrders].filter((n) => !inDatabase.has(n)),
    unanswered: [...inDatabase].filter((n) => !successfulOrders.has(n)),
    // Among them: every order has lines, and its totals are its lines' sums.
    invariantViolations: await databaseInvariantViolations(db),
  };
}

const ms = (n: number) => n.toFixed(1).padStart(8);
const verdict = (met: boolean) => (met ? "met" : "MISSED");

// --- The run ---------------------------------------------------------------

const databaseUrl = externalDatabaseUrl ?? (await toolDatabase(adminUrl, soakDb, { fresh: true }));
if (!externalUrl) console.log(`Database ${soakDb} created afresh.`);
const catalogue = await prepareDatabase(databaseUrl, { fresh: !externalUrl });

/** The shop under load: started here (one process, its heap read through the inspector), or one already running. */
async function startShop(): Promise<{ base: string; pid: number | null; inspectorPort: number | null; stop(): Promise<void> }> {
  if (externalUrl) {
    console.log(`Visiting the shop at ${externalUrl} (already running: memory is not measured).`);
    return { base: externalUrl, pid: null, inspectorPort: null, stop: async () => {} };
  }
  const port = process.env.SOAK_PORT ? Number(process.env.SOAK_PORT) : await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "tc-soak-"));
  console.log(`Starting the production server on http://127.0.0.1:${port} (PostgreSQL, LOG_LEVEL warn)…`);
  // The inspector, on loopback only, lets the soak read the server's heap; nothing is paused or profiled.
  const inspectorPort = await freePort();
  const server = await startShopServer(port, {
    NODE_OPTIONS: `--inspect=127.0.0.1:${inspectorPort}`,
    // One shop process: the memory verdict reads its heap through the inspector (ADR 0044 runs one per core by default).
    WEB_CONCURRENCY: "1",
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    COOKIE_SECRET: randomBytes(32).toString("hex"),
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
  });
  return {
    base: `http://127.0.0.1:${port}`,
    pid: server.pid!,
    inspectorPort,
    async stop() {
      await stopShopServer(server);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const shop = await startShop();
const base = shop.base;
const stopServer = () => shop.stop();
process.once("SIGINT", () => {
  console.log("\nInterrupted: stopping the server…");
  stopping = true;
  void stopServer().then(() => process.exit(130));
});

try {
  const pid = shop.pid;
  const serverCpuAtStart = pid === null ? 0 : cpuSeconds(pid);
  const ownCpuAtStart = process.cpuUsage();
  // Whether this process kept up: a late event loop here inflates every time measured.
  const ownLoopDelay = monitorEventLoopDelay({ resolution: 10 });
  ownLoopDelay.enable();
  const started = Date.now();
  const inspector = shop.inspectorPort === null ? null : await connectInspector(shop.inspectorPort);
  const memory: MemorySample[] = [];
  const sampleMemory = async () => {
    if (!inspector || pid === null) return;
    const s = (Date.now() - started) / 1000;
    const heapUsed = await inspector.evaluate<number>("process.memoryUsage().heapUsed");
    const rss = rssMb(pid);
    if (rss !== undefined) memory.push({ s, rssMb: rss, heapUsedMb: heapUsed / 1024 / 1024 });
  };
  await sampleMemory();
  const sampler = setInterval(() => void sampleMemory().catch((error: unknown) => console.log(`  (memory not sampled: ${String(error)})`)), MEMORY_SAMPLE_MS);
  const progress = setInterval(() => {
    const done = [...actions.values()].reduce((n, a) => n + a.count, 0);
    const errors = [...actions.values()].reduce((n, a) => n + a.errors, 0);
    const last = memory.at(-1);
    console.log(`  ${Math.round((Date.now() - started) / 1000)} s: ${done} requests, ${errors} errors, ${successfulOrders.size} orders, server RSS ${last?.rssMb.toFixed(0) ?? "?"} MB, heap ${last?.heapUsedMb.toFixed(0) ?? "?"} MB`);
  }, 15_000);

  console.log(`${visitors} visitors for ${durationS} s (think time ${THINK_MS[0]}–${THINK_MS[1]} ms, ${Math.round(checkoutShare * 100)}% of visits check out)…`);
  const until = started + durationS * 1000;
  // Each visitor arrives within the first think time, not all in the same millisecond.
  await Promise.all(Array.from({ length: visitors }, () => think().then(() => visitorLoop(base, catalogue, until))));
  clearInterval(sampler);
  clearInterval(progress);
  if (stopping) process.exit(130);
  const elapsedS = (Date.now() - started) / 1000;
  ownLoopDelay.disable();
  const ownCpu = process.cpuUsage(ownCpuAtStart);
  const load = {
    serverCores: pid === null ? null : (cpuSeconds(pid) - serverCpuAtStart) / elapsedS,
    loadGeneratorCores: (ownCpu.user + ownCpu.system) / 1e6 / elapsedS,
    loadGeneratorLoopDelayP99Ms: ownLoopDelay.percentile(99) / 1e6,
    machineCores: availableParallelism(),
    loadAverage1m: loadavg()[0]!,
  };
  console.log(`Done after ${elapsedS.toFixed(1)} s (the requests under way at ${durationS} s were finished).`);

  const database = await openPostgres(databaseUrl, { max: 1 });
  const orders = await checkOrders(database.db, catalogue.lastSeededOrderId).finally(() => database.close());
  inspector?.close();
  const rss = quarters(memory, "rssMb");
  const heap = quarters(memory, "heapUsedMb");
  // A running shop's memory is its own affair (several processes, maybe several machines).
  const memorySteady = inspector === null || (rss.steady && heap.steady);

  const rows = [...actions].map(([name, a]) => {
    const sorted = [...a.times].sort((x, y) => x - y);
    return { action: name, count: a.count, errors: a.errors, refused: a.refused, p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), firstError: a.firstError };
  });
  console.log(`\n${"action".padEnd(30)} ${"count".padStart(7)} ${"errors".padStart(6)} ${"refused".padStart(7)} ${"p50".padStart(8)} ${"p95".padStart(8)} ${"p99".padStart(8)}`);
  for (const row of rows) {
    console.log(`${row.action.padEnd(30)} ${String(row.count).padStart(7)} ${String(row.errors).padStart(6)} ${String(row.refused).padStart(7)} ${ms(row.p50)} ${ms(row.p95)} ${ms(row.p99)}`);
  }
  console.log("Times in ms, from the request to the end of the answer's body, over every answer (network failures have none).");
  for (const row of rows.filter((r) => r.firstError)) console.log(`  first error of ${row.action}: ${row.firstError}`);

  const errors = rows.reduce((n, r) => n + r.errors, 0);
  const requests = rows.reduce((n, r) => n + r.count, 0);
  const refused = rows.reduce((n, r) => n + r.refused, 0);
  const noLostOrders = orders.lost.length === 0 && orders.unanswered.length === 0 && orders.invariantViolations.length === 0;
  console.log(`\n${requests} requests in ${elapsedS.toFixed(0)} s (${Math.round(requests / elapsedS)}/s); ${refused} expected refusals (out of stock, price changed).`);
  console.log(
    `CPU over the run: the server ${load.serverCores === null ? "(not measured)" : load.serverCores.toFixed(2)} cores, this load generator ${load.loadGeneratorCores.toFixed(2)} ` +
      `(its event loop's delay p99 ${load.loadGeneratorLoopDelayP99Ms.toFixed(0)} ms); the machine has ${load.machineCores} cores, load average ${load.loadAverage1m.toFixed(1)}.`,
  );
  console.log("Verdicts:");
  // Against a running shop whose processes may be killed on purpose, errors are counted, not judged: the orders are.
  console.log(`  errors 0: ${errors} — ${externalUrl ? "reported only (a running shop)" : verdict(errors === 0)}`);
  console.log(
    `  lost orders 0: ${orders.successfulCheckouts} successful checkouts, ${orders.ordersInDatabase} orders made in the run in the database, ` +
      `${orders.lost.length} lost, ${orders.unanswered.length} without a successful answer — ${verdict(noLostOrders)}`,
  );
  for (const violation of orders.invariantViolations) console.log(`    invariant broken: ${violation}`);
  if (orders.invariantViolations.length === 0) console.log("    every order has lines and its totals are its lines' sums (server/test/invariants.ts: all hold)");
  if (inspector) {
    console.log(`  memory steady (the last quarter's mean RSS and heap each within ${STEADY_GROWTH * 100}% of the second quarter's) — ${verdict(memorySteady)}`);
    console.log(`    RSS:  ${describeQuarters(rss)}`);
    console.log(`    heap: ${describeQuarters(heap)}`);
  }

  writeBenchFile(outFile, {
    shop: externalUrl ?? "started by the soak",
    visitors,
    durationS,
    elapsedS,
    checkoutShare,
    thinkMs: THINK_MS,
    requests,
    load,
    actions: rows,
    verdicts: { errors: errors === 0, lostOrders: noLostOrders, memorySteady },
    orders,
    memory: { rss, heap, samples: memory },
  });
  process.exitCode = (errors === 0 || externalUrl) && noLostOrders && memorySteady ? 0 : 1;
} finally {
  await stopServer();
}

// /metrics from a shop of several processes (WEB_CONCURRENCY=2 on PostgreSQL):
// the production server in a child process, scraped several times over new
// connections, so the scrapes land on both processes in turn.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../scripts/lib/free-port.ts";
import { projectRoot, stopShopServer } from "../../../scripts/lib/shop-server.ts";
import { type TestDatabase, createTestDatabase } from "../../test/database.ts";
import { until } from "../../test/until.ts";

const onPostgres = !!process.env.TEST_DATABASE_URL;
let shop: ChildProcess | undefined;
let database: TestDatabase | undefined;
let port = 0;
const dataDir = mkdtempSync(path.join(tmpdir(), "tc-metrics-cluster-"));

/** A GET on a connection of its own (no keep-alive), so the cluster may hand it to either process. */
function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: "127.0.0.1", port, path: url, agent: false, headers: { connection: "close" } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    sent.on("error", reject);
    sent.end();
  });
}

const countOf = (text: string, line: string) => Number(text.split("\n").find((l) => l.startsWith(`${line} `))?.split(" ")[1]);

beforeAll(async () => {
  if (!onPostgres) return;
  database = await createTestDatabase();
  port = await freePort();
  shop = spawn(process.execPath, ["server/main.ts"], {
    cwd: projectRoot,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, NODE_ENV: "development", PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir, DATABASE_URL: database.url!, SEED_DEMO: "false", WEB_CONCURRENCY: "2", LOG_LEVEL: "warn" },
  });
  await until(async () => shop!.exitCode === null && (await get("/healthz").catch(() => null))?.status === 200, { what: "the shop", timeoutMs: 120_000, intervalMs: 300 });
}, 150_000);

afterAll(async () => {
  if (shop) await stopShopServer(shop);
  await database?.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("/metrics with several shop processes", () => {
  it.skipIf(!onPostgres)("counts the whole machine in every scrape, whichever process answers it, and reads the database gauges once", async () => {
    const before = countOf((await get("/metrics")).body, 'tradecounter_http_request_duration_seconds_count{route="/api/build",method="GET",status="200"}') || 0;
    for (let i = 0; i < 20; i++) expect((await get("/api/build")).status).toBe(200);
    const scrapes = await Promise.all([1, 2, 3, 4].map(() => get("/metrics")));
    for (const scrape of scrapes) {
      expect(scrape.status).toBe(200);
      // Each process saw about half the requests; every scrape shows them all.
      expect(countOf(scrape.body, 'tradecounter_http_request_duration_seconds_count{route="/api/build",method="GET",status="200"}') - before).toBe(20);
      // Read from the database by each process alike: the machine's value, not twice it.
      expect(countOf(scrape.body, "tradecounter_mail_outbox_pending")).toBe(0);
      // The pools are each process's own: their bounds add up.
      expect(countOf(scrape.body, 'tradecounter_db_pool_connections{state="max"}')).toBeGreaterThanOrEqual(2);
    }
  });
});

// The production server in a child process (`node server/main.ts`), since its
// instrumentations must patch http, pg and fastify before they load, with its
// traces sent to a small OTLP/HTTP receiver on loopback here.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { type Server, createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../scripts/lib/free-port.ts";
import { projectRoot, stopShopServer } from "../scripts/lib/shop-server.ts";
import { startTracing, traceLogMixin } from "./tracing.ts";
import { onLogLines } from "./test/log-lines.ts";
import { until } from "./test/until.ts";
import { type TestDatabase, createTestDatabase } from "./test/database.ts";

interface OtlpSpan {
  traceId: string;
  name: string;
  attributes?: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
}
interface OtlpExport {
  resourceSpans?: { resource?: { attributes?: OtlpSpan["attributes"] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

const received: OtlpExport[] = [];
const logLines: Record<string, unknown>[] = [];
let receiver: Server;
let shop: ChildProcess;
let base: string;
/** With TEST_DATABASE_URL, the server runs on a PostgreSQL database of its own, so its queries are traced too. */
let postgres: TestDatabase | null = null;
const dataDir = mkdtempSync(path.join(tmpdir(), "tc-trace-"));

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.method === "POST" && request.url === "/v1/traces") received.push(JSON.parse(Buffer.concat(chunks).toString("utf8")) as OtlpExport);
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const address = receiver.address();
  if (!address || typeof address !== "object") throw new Error("no receiver address");

  if (process.env.TEST_DATABASE_URL) postgres = await createTestDatabase();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  shop = spawn(process.execPath, ["server/main.ts"], {
    cwd: projectRoot,
    stdio: ["ignore", "pipe", "inherit"],
    env: {
      ...process.env,
      NODE_ENV: "development",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      ...(postgres ? { DATABASE_URL: postgres.url! } : {}),
      SEED_DEMO: "false",
      LOG_LEVEL: "info",
      WEB_CONCURRENCY: "1",
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${address.port}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "200",
      OTEL_SERVICE_NAME: "tradecounter-test",
    },
  });
  onLogLines(shop.stdout!, (record) => logLines.push(record));
  await until(async () => shop.exitCode === null && (await fetch(`${base}/healthz`).catch(() => null))?.ok, { what: "the shop", timeoutMs: 120_000, intervalMs: 300 });
}, 150_000);

afterAll(async () => {
  if (shop) await stopShopServer(shop);
  await new Promise((resolve) => receiver?.close(resolve));
  await postgres?.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

const spans = () => received.flatMap((e) => (e.resourceSpans ?? []).flatMap((r) => (r.scopeSpans ?? []).flatMap((s) => s.spans ?? [])));
const attribute = (span: OtlpSpan, key: string) => span.attributes?.find((a) => a.key === key)?.value.stringValue;

describe("tracing with OTEL_EXPORTER_OTLP_ENDPOINT set", () => {
  it("sends a request's spans to the OTLP receiver, named by its route, and logs its trace id", async () => {
    const answer = await fetch(`${base}/api/build?traced=1`);
    expect(answer.status).toBe(200);
    const requestId = answer.headers.get("x-request-id");
    expect(requestId).toBeTruthy();

    // The HTTP server span, with the route Fastify matched, and Fastify's own span in the same trace.
    const server = await until(() => spans().find((s) => attribute(s, "http.route") === "/api/build" && (attribute(s, "url.query") ?? attribute(s, "http.target") ?? "").includes("traced=1")), { what: "the request's span at the receiver", timeoutMs: 30_000 });
    expect(spans().filter((s) => s.traceId === server.traceId && s !== server).length).toBeGreaterThan(0);
    const resource = received.flatMap((e) => e.resourceSpans ?? []).flatMap((r) => r.resource?.attributes ?? []);
    expect(resource.find((a) => a.key === "service.name")?.value.stringValue).toBe("tradecounter-test");

    // Fastify's "request completed" line for this request carries the same trace id.
    const line = await until(() => logLines.find((l) => l.reqId === requestId && l.msg === "request completed"), { what: "the request's log line" });
    expect(line.trace_id).toBe(server.traceId);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)("traces a request's queries on PostgreSQL, in the request's trace", async () => {
    expect((await fetch(`${base}/api/categories?traced=pg`)).status).toBe(200);
    const server = await until(() => spans().find((s) => attribute(s, "http.route") === "/api/categories" && (attribute(s, "url.query") ?? attribute(s, "http.target") ?? "").includes("traced=pg")), { what: "the request's span" });
    await until(() => spans().find((s) => s.traceId === server.traceId && s.name.startsWith("pg.query")), { what: "a query's span in the request's trace" });
  });

  it("leaves health checks untraced", async () => {
    expect((await fetch(`${base}/healthz`)).ok).toBe(true);
    await fetch(`${base}/api/build?after-health=1`);
    await until(() => spans().find((s) => (attribute(s, "url.query") ?? attribute(s, "http.target") ?? "").includes("after-health")), { what: "the later request's span" });
    expect(spans().filter((s) => attribute(s, "http.route") === "/healthz")).toEqual([]);
  });
});

describe("tracing without OTEL_EXPORTER_OTLP_ENDPOINT", () => {
  it("starts nothing and adds nothing to the log lines", async () => {
    expect(await startTracing({})).toBe(false);
    expect(await startTracing({ OTEL_EXPORTER_OTLP_ENDPOINT: " " })).toBe(false);
    expect(traceLogMixin()).toBeUndefined();
  });
});

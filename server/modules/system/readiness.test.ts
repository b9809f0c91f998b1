// Readiness (issue 33): /readyz answers 200 while the database and, when
// REDIS_URL is set, Redis answer within READY_TIMEOUT_MS, and 503 naming which
// does not, while /healthz (liveness) stays 200. Redis is the real one on this
// machine, reached through a TCP relay on loopback that the test can cut (the
// connection refused) or stall (connected, never answering).
import net from "node:net";
import { describe, expect, it } from "vitest";
import { shopProcesses, testDatabaseForFile } from "../../test/app.ts";
import { READY_TIMEOUT_MS } from "./routes.ts";

const redisPort = Number(new URL(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379").port || 6379);

/** A relay to Redis: `stall` holds the bytes (the client waits), `flow` passes them on again, `cut` closes every connection and the port. */
async function relay() {
  const sockets = new Set<net.Socket>();
  // Held while stalled and passed on, in order, when the relay flows again: the conversation stays whole.
  const held: (() => void)[] = [];
  let stalled = false;
  const pass = (to: net.Socket) => (chunk: Buffer) => (stalled ? held.push(() => to.write(chunk)) : to.write(chunk));
  const server = net.createServer((client) => {
    const upstream = net.connect(redisPort, "127.0.0.1");
    sockets.add(client).add(upstream);
    client.on("data", pass(upstream));
    upstream.on("data", pass(client));
    for (const s of [client, upstream]) s.on("error", () => {}).on("close", () => (client.destroy(), upstream.destroy()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `redis://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    stall: () => void (stalled = true),
    flow: () => {
      stalled = false;
      for (const send of held.splice(0)) send();
    },
    cut: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}

const own = testDatabaseForFile({ seeded: false, dirPrefix: "tc-ready-" });
const shop = shopProcesses(own);

describe("/readyz", () => {
  it("is ready without Redis when REDIS_URL is unset", async () => {
    const app = await shop();
    const ready = await app.inject({ url: "/readyz" });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: "ready", database: own.database.kind, redis: "not used" });
    expect(ready.headers["cache-control"]).toBe("no-store");
  });

  it("asks Redis too when it is set: not ready while it stalls past the limit or is gone, ready again when it answers", async () => {
    const redis = await relay();
    const app = await shop({ REDIS_URL: redis.url });
    expect((await app.inject({ url: "/readyz" })).json()).toMatchObject({ status: "ready", redis: "ok" });

    redis.stall();
    const started = Date.now();
    const stalled = await app.inject({ url: "/readyz" });
    expect(stalled.statusCode).toBe(503);
    expect(stalled.json()).toEqual({ message: "Redis unavailable" });
    expect(stalled.headers["retry-after"]).toBeDefined();
    // It gave up at the limit rather than waiting on the stalled connection.
    expect(Date.now() - started).toBeGreaterThanOrEqual(READY_TIMEOUT_MS - 50);
    // Liveness is another question: the process is up.
    expect((await app.inject({ url: "/healthz" })).statusCode).toBe(200);
    redis.flow();
    expect((await app.inject({ url: "/readyz" })).statusCode).toBe(200);

    await redis.cut();
    const gone = await app.inject({ url: "/readyz" });
    expect(gone.statusCode).toBe(503);
    expect(gone.json()).toEqual({ message: "Redis unavailable" });
  });
});

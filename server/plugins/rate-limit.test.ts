import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RedisClient, RedisUnavailableError, connectRedis, redact } from "../lib/redis.ts";
import { type LimiterStore, memoryLimiterStore, redisLimiterStore } from "./rate-limit.ts";

// The Redis store runs against a real Redis: TEST_REDIS_URL, or the local one.
const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
// This run's own keys, deleted afterwards.
const prefix = `tc:rl:test-${process.pid}-${randomBytes(4).toString("hex")}:`;
const secret = "s".repeat(32);

interface Logged {
  level: "warn" | "info";
  msg: string;
}
function recordingLog(into: Logged[] = []) {
  return {
    into,
    warn: (_obj: object, msg: string) => void into.push({ level: "warn", msg }),
    info: (_obj: object | string, msg?: string) => void into.push({ level: "info", msg: msg ?? String(_obj) }),
  };
}

let client: RedisClient;
beforeAll(async () => {
  client = await connectRedis(redisUrl, recordingLog());
});
afterAll(async () => {
  const keys: string[] = [];
  for await (const batch of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) keys.push(...batch);
  if (keys.length) await client.del(keys);
  await client.close();
});

let names = 0;
/** A limit name of its own per test, so tests never see one another's keys. */
const rule = (max: number, windowMs: number) => ({ name: `t${++names}`, max, windowMs });

const stores: [string, (now: () => number) => LimiterStore][] = [
  ["memory", (now) => memoryLimiterStore({ now })],
  ["redis", (now) => redisLimiterStore(client, { prefix, secret, now, log: recordingLog() })],
];

describe.each(stores)("the %s limiter store", (_kind, makeStore) => {
  const t0 = 1_800_000_000_000;
  let clock = t0;
  let store: LimiterStore;
  beforeEach(() => {
    clock = t0;
    store = makeStore(() => clock);
  });

  it("allows max attempts in the window, then says how long to wait", async () => {
    const limiter = store.limiter(rule(3, 60_000));
    for (let i = 0; i < 3; i++) {
      expect(await limiter.retryAfter("k")).toBe(0);
      await limiter.hit("k");
    }
    expect(await limiter.retryAfter("k")).toBe(60);
    clock += 20_500;
    expect(await limiter.retryAfter("k")).toBe(40); // 39.5 s, rounded up
    clock += 39_499;
    expect(await limiter.retryAfter("k")).toBe(1); // 1 ms left still answers 1 s
    clock += 1;
    expect(await limiter.retryAfter("k")).toBe(0);
  });

  it("slides: each attempt leaves the window on its own, and the wait follows the newest max attempts", async () => {
    const limiter = store.limiter(rule(2, 60_000));
    await limiter.hit("k");
    clock += 10_000;
    await limiter.hit("k");
    clock += 10_000;
    await limiter.hit("k"); // over the limit: still counted
    // The 2nd newest attempt (at 10 s) decides: free again at 70 s.
    expect(await limiter.retryAfter("k")).toBe(50);
    clock = t0 + 70_000;
    expect(await limiter.retryAfter("k")).toBe(0);
    await limiter.hit("k");
    // Now the attempts at 20 s and 70 s: free at 80 s.
    expect(await limiter.retryAfter("k")).toBe(10);
  });

  it("attempt records only what it allows, and concurrent attempts cannot overshoot", async () => {
    const limiter = store.limiter(rule(3, 60_000));
    expect(await limiter.attempt("k")).toBe(0);
    const answers = await Promise.all(Array.from({ length: 10 }, () => limiter.attempt("k")));
    expect(answers.filter((w) => w === 0)).toHaveLength(2);
    expect(answers.filter((w) => w === 60)).toHaveLength(8);
    // Refused attempts were not recorded: the window ends 60 s after the first three.
    clock += 60_000;
    expect(await limiter.attempt("k")).toBe(0);
  });

  it("reset clears one key and nothing else", async () => {
    const limiter = store.limiter(rule(1, 60_000));
    await limiter.hit("a");
    await limiter.hit("b");
    await limiter.reset("a");
    expect(await limiter.retryAfter("a")).toBe(0);
    expect(await limiter.retryAfter("b")).toBe(60);
    await limiter.reset("never seen");
  });

  it("keeps keys, and limits of different names, apart", async () => {
    const shared = rule(1, 60_000);
    const login = store.limiter(shared);
    const recovery = store.limiter({ ...shared, name: `${shared.name}-other` });
    await login.hit("alex@example.com|192.0.2.1");
    expect(await login.retryAfter("alex@example.com|192.0.2.1")).toBe(60);
    expect(await login.retryAfter("alex@example.com|192.0.2.2")).toBe(0);
    expect(await login.retryAfter("ALEX@example.com|192.0.2.1")).toBe(0);
    expect(await recovery.retryAfter("alex@example.com|192.0.2.1")).toBe(0);
  });
});

describe("the redis limiter store", () => {
  it("names keys by limit and an HMAC of the key, never the email, and lets them expire with the window", async () => {
    const store = redisLimiterStore(client, { prefix, secret, log: recordingLog() });
    const limiter = store.limiter({ name: "login-keys", max: 2, windowMs: 60_000 });
    for (let i = 0; i < 5; i++) await limiter.hit("someone@example.com|192.0.2.7");
    const keys: string[] = [];
    for await (const batch of client.scanIterator({ MATCH: `${prefix}login-keys:*` })) keys.push(...batch);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}login-keys:[A-Za-z0-9_-]{43}$`));
    expect(keys[0]).not.toContain("someone");
    // Only the newest max attempts are kept, and the key goes one window after the last.
    expect(await client.zCard(keys[0]!)).toBe(2);
    const ttl = await client.pTTL(keys[0]!);
    expect(ttl).toBeGreaterThan(55_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    await limiter.reset("someone@example.com|192.0.2.7");
    expect(await client.exists(keys[0]!)).toBe(0);
  });

  it("is shared by processes: two clients see one count, and concurrent attempts through both stop at max", async () => {
    const other = await connectRedis(redisUrl, recordingLog());
    try {
      const a = redisLimiterStore(client, { prefix, secret, log: recordingLog() }).limiter({ name: "shared", max: 5, windowMs: 60_000 });
      const b = redisLimiterStore(other, { prefix, secret, log: recordingLog() }).limiter({ name: "shared", max: 5, windowMs: 60_000 });
      const key = `k-${randomBytes(4).toString("hex")}`;
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).attempt(key)));
      expect(answers.filter((w) => w === 0)).toHaveLength(5);
      expect(await b.retryAfter(key)).toBeGreaterThan(0);
      await a.reset(key);
      expect(await b.retryAfter(key)).toBe(0);
    } finally {
      await other.close();
    }
  });

  it("refuses to start when Redis does not answer, with a message that names REDIS_URL and hides the password", async () => {
    const port = await freePort();
    const url = `redis://:hunter2@127.0.0.1:${port}`;
    const error = await connectRedis(url, recordingLog()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedisUnavailableError);
    expect((error as Error).message).toMatch(/^Could not connect to Redis at REDIS_URL \(redis:\/\/:\*\*\*@127\.0\.0\.1:\d+\): .*ECONNREFUSED/);
    expect((error as Error).message).not.toContain("hunter2");
    expect(redact("redis://cache:6379")).toBe("redis://cache:6379");
  });
});

// Outages need a Redis of our own to stop and start again.
const redisServer = spawnSync("redis-server", ["--version"]).status === 0;

describe.skipIf(!redisServer)("the redis limiter store while Redis is away", () => {
  let port: number;
  let server: ChildProcess | undefined;
  const start = async () => {
    server = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    for (let i = 0; i < 50; i++) {
      const probe = spawnSync("redis-cli", ["-p", String(port), "ping"], { encoding: "utf8" });
      if (probe.stdout.trim() === "PONG") return;
      await sleep(100);
    }
    throw new Error("the test's redis-server did not start");
  };
  const stop = async () => {
    const exited = new Promise((resolve) => server?.once("exit", resolve));
    server?.kill("SIGKILL");
    await exited;
    server = undefined;
  };
  beforeAll(async () => {
    port = await freePort();
    await start();
  });
  afterAll(async () => {
    if (server) await stop();
  });

  it("falls back to this process's memory with one warning, keeps limiting, and shares again when Redis is back", async () => {
    const log = recordingLog();
    const own = await connectRedis(`redis://127.0.0.1:${port}`, recordingLog());
    try {
      const limiter = redisLimiterStore(own, { prefix, secret, log, retryAfterFailureMs: 0 }).limiter({ name: "outage", max: 2, windowMs: 60_000 });
      expect(await limiter.attempt("k")).toBe(0);
      await stop();
      // Sign-in keeps working, and is still limited, in memory.
      expect(await limiter.attempt("k")).toBe(0);
      expect(await limiter.attempt("k")).toBe(0);
      expect(await limiter.attempt("k")).toBe(60);
      expect(log.into.filter((l) => l.level === "warn")).toHaveLength(1);
      expect(log.into[0]!.msg).toMatch(/Redis is unreachable/);

      await start();
      for (let i = 0; i < 100 && !own.isReady; i++) await sleep(50);
      expect(own.isReady).toBe(true);
      // The restarted Redis holds nothing: the shared count starts again.
      expect(await limiter.attempt("k")).toBe(0);
      expect(log.into.at(-1)).toEqual({ level: "info", msg: "Redis is back: rate limits are shared again" });
    } finally {
      own.destroy();
    }
  });

  it("does not wait on a Redis that takes the connection but does not answer", async () => {
    const log = recordingLog();
    const own = await connectRedis(`redis://127.0.0.1:${port}`, recordingLog());
    const pauser = await connectRedis(`redis://127.0.0.1:${port}`, recordingLog());
    try {
      const limiter = redisLimiterStore(own, { prefix, secret, log, timeoutMs: 200, retryAfterFailureMs: 60_000 }).limiter({ name: "hung", max: 2, windowMs: 60_000 });
      await pauser.sendCommand(["CLIENT", "PAUSE", "3000", "ALL"]);
      const started = Date.now();
      expect(await limiter.attempt("k")).toBe(0);
      expect(Date.now() - started).toBeLessThan(1_500);
      // Within the pause after a failure, Redis is not asked at all.
      const again = Date.now();
      expect(await limiter.attempt("k")).toBe(0);
      expect(Date.now() - again).toBeLessThan(100);
      expect(log.into.filter((l) => l.level === "warn")).toHaveLength(1);
    } finally {
      own.destroy();
      pauser.destroy();
    }
  });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A port nothing listens on (taken by the OS, then let go). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { connectRedis } from "../../lib/redis.ts";
import { TestBrowser } from "../../test/browser.ts";
import { shopProcesses, testDatabaseForFile } from "../../test/app.ts";

// Two processes of one shop: one database, each its own app. With REDIS_URL
// they share their rate limits; without it each counts on its own.
const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const prefix = `tc:rl:test-${process.pid}-${randomBytes(4).toString("hex")}:`;

const shopProcess = shopProcesses(testDatabaseForFile({ seeded: true, dirPrefix: "tc-test-" }), { rateLimitPrefix: prefix });

afterAll(async () => {
  const redis = await connectRedis(redisUrl, { warn: () => {}, info: () => {} });
  const keys: string[] = [];
  for await (const batch of redis.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) keys.push(...batch);
  if (keys.length) await redis.del(keys);
  await redis.close();
});

async function register(app: FastifyInstance) {
  const browser = new TestBrowser(app, "192.0.2.10");
  await browser.csrf();
  const email = `shared.${Date.now()}.${randomBytes(3).toString("hex")}@example.co.uk`;
  const password = "a long enough secret";
  const res = await browser.register("Sam", "Shared", email, password);
  expect(res.statusCode).toBe(201);
  return { email, password };
}

/** Five wrong passwords on `a` from one address, then the right one on `b` from the same address. */
async function guessOnOneSignInOnOther(a: FastifyInstance, b: FastifyInstance) {
  const { email, password } = await register(a);
  const attacker = new TestBrowser(a, "192.0.2.66");
  await attacker.csrf();
  for (let i = 0; i < 5; i++) {
    expect((await attacker.post("/api/auth/login", { email, password: `guess ${i}` })).statusCode).toBe(422);
  }
  const sameAddress = new TestBrowser(b, "192.0.2.66");
  await sameAddress.csrf();
  return { email, password, answer: await sameAddress.post("/api/auth/login", { email, password }) };
}

describe("rate limits across processes", () => {
  it("with REDIS_URL, five failures on one process lock the email from that address on the other", async () => {
    const one = await shopProcess({ REDIS_URL: redisUrl });
    const two = await shopProcess({ REDIS_URL: redisUrl });
    const { email, password, answer } = await guessOnOneSignInOnOther(one, two);
    expect(answer.statusCode).toBe(429);
    const wait = Number(answer.headers["retry-after"]);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(answer.json()).toEqual({ message: `Too many attempts. Please try again in ${wait} seconds.` });
    // Locked on the first process too; the owner, from their own address, is not.
    const again = new TestBrowser(one, "192.0.2.66");
    await again.csrf();
    expect((await again.post("/api/auth/login", { email, password })).statusCode).toBe(429);
    const owner = new TestBrowser(two, "192.0.2.10");
    await owner.csrf();
    expect((await owner.post("/api/auth/login", { email, password })).statusCode).toBe(200);
  });

  it("without REDIS_URL, each process counts on its own", async () => {
    const one = await shopProcess({});
    const two = await shopProcess({});
    const { answer } = await guessOnOneSignInOnOther(one, two);
    expect(answer.statusCode).toBe(200);
  });

  it("refuses to start when REDIS_URL does not answer", async () => {
    await expect(shopProcess({ REDIS_URL: "redis://127.0.0.1:1" })).rejects.toThrow(/^Could not connect to Redis at REDIS_URL \(redis:\/\/127\.0\.0\.1:1\)/);
  });
});

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_CHECK_INTERVAL_MS, RELOAD_GUARD_MS, fetchLiveBuildId, isChunkLoadError, reloadOnce } from "./new-build.ts";

function memoryStorage() {
  const map = new Map<string, string>();
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v) };
}

describe("reloadOnce", () => {
  it("reloads once, then not again within 10 seconds, then again after", () => {
    const storage = memoryStorage();
    let now = 1_000_000;
    let reloads = 0;
    const deps = { storage, now: () => now, reload: () => void reloads++ };
    expect(reloadOnce(deps)).toBe(true);
    now += RELOAD_GUARD_MS - 1;
    expect(reloadOnce(deps)).toBe(false);
    now += 1;
    expect(reloadOnce(deps)).toBe(true);
    expect(reloads).toBe(2);
  });

  it("uses the specification's constants", () => {
    expect(BUILD_CHECK_INTERVAL_MS).toBe(3_600_000);
    expect(RELOAD_GUARD_MS).toBe(10_000);
  });
});

describe("isChunkLoadError", () => {
  it("recognises a failed lazy chunk in Chromium, Firefox and Safari wording", () => {
    expect(isChunkLoadError(new TypeError("Failed to fetch dynamically imported module: /assets/x.js"))).toBe(true);
    expect(isChunkLoadError(new TypeError("error loading dynamically imported module"))).toBe(true);
    expect(isChunkLoadError(new TypeError("Importing a module script failed."))).toBe(true);
    expect(isChunkLoadError(new Error("Cannot read properties of undefined"))).toBe(false);
    expect(isChunkLoadError("Failed to fetch dynamically imported module")).toBe(false);
  });
});

describe("fetchLiveBuildId", () => {
  let base = "";
  let answer: { status: number; body: string } = { status: 200, body: '{"buildId":"abc123"}' };
  const server = createServer((req, res) => {
    res.writeHead(req.url === "/api/build" ? answer.status : 404, { "content-type": "application/json" });
    res.end(answer.body);
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("reads the live build id", async () => {
    answer = { status: 200, body: '{"buildId":"abc123"}' };
    expect(await fetchLiveBuildId(base)).toBe("abc123");
  });

  it("answers null when the server cannot tell", async () => {
    answer = { status: 503, body: '{"message":"down"}' };
    expect(await fetchLiveBuildId(base)).toBeNull();
    answer = { status: 200, body: "not json" };
    expect(await fetchLiveBuildId(base)).toBeNull();
    expect(await fetchLiveBuildId("http://127.0.0.1:1")).toBeNull();
  });
});

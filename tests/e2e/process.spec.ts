// The server as a process: clean start on an empty DATA_DIR, a clear refusal
// for a second process on the same embedded database, a clean close on
// SIGTERM, and a non-zero exit with one message per bad variable.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort, node, root } from "./server-process.ts";

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startServer(env: Record<string, string>): Run {
  const child = spawn(node, ["server/main.ts"], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", HOST: "127.0.0.1", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (c) => (output += c));
  child.stderr?.on("data", (c) => (output += c));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/**
 * Waits for the server to answer. A first start on an empty DATA_DIR migrates
 * and seeds (its demo photos come after it answers, ADR 0060), more slowly
 * while the other browser worker and its shop share the machine: the deadline is
 * generous, since this test is about the process, not its speed.
 */
async function waitForHealth(url: string, run: Run, deadlineMs = 60_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    if (run.child.exitCode !== null) throw new Error(`server exited early:\n${run.output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not become healthy:\n${run.output()}`);
}

test.describe("the server process", () => {
  test.describe.configure({ mode: "serial", timeout: 90_000 });
  const COLD_START_MS = 180_000;
  let dataDir = "";
  test.beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), "tradecounter-process-"));
  });
  test.afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test("starts on an empty DATA_DIR, refuses a second process there, and closes cleanly on SIGTERM", async () => {
    test.setTimeout(COLD_START_MS + 60_000);
    const port = await freePort();
    const first = startServer({ PORT: String(port), DATA_DIR: dataDir });
    await waitForHealth(`http://127.0.0.1:${port}/readyz`, first, COLD_START_MS);
    const ready = await (await fetch(`http://127.0.0.1:${port}/readyz`)).json();
    expect(ready).toEqual({ status: "ready", database: "pglite", redis: "not used" });
    expect(existsSync(path.join(dataDir, "tradecounter.lock"))).toBe(true);
    // Seeded on first start: a category page renders.
    const category = await fetch(`http://127.0.0.1:${port}/category/power-tools/cordless-drills`);
    expect(category.status).toBe(200);

    const second = startServer({ PORT: String(await freePort()), DATA_DIR: dataDir });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain("is already open in another process");

    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    expect(existsSync(path.join(dataDir, "tradecounter.lock"))).toBe(false);
  });

  test("a later start reopens the same database", async () => {
    const port = await freePort();
    const again = startServer({ PORT: String(port), DATA_DIR: dataDir });
    await waitForHealth(`http://127.0.0.1:${port}/readyz`, again);
    const res = await fetch(`http://127.0.0.1:${port}/api/categories`);
    expect(((await res.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    again.child.kill("SIGINT");
    expect(await again.exited).toBe(0);
  });

  test("stops with one clear message per bad variable", async () => {
    const run = startServer({ PORT: "eighty", DATABASE_URL: "mysql://nope", DATA_DIR: dataDir, NODE_ENV: "production" });
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain("PORT must be a whole number from 0 to 65535");
    expect(run.output()).toContain("DATABASE_URL must be a postgres:// or postgresql:// URL");
    expect(run.output()).toContain("COOKIE_SECRET is required when NODE_ENV=production");
  });
});

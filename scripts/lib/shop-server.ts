import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "./free-port.ts";

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * The production server (`server/main.ts`) in a process of its own, as an
 * operator runs it, resolved once `/healthz` answers. The caller kills it.
 */
export async function startShopServer(port: number, env: Record<string, string>, timeoutMs = 120_000): Promise<ChildProcess> {
  // BENCH_CPU_PROF=DIR: every shop process (the primary and the workers it forks, which inherit its
  // flags) writes a V8 CPU profile into DIR when it stops; NODE_OPTIONS may not carry --cpu-prof.
  const profile = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...profile, "server/main.ts"], {
    cwd: projectRoot,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: "warn", ...env },
  });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error("The server stopped while starting.");
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill();
  throw new Error(`The server did not start within ${timeoutMs / 1000} s.`);
}

/**
 * The shop processes a primary forked (ADR 0044): its children running
 * server/main.ts. None when it serves alone (WEB_CONCURRENCY=1, PGlite).
 */
export function shopWorkerPids(primaryPid: number): number[] {
  // pgrep exits 1 when nothing matches.
  const found = spawnSync("pgrep", ["-P", String(primaryPid), "-f", "server/main.ts"], { encoding: "utf8" });
  if (found.error || (found.status !== 0 && found.status !== 1)) throw new Error(`pgrep could not list the shop processes: ${found.error?.message ?? found.stderr}`);
  return found.stdout.split("\n").filter(Boolean).map(Number);
}

/** Stops the server and waits until it has gone (its port and, on PGlite, its lock are free). */
export async function stopShopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await gone;
  clearTimeout(timer);
}

/**
 * The shop a tool is pointed at: the one at `givenUrl` when the operator names
 * one, else the production build with the demo shop on a temporary DATA_DIR.
 * `stop()` stops a shop started here and removes its data, only once the
 * server has exited, or its shutdown races the removal.
 */
export async function shopForTool(givenUrl: string | undefined, env: Record<string, string> = {}): Promise<{ base: string; stop(): Promise<void> }> {
  if (givenUrl) return { base: givenUrl.replace(/\/$/, ""), stop: async () => {} };
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "tc-shop-"));
  console.log("Starting the shop (production build, demo data on PGlite)…");
  try {
    // The tools audit the demo as it stands once made: its photos before it listens (ADR 0060), not while they look.
    const server = await startShopServer(port, { DATA_DIR: dataDir, DEMO_PHOTOS: "before-start", ...env }, 180_000);
    return {
      base: `http://127.0.0.1:${port}`,
      async stop() {
        await stopShopServer(server);
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

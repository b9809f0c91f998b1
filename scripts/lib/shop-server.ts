import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * The production server (`server/main.ts`) in a process of its own, as an
 * operator runs it, resolved once `/healthz` answers. The caller kills it.
 */
export async function startShopServer(port: number, env: Record<string, string>, timeoutMs = 120_000): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["server/main.ts"], {
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

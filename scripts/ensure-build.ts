// Builds the storefront when the production build is missing or older than
// its sources, so `npm start` never serves stale code. `--force` always builds.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const output = path.join(root, "build/server/index.js");
const inputs = ["app", "public", "vite.config.ts", "scripts/lib/precompress.ts", "react-router.config.ts", "package-lock.json"];

function newest(p: string): number {
  if (!existsSync(p)) return 0;
  const stat = statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = stat.mtimeMs;
  for (const entry of readdirSync(p)) max = Math.max(max, newest(path.join(p, entry)));
  return max;
}

const force = process.argv.includes("--force");
const builtAt = existsSync(output) ? statSync(output).mtimeMs : 0;
const sourcesAt = Math.max(...inputs.map((i) => newest(path.join(root, i))));

if (force || builtAt === 0 || sourcesAt > builtAt) {
  console.log(builtAt === 0 ? "Building the storefront (first start)…" : "Building the storefront…");
  // Always a production build: a caller's NODE_ENV (Vitest sets "test") would otherwise give React's development bundle.
  const result = spawnSync("npx", ["--no-install", "react-router", "build"], { cwd: root, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
  process.exit(result.status ?? 1);
}

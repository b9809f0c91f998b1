// Vitest's global setup: the storefront's production build, made once before
// any test file runs when build/ is missing or older than its sources
// (scripts/ensure-build.ts, as `npm start` does). `npm test` runs the unit tests
// before the browser tests build, and the tests of pages (the page cache) and of
// the bundle budget read the build: one build here, never two at once in
// parallel test files.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export default function ensureBuild(): void {
  const built = spawnSync(process.execPath, [fileURLToPath(new URL("ensure-build.ts", import.meta.url))], { encoding: "utf8" });
  if (built.status !== 0) throw new Error(`The storefront did not build:\n${built.stdout}\n${built.stderr}`);
}

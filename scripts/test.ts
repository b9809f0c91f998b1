// `npm test`: the type check, the lint and the storefront's build side by side; then the unit and API
// suites on PGlite and, with TEST_DATABASE_URL set, beside them the
// database-backed suites again on PostgreSQL (`npm run test:db`, one worker);
// then the browser tests. The PGlite suites run on PGlite whatever
// TEST_DATABASE_URL says, so that the two passes differ.
//
// Why those two side by side (ADR 0063): every stage is bound by the two cores
// but for a tenth of the PGlite stage and a quarter of the PostgreSQL pass, which
// waits on its server; together they fill each other's gaps. The browser tests
// run alone: beside the PostgreSQL pass the load average once passed 12, the
// browser tests timed out, and the tests that time a killed shop failed.
//
// Every step's output is kept as it is shown, and the test runners also write
// JSON reports (TEST_REPORT_FILE, read by vitest.config.ts and
// playwright.config.ts): a failed run ends with each stage's time and then the
// failing tests' names and first error lines (scripts/lib/test-summary.ts), so
// it can be read from its last lines alone.
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Failure, formatFailures, formatTimes, playwrightFailures, vitestFailures } from "./lib/test-summary.ts";

interface Step {
  name: string;
  script: string;
  env?: NodeJS.ProcessEnv;
  /** Which JSON report its runner writes, for the failures at the end; none for the type check and lint. */
  report?: "vitest" | "playwright";
  /** Its output to this file only, rather than also to the terminal: for a step that runs beside another. */
  quiet?: boolean;
}

const root = path.resolve(import.meta.dirname, "..");
const dir = mkdtempSync(path.join(tmpdir(), "tc-test-"));
const logOf = (step: Step) => path.join(dir, `${step.script.replace(/\W/g, "-")}.log`);
const reportOf = (step: Step) => path.join(dir, `${step.script.replace(/\W/g, "-")}.json`);
const times: { name: string; seconds: number; ok: boolean }[] = [];
const failed: Step[] = [];

const startedAt = Date.now();
const elapsed = () => `${Math.round((Date.now() - startedAt) / 1000)}s`;

function run(step: Step): Promise<number> {
  const started = Date.now();
  return new Promise((resolve) => {
    const out = createWriteStream(logOf(step));
    const env = { ...(step.env ?? process.env), ...(step.report ? { TEST_REPORT_FILE: reportOf(step) } : {}) };
    const child = spawn("npm", ["run", "--silent", step.script], { env, stdio: ["ignore", "pipe", "pipe"] });
    for (const stream of [child.stdout, child.stderr]) {
      stream.on("data", (chunk: Buffer) => {
        out.write(chunk);
        if (!step.quiet) process.stdout.write(chunk);
      });
    }
    child.on("close", (code, signal) => {
      out.end();
      const status = code ?? (signal ? 1 : 0);
      times.push({ name: step.name, seconds: Math.round((Date.now() - started) / 1000), ok: status === 0 });
      if (status !== 0) failed.push(step);
      resolve(status);
    });
  });
}

/** A failed step's failures from its runner's report, or, without one, the last lines of what it printed. */
function failuresOf(step: Step): string[] {
  const report = reportOf(step);
  if (step.report && existsSync(report)) {
    let failures: Failure[] = [];
    try {
      const json: unknown = JSON.parse(readFileSync(report, "utf8"));
      failures = step.report === "vitest" ? vitestFailures(json as Parameters<typeof vitestFailures>[0], root) : playwrightFailures(json as Parameters<typeof playwrightFailures>[0]);
    } catch {
      // A report cut short (the runner was killed): its output's tail says more.
    }
    if (failures.length) return formatFailures(step.name, failures);
  }
  const tail = existsSync(logOf(step)) ? readFileSync(logOf(step), "utf8").trimEnd().split("\n").slice(-25) : [];
  return [`✘ ${step.name}: its last lines`, ...tail.map((l) => `  ${l}`)];
}

function finish(ok: boolean): never {
  console.log(`\n${formatTimes(times)}`);
  if (!ok) {
    console.error(`\nnpm test failed after ${elapsed()}: what failed, stage by stage\n`);
    for (const step of failed) console.error(failuresOf(step).join("\n"));
  } else {
    console.log(`\nnpm test passed in ${elapsed()}${postgres ? "" : " (set TEST_DATABASE_URL to run the database-backed suites on PostgreSQL too)"}`);
  }
  rmSync(dir, { recursive: true, force: true });
  process.exit(ok ? 0 : 1);
}

/** Runs the steps at once; the first one's output goes to the terminal as it comes, the others' after it. */
async function together(steps: Step[]): Promise<boolean> {
  const quietAfterFirst = steps.map((s, i) => (i === 0 ? s : { ...s, quiet: true }));
  console.log(`\n--- ${quietAfterFirst.map((s) => s.name).join(", beside it, ")} (${elapsed()})`);
  const codes = await Promise.all(quietAfterFirst.map(run));
  for (const [i, step] of quietAfterFirst.entries()) {
    if (step.quiet) {
      console.log(`\n--- ${step.name}: its output (${elapsed()})`);
      process.stdout.write(readFileSync(logOf(step), "utf8"));
    }
    if (codes[i] !== 0) console.error(`\n✘ ${step.name} failed (exit ${codes[i]})`);
  }
  return codes.every((c) => c === 0);
}

// Node keeps the code it has compiled (the app's TypeScript too) for the next process: the
// suites start the shop, its CLI and its scripts as processes some hundred times, each
// spending about half a second less of a core on its modules.
process.env.NODE_COMPILE_CACHE ??= path.join(root, "node_modules", ".cache", "node-compile-cache");

const postgres = process.env.TEST_DATABASE_URL;
const onPglite: NodeJS.ProcessEnv = { ...process.env };
delete onPglite.TEST_DATABASE_URL;

const stages: Step[][] = [
  [
    { name: "type check", script: "typecheck" },
    { name: "lint", script: "lint" },
    // Built once here: the two Vitest runs of the next stage would each build it at once otherwise (scripts/vitest-build.ts).
    { name: "storefront build", script: "build:ensure" },
  ],
  [
    { name: "unit and API suites on PGlite", script: "test:unit", env: onPglite, report: "vitest" },
    ...(postgres ? [{ name: "the suites that race, run processes or test the server, on PostgreSQL", script: "test:db", env: { ...process.env, TEST_DB_WORKERS: "1" }, report: "vitest" } satisfies Step] : []),
  ],
  [{ name: "browser tests", script: "test:e2e", env: onPglite, report: "playwright" }],
];

for (const stage of stages) {
  if (!(await together(stage))) finish(false);
}
finish(true);

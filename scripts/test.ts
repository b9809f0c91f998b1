// `npm test`: the type check and the lint side by side, then the unit and API
// suites on PGlite, then the browser tests; with TEST_DATABASE_URL set, then the
// database-backed suites again on PostgreSQL (`npm run test:db`). The suites
// before them run on PGlite whatever TEST_DATABASE_URL says, so that the two
// passes differ. The browser tests and the PostgreSQL pass once ran side by
// side: on two cores the load average passed 12, the browser tests took twice
// as long and timed out, and the tests that time a killed shop process failed.
import { spawn } from "node:child_process";
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

interface Step {
  name: string;
  script: string;
  env?: NodeJS.ProcessEnv;
  /** Its output to this file rather than the terminal: for a step that runs beside another. */
  logFile?: string;
}

const startedAt = Date.now();
const elapsed = () => `${Math.round((Date.now() - startedAt) / 1000)}s`;

function run(step: Step): Promise<number> {
  return new Promise((resolve) => {
    const out = step.logFile ? createWriteStream(step.logFile) : null;
    const child = spawn("npm", ["run", "--silent", step.script], { env: step.env ?? process.env, stdio: out ? ["ignore", "pipe", "pipe"] : "inherit" });
    child.stdout?.pipe(out!, { end: false });
    child.stderr?.pipe(out!, { end: false });
    child.on("close", (code, signal) => {
      out?.end();
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

/** Runs the steps at once; the first one's output goes to the terminal as it comes, the others' after it. */
async function together(steps: Step[]): Promise<boolean> {
  const dir = mkdtempSync(path.join(tmpdir(), "tc-test-"));
  try {
    const withLogs = steps.map((s, i) => (i === 0 ? s : { ...s, logFile: path.join(dir, `${s.script.replace(/\W/g, "-")}.log`) }));
    console.log(`\n--- ${withLogs.map((s) => s.name).join(", beside it, ")} (${elapsed()})`);
    const codes = await Promise.all(withLogs.map(run));
    for (const [i, step] of withLogs.entries()) {
      if (step.logFile) {
        console.log(`\n--- ${step.name}: its output (${elapsed()})`);
        process.stdout.write(readFileSync(step.logFile, "utf8"));
      }
      if (codes[i] !== 0) console.error(`\n✘ ${step.name} failed (exit ${codes[i]})`);
    }
    return codes.every((c) => c === 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const postgres = process.env.TEST_DATABASE_URL;
const onPglite: NodeJS.ProcessEnv = { ...process.env };
delete onPglite.TEST_DATABASE_URL;

const stages: Step[][] = [
  [
    { name: "type check", script: "typecheck" },
    { name: "lint", script: "lint" },
  ],
  [{ name: "unit and API suites on PGlite", script: "test:unit", env: onPglite }],
  [{ name: "browser tests", script: "test:e2e", env: onPglite }],
  ...(postgres ? [[{ name: "the suites that race, run processes or test the server, on PostgreSQL", script: "test:db" }]] : []),
];

for (const stage of stages) {
  if (!(await together(stage))) {
    console.error(`\nnpm test failed after ${elapsed()}`);
    process.exit(1);
  }
}
console.log(`\nnpm test passed in ${elapsed()}${postgres ? "" : " (set TEST_DATABASE_URL to run the database-backed suites on PostgreSQL too)"}`);

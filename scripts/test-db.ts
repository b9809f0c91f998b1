// `npm run test:db`: the suites where the database server itself is under
// test, again on a real PostgreSQL. TEST_DATABASE_URL names a server and a
// database to connect to for admin work; each test file makes its own database
// there and drops it afterwards.
//
// PGlite is PostgreSQL itself (compiled to WebAssembly), so the SQL every
// other suite runs is decided the same way on both; what PGlite cannot show is
// what many connections do at once. So this pass runs the suites that race
// (stock, credit, payments, hire, slots, codes' use limits), that run several
// shop processes or kill one, or that test the PostgreSQL driver, pool and
// migrations: each says so in its own words (`SERVER_MARKS` below), and a
// new suite that races is picked up by saying so too. The rest ran on PGlite
// moments before; running them twice was half of CI's time.
//
// `npm run test:db -- --all` runs every database-backed suite here, as before.
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";

/** A suite that mentions any of these races, runs several processes, or tests PostgreSQL itself. */
export const SERVER_MARKS = /PostgreSQL|concurren|at once|\bracing\b|\braces?\b|\bmigrat/i;

/** The generated matrices and the fuzz prove who may do what and how bad input is refused: the same SQL on both, so PGlite only. */
export const PGLITE_ONLY = ["server/admin-access.test.ts", "server/screens-access.test.ts", "server/test/hostile-input.test.ts"];

export function serverSuites(root = "server"): string[] {
  const files = readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => path.join(root, f).split(path.sep).join("/"))
    .filter((f) => !PGLITE_ONLY.includes(f));
  return files.filter((f) => SERVER_MARKS.test(path.basename(f)) || SERVER_MARKS.test(readFileSync(f, "utf8"))).sort();
}

if (import.meta.main) {
  const url = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
  const all = process.argv.includes("--all");
  const files = all ? ["server", ...PGLITE_ONLY.flatMap((f) => ["--exclude", f])] : serverSuites();
  console.log(`Database-backed suites on PostgreSQL (${url.replace(/:[^:@/]*@/, ":***@")}): ${all ? "all but the matrices" : `${files.length} that race, run processes or test the server (scripts/test-db.ts)`}`);
  // `npm test` runs this beside the PGlite stage with one worker (TEST_DB_WORKERS=1): scripts/test.ts says why.
  const workers = process.env.TEST_DB_WORKERS ? [`--maxWorkers=${Number(process.env.TEST_DB_WORKERS)}`] : [];
  const result = spawnSync("npx", ["--no-install", "vitest", "run", ...workers, ...files], { stdio: "inherit", env: { ...process.env, TEST_DATABASE_URL: url } });
  process.exit(result.status ?? 1);
}

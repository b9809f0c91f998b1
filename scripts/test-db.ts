// `npm run test:db`: the database-backed suites again on a real PostgreSQL.
// TEST_DATABASE_URL names a server and a database to connect to for admin work;
// each test file makes its own database there and drops it afterwards.
//
// The three generated matrices (every route and screen by every actor, and the
// hostile-input fuzz over every route) run on PGlite only: they prove who may
// do what and how bad input is refused, which the same SQL decides on both
// databases, and they are a third of the PostgreSQL pass's time. Everything
// that races (stock, credit, payments, hire) runs here too.
import { spawnSync } from "node:child_process";

export const PGLITE_ONLY = ["server/admin-access.test.ts", "server/screens-access.test.ts", "server/test/hostile-input.test.ts"];

const url = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
console.log(`Database-backed suites on PostgreSQL (${url.replace(/:[^:@/]*@/, ":***@")}); on PGlite only: ${PGLITE_ONLY.join(", ")}`);
const result = spawnSync("npx", ["--no-install", "vitest", "run", "server", ...PGLITE_ONLY.flatMap((f) => ["--exclude", f])], {
  stdio: "inherit",
  env: { ...process.env, TEST_DATABASE_URL: url },
});
process.exit(result.status ?? 1);

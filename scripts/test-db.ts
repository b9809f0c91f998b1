// `npm run test:db`: the database-backed suites again on a real PostgreSQL.
// TEST_DATABASE_URL names a server and a database to connect to for admin work;
// each test file makes its own database there and drops it afterwards.
import { spawnSync } from "node:child_process";

const url = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
console.log(`Database-backed suites on PostgreSQL (${url.replace(/:[^:@/]*@/, ":***@")})`);
const result = spawnSync("npx", ["--no-install", "vitest", "run", "server"], {
  stdio: "inherit",
  env: { ...process.env, TEST_DATABASE_URL: url },
});
process.exit(result.status ?? 1);

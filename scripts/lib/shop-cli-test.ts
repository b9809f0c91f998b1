// The staff CLI (scripts/shop.ts) as its tests run it: a child process on a
// PGlite DATA_DIR of its own, and that database opened between runs.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { type Db, openPglite } from "../../server/db/client.ts";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const node = path.join(root, "node_modules/.bin/node");

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run shop -- …args` on `dataDir`: its exit code and output, a failure answered as one. */
export function runShop(dataDir: string, ...args: string[]): Promise<CliRun> {
  return run(node, ["scripts/shop.ts", ...args], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: "test", DATABASE_URL: "", COOKIE_SECRET: "x".repeat(32) },
  }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: CliRun) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

/** `work` on the database in `dataDir` (migrated first when asked), closed after. */
export async function onDataDir<T>(dataDir: string, work: (db: Db) => Promise<T>, { migrate = false } = {}): Promise<T> {
  const database = await openPglite(dataDir);
  try {
    if (migrate) await database.migrate();
    return await work(database.db);
  } finally {
    await database.close();
  }
}

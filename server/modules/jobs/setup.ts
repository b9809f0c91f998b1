import type { Database } from "../../db/client.ts";
import { createInProcessRunner } from "./in-process.ts";
import { createPgBossRunner, poolOf } from "./pg-boss.ts";
import type { JobLog, JobRunner } from "./runner.ts";

/**
 * The runner for this database (ADR 0038): pg-boss on PostgreSQL, shared by
 * every shop process; the in-process runner on PGlite, which one process owns.
 */
export function createJobRunner(database: Pick<Database, "db" | "kind">, log: JobLog): JobRunner {
  return database.kind === "postgres" ? createPgBossRunner({ pool: poolOf(database.db), log }) : createInProcessRunner({ log });
}

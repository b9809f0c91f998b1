import { readFileSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";

/** What a backup holds, written first into its archive as `manifest.json`. */
export interface BackupManifest {
  format: 1;
  app: "tradecounter";
  /** package.json's version of the shop that took it. */
  version: string;
  takenAt: string;
  database: {
    kind: "pglite" | "postgres";
    /** The entry holding the database: `database.pgdump` (pg_dump's custom format) or `database.pglite.tar.gz` (PGlite's data folder). */
    entry: string;
    sha256: string;
    bytes: number;
  };
  /** The last migration applied when it was taken (drizzle/meta/_journal.json's tag), or null on a database never migrated. */
  migration: string | null;
  /** Rows of the shop's main tables, counted in the same snapshot as the dump. */
  counts: Record<string, number>;
  media: {
    /** "local": the files of `DATA_DIR/media` are under `media/`; "s3": none, the bucket keeps its own versions (docs/operations.md). */
    storage: "local" | "s3";
    files: number;
    bytes: number;
  };
}

/** The tables whose rows a manifest counts: what a merchant would miss first. */
export const COUNTED_TABLES = [
  "orders",
  "order_lines",
  "payments",
  "users",
  "staff",
  "products",
  "product_variants",
  "stock_movements",
  "trade_accounts",
  "trade_invoices",
  "trade_payments",
  "hire_requests",
  "hire_allocations",
  "quotes",
  "returns",
  "audit_log",
  "mail_outbox",
] as const;

/** One query's rows, on whichever connection holds the snapshot. */
export type RowsOf = (text: string) => Promise<Record<string, unknown>[]>;

export function rowsOfDb(db: Db): RowsOf {
  return async (text) => ((await db.execute(sql.raw(text))) as unknown as { rows: Record<string, unknown>[] }).rows;
}

export async function countRows(rows: RowsOf): Promise<Record<string, number>> {
  const union = COUNTED_TABLES.map((t) => `select '${t}' as name, count(*)::int as n from ${t}`).join(" union all ");
  const counted = await rows(union);
  return Object.fromEntries(COUNTED_TABLES.map((t) => [t, Number(counted.find((r) => r.name === t)?.n ?? 0)]));
}

const migrationsFolder = fileURLToPath(new URL("../../../drizzle", import.meta.url));

/** The tag of the last migration applied (drizzle keeps each one's `when` as created_at), or null. */
export async function lastMigration(rows: RowsOf): Promise<string | null> {
  const applied = await rows(
    "select created_at::text as at from drizzle.__drizzle_migrations where to_regclass('drizzle.__drizzle_migrations') is not null order by created_at desc limit 1",
  ).catch(() => []);
  const at = applied[0]?.at;
  if (at === undefined) return null;
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as { entries: { when: number; tag: string }[] };
  return journal.entries.find((e) => String(e.when) === String(at))?.tag ?? `unknown (applied ${String(at)})`;
}

export const APP_VERSION: string = (JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version: string }).version;

/** The files under a folder as paths relative to it (`/`-separated), with their total size; none when it is not there. */
export async function filesUnder(dir: string): Promise<{ files: string[]; bytes: number }> {
  let entries: string[];
  try {
    entries = await readdir(dir, { recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { files: [], bytes: 0 };
    throw error;
  }
  const files: string[] = [];
  let bytes = 0;
  for (const entry of entries.sort()) {
    const info = await stat(path.join(dir, entry));
    if (!info.isFile()) continue;
    files.push(entry.split(path.sep).join("/"));
    bytes += info.size;
  }
  return { files, bytes };
}

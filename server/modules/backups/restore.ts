import { execFile } from "node:child_process";
import { createReadStream } from "node:fs";
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import { promisify } from "node:util";
import { createGunzip } from "node:zlib";
import pg from "pg";
import * as tar from "tar";
import type { Config } from "../../config.ts";
import { acquireLock, type Database, openPglite, openPostgres } from "../../db/client.ts";
import { fileStoreFromConfig } from "../media/setup.ts";
import { contentTypeOfKey } from "../media/store.ts";
import { libpqTarget } from "./backup.ts";
import { type BackupManifest, countRows, filesUnder, lastMigration, rowsOfDb } from "./contents.ts";
import { readChecksum, sha256OfFile } from "./files.ts";

const run = promisify(execFile);

export type RestoreConfig = Pick<Config, "dataDir" | "databaseUrl" | "s3">;

/** A restore refused before it changed anything, with the reason for the operator. */
export class RestoreRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RestoreRefusedError";
  }
}

export interface RestoredCount {
  name: string;
  inBackup: number;
  restored: number;
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** The last migration after the restore's own migrations ran. */
  migration: string | null;
  counts: RestoredCount[];
  /** The counts that differ (a migration that adds rows can explain one). */
  differences: RestoredCount[];
}

/**
 * Restores a backup (ADR 0055) into an empty data folder (PGlite) or an empty
 * PostgreSQL database (DATABASE_URL): the checksum first, then the database,
 * the photos, the migrations the backup predates, and the counts compared.
 * `force` empties a target that is not empty first; nothing else does.
 */
export async function restoreBackup(
  file: string,
  config: RestoreConfig,
  options: { force?: boolean; sha256?: string; progress?: (step: string) => void } = {},
): Promise<RestoreResult> {
  const progress = options.progress ?? (() => {});
  const expected = options.sha256?.toLowerCase() ?? (await readChecksum(file));
  if (!expected) throw new RestoreRefusedError(`No checksum: ${file}.sha256 is not beside it; pass --sha256 with the checksum the back office lists`);
  progress("checking the checksum");
  const actual = await sha256OfFile(file);
  if (actual !== expected) throw new RestoreRefusedError(`The backup's checksum does not match (expected ${expected}, the file's is ${actual}): it is damaged or incomplete`);

  const staging = await mkdtemp(path.join(tmpdir(), "tc-restore-"));
  try {
    await tar.extract({ file, cwd: staging, strict: true });
    const manifest = JSON.parse(await readFile(path.join(staging, "manifest.json"), "utf8")) as BackupManifest;
    if (manifest.format !== 1 || manifest.app !== "tradecounter") throw new RestoreRefusedError("This is not a Tradecounter backup (its manifest.json says otherwise)");
    const dumpFile = path.join(staging, manifest.database.entry);
    if ((await sha256OfFile(dumpFile)) !== manifest.database.sha256) throw new RestoreRefusedError("The database in the backup does not match its manifest's checksum");
    const kind = config.databaseUrl ? "postgres" : "pglite";
    if (manifest.database.kind !== kind) {
      throw new RestoreRefusedError(
        kind === "postgres"
          ? "This backup is of an embedded (PGlite) shop: restore it into a data folder, with DATABASE_URL unset"
          : "This backup is of a PostgreSQL shop: restore it with DATABASE_URL set to an empty database",
      );
    }
    const mediaDir = path.join(config.dataDir, "media");
    const media = await filesUnder(path.join(staging, "media"));

    let database: Database;
    if (config.databaseUrl) {
      await emptyPostgres(config.databaseUrl, options.force ?? false);
      progress("restoring the database with pg_restore");
      const target = libpqTarget(config.databaseUrl);
      await run("pg_restore", ["--no-owner", "--no-privileges", "--exit-on-error", "--dbname", target.dbname, dumpFile], { env: target.env, maxBuffer: 16 * 1024 * 1024 });
      database = await openPostgres(config.databaseUrl, { max: 2 });
    } else {
      await emptyDataFolder(config.dataDir, options.force ?? false, config.s3 ? null : mediaDir);
      progress("restoring the database into the data folder");
      const dump = await buffer(createReadStream(dumpFile).pipe(createGunzip()));
      database = await openPglite(config.dataDir, { from: new Blob([dump]) });
    }
    let migration: string | null;
    let restoredCounts: Record<string, number>;
    try {
      progress("applying the migrations the backup predates");
      await database.migrate();
      const rows = rowsOfDb(database.db);
      migration = await lastMigration(rows);
      restoredCounts = await countRows(rows);
    } finally {
      await database.close();
    }

    progress(`restoring ${media.files.length} media files`);
    const store = fileStoreFromConfig(config);
    for (const key of media.files) {
      await store.put(key, await readFile(path.join(staging, "media", key)), contentTypeOfKey(key) ?? "application/octet-stream");
    }
    const mediaRestored = config.s3 ? media.files.length : (await filesUnder(mediaDir)).files.length;

    const counts: RestoredCount[] = [
      ...Object.entries(manifest.counts).map(([name, inBackup]) => ({ name, inBackup, restored: restoredCounts[name] ?? 0 })),
      { name: "media files", inBackup: manifest.media.files, restored: mediaRestored },
    ];
    return { manifest, migration, counts, differences: counts.filter((c) => c.inBackup !== c.restored) };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** A data folder holds a shop when its database folder or its media folder has anything in it. */
async function emptyDataFolder(dataDir: string, force: boolean, mediaDir: string | null): Promise<void> {
  const held = async (dir: string) => (await readdir(dir).catch(() => [] as string[])).length > 0;
  const dbDir = path.join(dataDir, "pglite");
  const occupied = [dbDir, ...(mediaDir ? [mediaDir] : [])];
  const full = [];
  for (const dir of occupied) if (await held(dir)) full.push(dir);
  if (full.length === 0) return;
  if (!force) throw new RestoreRefusedError(`The data folder is not empty (${full.join(", ")}): restore into an empty one, or pass --force to replace what is there`);
  // The lock refuses while a shop has the folder open.
  const release = acquireLock(dataDir);
  try {
    for (const dir of full) await rm(dir, { recursive: true, force: true });
  } finally {
    release();
  }
}

/** A database holds a shop when any schema of its own has a table; `force` drops those schemas. */
async function emptyPostgres(url: string, force: boolean): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const schemas = (
      await client.query<{ name: string; tables: number }>(
        `select n.nspname as name, count(c.oid)::int as tables from pg_namespace n left join pg_class c on c.relnamespace = n.oid and c.relkind in ('r', 'p')
         where n.nspname not like 'pg\\_%' and n.nspname <> 'information_schema' group by n.nspname`,
      )
    ).rows;
    const full = schemas.filter((s) => s.tables > 0);
    if (full.length === 0) return;
    if (!force) throw new RestoreRefusedError(`The database is not empty (tables in ${full.map((s) => s.name).join(", ")}): restore into an empty database, or pass --force to replace what is there`);
    for (const s of schemas) await client.query(`drop schema ${pg.escapeIdentifier(s.name)} cascade`);
    await client.query("create schema public");
  } finally {
    await client.end();
  }
}

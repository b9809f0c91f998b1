import { execFile } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import { createGzip } from "node:zlib";
import pg from "pg";
import * as tar from "tar";
import type { Config } from "../../config.ts";
import { type Database, openPglite, type PgliteDatabase } from "../../db/client.ts";
import { APP_VERSION, type BackupManifest, countRows, filesUnder, lastMigration, type RowsOf, rowsOfDb } from "./contents.ts";
import { backupName, checksumPath, PARTIAL_SUFFIX, sha256OfFile } from "./files.ts";

const run = promisify(execFile);

export type BackupConfig = Pick<Config, "backupDir" | "dataDir" | "databaseUrl" | "s3">;

export interface TakenBackup {
  file: string;
  sha256: string;
  manifest: BackupManifest;
}

/** What a step of the backup says it is doing (the CLI prints it; the kill test waits for it). */
export type BackupProgress = (step: string) => void;

function isPglite(database: Database): database is PgliteDatabase {
  return database.kind === "pglite" && "dump" in database;
}

/**
 * PGlite: a copy of the data folder, taken between two of its queries (it
 * runs one at a time). A transaction open at that moment is rolled back when
 * the copy opens, as after a crash. The copy is opened here, in memory, to
 * count its rows: the counts are the copy's own, and a copy that does not
 * open fails the backup now rather than on the day it is needed.
 */
async function dumpPglite(database: PgliteDatabase, into: string): Promise<{ entry: string; counts: Record<string, number>; migration: string | null }> {
  const blob = await database.dump();
  const entry = "database.pglite.tar.gz";
  await pipeline(blob.stream(), createGzip(), createWriteStream(path.join(into, entry)));
  const copy = await openPglite(undefined, { from: blob });
  try {
    const rows = rowsOfDb(copy.db);
    return { entry, counts: await countRows(rows), migration: await lastMigration(rows) };
  } finally {
    await copy.close();
  }
}

/**
 * PostgreSQL: pg_dump in its custom format, in a snapshot exported by a
 * repeatable-read transaction that counts the rows in the same snapshot, so
 * the manifest's counts are exactly the dump's however many orders arrive
 * meanwhile.
 */
async function dumpPostgres(url: string, into: string): Promise<{ entry: string; counts: Record<string, number>; migration: string | null }> {
  const entry = "database.pgdump";
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("begin isolation level repeatable read read only");
    const snapshot = (await client.query<{ id: string }>("select pg_export_snapshot() as id")).rows[0]!.id;
    const rows: RowsOf = async (text) => (await client.query(text)).rows as Record<string, unknown>[];
    const counts = await countRows(rows);
    const migration = await lastMigration(rows);
    const target = libpqTarget(url);
    await run("pg_dump", ["--format=custom", `--snapshot=${snapshot}`, "--no-owner", "--file", path.join(into, entry), "--dbname", target.dbname], { env: target.env, maxBuffer: 16 * 1024 * 1024 });
    await client.query("commit");
    return { entry, counts, migration };
  } finally {
    await client.end();
  }
}

/** A database URL for pg_dump and pg_restore with its password moved to PGPASSWORD, out of the process list. */
export function libpqTarget(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  return { dbname: parsed.toString(), env: password ? { ...process.env, PGPASSWORD: password } : process.env };
}

let running: Promise<unknown> = Promise.resolve();

/**
 * Takes a backup of the whole shop into one file under BACKUP_DIR (ADR 0055):
 * the database first, then the photos (keys are never overwritten, so every
 * photo the database names is there), then the archive, its checksum and the
 * rename that makes it complete. Backups in one process take turns.
 */
export function takeBackup(config: BackupConfig, database: Database, options: { now?: Date; progress?: BackupProgress } = {}): Promise<TakenBackup> {
  const next = running.catch(() => {}).then(() => backup(config, database, options));
  running = next;
  return next;
}

async function backup(config: BackupConfig, database: Database, options: { now?: Date; progress?: BackupProgress }): Promise<TakenBackup> {
  const progress = options.progress ?? (() => {});
  const takenAt = options.now ?? new Date();
  const name = backupName(takenAt);
  const file = path.join(config.backupDir, name);
  const staging = path.join(config.backupDir, `.${name}.staging${PARTIAL_SUFFIX}`);
  const partial = path.join(config.backupDir, `.${name}${PARTIAL_SUFFIX}`);
  await mkdir(staging, { recursive: true });
  try {
    progress("dumping the database");
    const dumped = isPglite(database)
      ? await dumpPglite(database, staging)
      : database.kind === "postgres" && config.databaseUrl
        ? await dumpPostgres(config.databaseUrl, staging)
        : null;
    if (!dumped) throw new Error("This database cannot be backed up from here: a PGlite database without dump(), or PostgreSQL without DATABASE_URL");
    const mediaDir = path.join(config.dataDir, "media");
    const media = config.s3 ? { files: [], bytes: 0 } : await filesUnder(mediaDir);
    const dumpFile = path.join(staging, dumped.entry);
    const manifest: BackupManifest = {
      format: 1,
      app: "tradecounter",
      version: APP_VERSION,
      takenAt: takenAt.toISOString(),
      database: { kind: database.kind, entry: dumped.entry, sha256: await sha256OfFile(dumpFile), bytes: (await stat(dumpFile)).size },
      migration: dumped.migration,
      counts: dumped.counts,
      media: { storage: config.s3 ? "s3" : "local", files: media.files.length, bytes: media.bytes },
    };
    await writeFile(path.join(staging, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    progress(`writing the archive ${partial}`);
    await tar.create({ file: partial, cwd: staging, portable: true }, ["manifest.json", dumped.entry]);
    // Appended from the media folder itself, the files listed above and no others.
    if (media.files.length > 0) await tar.replace({ file: partial, cwd: config.dataDir, portable: true }, media.files.map((f) => `media/${f}`));
    progress("writing the checksum");
    const sha256 = await sha256OfFile(partial);
    await writeFile(`${checksumPath(file)}${PARTIAL_SUFFIX}`, `${sha256}  ${name}\n`);
    await rename(`${checksumPath(file)}${PARTIAL_SUFFIX}`, checksumPath(file));
    await rename(partial, file);
    progress(`done: ${file}`);
    return { file, sha256, manifest };
  } finally {
    await rm(staging, { recursive: true, force: true });
    await rm(partial, { force: true });
  }
}

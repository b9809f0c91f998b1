import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readdir, readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { Config } from "../../config.ts";

/**
 * Backup files (ADR 0055): `tradecounter-2026-11-28T02-30-00Z.tar` beside its
 * checksum `….tar.sha256` (in `sha256sum` form). A backup is complete exactly
 * when a file of that name exists: it is written under a `.partial` name and
 * renamed only after its checksum is written, so one killed midway leaves no
 * file that claims to be complete.
 */
const NAME = /^tradecounter-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})Z\.tar$/;
export const PARTIAL_SUFFIX = ".partial";

export interface BackupFile {
  name: string;
  path: string;
  takenAt: Date;
  bytes: number;
}

/** A backup's file name for a moment: sortable, one per second, no characters a shell or Windows minds. */
export function backupName(at: Date): string {
  return `tradecounter-${at.toISOString().slice(0, 19).replace(/:/g, "-")}Z.tar`;
}

/** The moment a backup's name stands for, or null for a file that is not a complete backup. */
export function takenAtOf(name: string): Date | null {
  const match = NAME.exec(name);
  return match ? new Date(`${match[1]}T${match[2]}:${match[3]}:${match[4]}Z`) : null;
}

export const checksumPath = (file: string) => `${file}.sha256`;

/** The complete backups in a folder, newest first; none when the folder is not there yet. */
export async function listBackups(dir: string): Promise<BackupFile[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const found: BackupFile[] = [];
  for (const name of names) {
    const takenAt = takenAtOf(name);
    if (!takenAt) continue;
    const file = path.join(dir, name);
    found.push({ name, path: file, takenAt, bytes: (await stat(file)).size });
  }
  return found.sort((a, b) => b.takenAt.getTime() - a.takenAt.getTime());
}

/** When the newest complete backup was taken, or null when there is none (for the backup-age metric and alert). */
export async function lastBackupAt(config: Pick<Config, "backupDir">): Promise<Date | null> {
  return (await listBackups(config.backupDir))[0]?.takenAt ?? null;
}

export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(createReadStream(file), hash);
  return hash.digest("hex");
}

/** The checksum written beside a backup, or null when there is none. */
export async function readChecksum(file: string): Promise<string | null> {
  try {
    const text = await readFile(checksumPath(file), "utf8");
    return /^([0-9a-f]{64})\b/.exec(text.trim())?.[1] ?? null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/**
 * Which backups to keep: the newest of each of the last `daily` days that
 * have one, and the newest of each of the last `weekly` ISO weeks (Monday
 * first, UTC), so a week's Sunday night backup outlives its dailies.
 */
export function backupsToKeep(backups: readonly BackupFile[], policy: { daily: number; weekly: number }): Set<string> {
  const newestFirst = [...backups].sort((a, b) => b.takenAt.getTime() - a.takenAt.getTime());
  const keep = new Set<string>();
  const pick = (key: (b: BackupFile) => string, count: number) => {
    const seen = new Set<string>();
    for (const backup of newestFirst) {
      const k = key(backup);
      if (seen.has(k)) continue;
      if (seen.size === count) break;
      seen.add(k);
      keep.add(backup.name);
    }
  };
  pick((b) => b.takenAt.toISOString().slice(0, 10), policy.daily);
  pick((b) => weekOf(b.takenAt), policy.weekly);
  return keep;
}

/** The Monday (UTC) that starts a moment's week. */
function weekOf(at: Date): string {
  const day = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  return day.toISOString().slice(0, 10);
}

export const RETENTION = { daily: 7, weekly: 4 } as const;

/**
 * Deletes the backups the policy does not keep (with their checksums), and
 * partial files left by a backup that died more than a day ago. Answers the
 * names deleted.
 */
export async function pruneBackups(dir: string, policy: { daily: number; weekly: number } = RETENTION, now = new Date()): Promise<string[]> {
  const backups = await listBackups(dir);
  const keep = backupsToKeep(backups, policy);
  const deleted: string[] = [];
  for (const backup of backups) {
    if (keep.has(backup.name)) continue;
    await rm(backup.path, { force: true });
    await rm(checksumPath(backup.path), { force: true });
    deleted.push(backup.name);
  }
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!name.endsWith(PARTIAL_SUFFIX)) continue;
    const file = path.join(dir, name);
    if (now.getTime() - (await stat(file)).mtimeMs > 24 * 60 * 60 * 1000) {
      await rm(file, { recursive: true, force: true });
      deleted.push(name);
    }
  }
  return deleted;
}

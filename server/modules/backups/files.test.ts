import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type BackupFile, backupName, backupsToKeep, lastBackupAt, listBackups, pruneBackups, takenAtOf } from "./files.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const folder = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "tc-backup-files-"));
  dirs.push(dir);
  return dir;
};
const at = (iso: string): BackupFile => ({ name: backupName(new Date(iso)), path: "", takenAt: new Date(iso), bytes: 1 });

describe("backup files", () => {
  it("names a backup by its moment, and reads the moment back from a complete backup's name only", () => {
    const moment = new Date("2026-11-28T02:30:05.123Z");
    expect(backupName(moment)).toBe("tradecounter-2026-11-28T02-30-05Z.tar");
    expect(takenAtOf(backupName(moment))).toEqual(new Date("2026-11-28T02:30:05Z"));
    for (const other of [".tradecounter-2026-11-28T02-30-05Z.tar.partial", "tradecounter-2026-11-28T02-30-05Z.tar.sha256", "notes.txt"]) expect(takenAtOf(other)).toBeNull();
  });

  it("lists complete backups newest first, and knows when the last one was taken", async () => {
    const dir = folder();
    expect(await lastBackupAt({ backupDir: path.join(dir, "not-yet") })).toBeNull();
    for (const name of [backupName(new Date("2026-11-26T02:30:00Z")), backupName(new Date("2026-11-27T02:30:00Z")), ".tradecounter-2026-11-28T02-30-00Z.tar.partial"]) writeFileSync(path.join(dir, name), "x");
    expect((await listBackups(dir)).map((b) => b.name)).toEqual(["tradecounter-2026-11-27T02-30-00Z.tar", "tradecounter-2026-11-26T02-30-00Z.tar"]);
    expect(await lastBackupAt({ backupDir: dir })).toEqual(new Date("2026-11-27T02:30:00Z"));
  });

  it("keeps the newest of each of the last 7 days and of each of the last 4 weeks", () => {
    // Nightly for 60 days, and a second backup (taken by hand) on the last day.
    const nightly = Array.from({ length: 60 }, (_, i) => at(new Date(Date.UTC(2026, 9, 1 + i, 2, 30)).toISOString()));
    const byHand = at("2026-11-29T15:00:00Z");
    const keep = backupsToKeep([...nightly, byHand], { daily: 7, weekly: 4 });
    const kept = [...keep].sort();
    // The last 7 days: 24 to 29 November nightly (the 29th's newest is the one by hand) and the 23rd.
    expect(kept).toContain(byHand.name);
    expect(kept).not.toContain(backupName(new Date("2026-11-29T02:30:00Z")));
    for (const day of [23, 24, 25, 26, 27, 28]) expect(kept).toContain(backupName(new Date(Date.UTC(2026, 10, day, 2, 30))));
    // Weeks start on Monday (the 29th is a Sunday): the last four weeks' newest are the 29th's, and the Sundays 22nd, 15th and 8th.
    for (const day of [22, 15, 8]) expect(kept).toContain(backupName(new Date(Date.UTC(2026, 10, day, 2, 30))));
    expect(kept).toHaveLength(10);
  });

  it("prunes what it does not keep, with its checksum, and partial files a day old", async () => {
    const dir = folder();
    const names = Array.from({ length: 10 }, (_, i) => backupName(new Date(Date.UTC(2026, 10, 1 + i, 2, 30))));
    for (const name of names) {
      writeFileSync(path.join(dir, name), "x");
      writeFileSync(path.join(dir, `${name}.sha256`), "x");
    }
    const old = path.join(dir, ".tradecounter-2026-11-01T03-00-00Z.tar.partial");
    const fresh = path.join(dir, ".tradecounter-2026-11-10T03-00-00Z.tar.partial");
    writeFileSync(old, "x");
    writeFileSync(fresh, "x");
    const now = new Date("2026-11-10T12:00:00Z");
    utimesSync(old, new Date("2026-11-08T00:00:00Z"), new Date("2026-11-08T00:00:00Z"));
    utimesSync(fresh, now, now);
    const deleted = await pruneBackups(dir, { daily: 7, weekly: 4 }, now);
    // 4 to 10 November are the last 7 days; the 1st is the newest of its week (Monday 26 October); the 2nd and 3rd go.
    expect(deleted.sort()).toEqual([names[1], names[2], path.basename(old)].sort());
    expect(readdirSync(dir)).not.toContain(`${names[1]}.sha256`);
    expect(readdirSync(dir)).toContain(path.basename(fresh));
  });
});

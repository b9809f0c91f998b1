import { createReadStream, type ReadStream } from "node:fs";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { HttpError } from "../../http-errors.ts";
import { recordAudit } from "../audit/service.ts";
import { authorize, requireSession, type StaffActor } from "../staff/actor.ts";
import { listBackups, readChecksum } from "./files.ts";

export interface BackupEntry {
  name: string;
  taken_at: string;
  bytes: number;
  /** From the checksum written beside it; null when that is missing. */
  sha256: string | null;
}

/**
 * The back office's view of the backups (ADR 0055): the list, and the latest
 * one to download. Both are the owner's (`backups.download`); the download
 * needs a signed-in member, never an API token (a leaked token must not carry
 * the whole shop away), and is audited before a byte is sent.
 */
export function createBackupDesk(db: Db, config: Pick<Config, "backupDir">) {
  async function list(actor: StaffActor): Promise<BackupEntry[]> {
    authorize(actor, "backups.download");
    const backups = await listBackups(config.backupDir);
    return Promise.all(backups.map(async (b) => ({ name: b.name, taken_at: b.takenAt.toISOString(), bytes: b.bytes, sha256: await readChecksum(b.path) })));
  }

  return {
    list,

    async downloadLatest(actor: StaffActor): Promise<BackupEntry & { stream: ReadStream }> {
      authorize(actor, "backups.download");
      requireSession(actor);
      const [latest] = await listBackups(config.backupDir);
      if (!latest) throw new HttpError(404, "There is no backup yet: the nightly one runs at 02:30, or take one with npm run backup.");
      const sha256 = await readChecksum(latest.path);
      // Opened before the audit entry, so a file pruned meanwhile is a clean error rather than an entry for nothing.
      const stream = createReadStream(latest.path);
      await new Promise<void>((resolve, reject) => {
        stream.once("open", () => resolve());
        stream.once("error", reject);
      });
      await db.transaction((tx) => recordAudit(tx, actor, { action: "backup.downloaded", entity: "backup", entityId: latest.name, after: { bytes: latest.bytes, sha256 } }));
      return { name: latest.name, taken_at: latest.takenAt.toISOString(), bytes: latest.bytes, sha256, stream };
    },
  };
}

export type BackupDesk = ReturnType<typeof createBackupDesk>;

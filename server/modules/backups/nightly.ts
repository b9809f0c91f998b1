import { asc } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { errorMessage, type JobContext } from "../jobs/runner.ts";
import { renderEmail } from "../mail/templates.ts";
import type { MailService } from "../mail/service.ts";
import { staff } from "../staff/schema.ts";
import { activeOwners } from "../staff/service.ts";
import { type BackupConfig, takeBackup } from "./backup.ts";
import { pruneBackups, RETENTION } from "./files.ts";

export interface NightlyBackupDeps {
  config: BackupConfig & { appName: string; publicUrl: string };
  database: Database;
  mail: MailService;
}

/** The nightly job's retries: two more attempts, ten minutes apart and then twenty, before the owners are told. */
export const NIGHTLY_RETRY = { limit: 2, delaySeconds: 600 } as const;

/**
 * The nightly backup (ADR 0055): a backup, then the retention (7 daily, 4
 * weekly). When its last attempt fails, every owner is emailed through the
 * outbox; the job runner records the failure for the dashboard's background
 * jobs panel.
 */
export function createNightlyBackup(deps: NightlyBackupDeps) {
  const { config, database, mail } = deps;

  async function tellOwners(error: unknown): Promise<number> {
    const owners = await database.db
      .select({ email: staff.email })
      .from(staff)
      .where(activeOwners)
      .orderBy(asc(staff.id));
    const email = renderEmail({
      appName: config.appName,
      publicUrl: config.publicUrl,
      title: "Last night's backup failed",
      paragraphs: [
        `The shop tried three times to take its nightly backup into ${config.backupDir}, and each attempt failed. The last error was:`,
        errorMessage(error),
        "Until a backup succeeds, the newest one is older than a day. Take one by hand with `npm run backup` once the cause is put right; the back office's Backups screen lists the ones there are.",
      ],
      action: { label: "See the backups", url: `${config.publicUrl}/admin/backups` },
    });
    await database.db.transaction(async (tx) => {
      for (const owner of owners) await mail.enqueue(tx, { to: owner.email, subject: `${config.appName}: last night's backup failed`, ...email });
    });
    mail.kick();
    return owners.length;
  }

  return {
    /** One attempt; `context.attempt` past the retries means the last one. */
    async run(context: Pick<JobContext, "attempt">): Promise<{ file: string; pruned: string[] }> {
      try {
        const taken = await takeBackup(config, database);
        return { file: taken.file, pruned: await pruneBackups(config.backupDir, RETENTION) };
      } catch (error) {
        if (context.attempt > NIGHTLY_RETRY.limit) await tellOwners(error);
        throw error;
      }
    },
  };
}

export type NightlyBackup = ReturnType<typeof createNightlyBackup>;

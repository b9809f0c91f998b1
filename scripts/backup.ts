// `npm run backup`: one file under BACKUP_DIR holding the whole shop, the
// database and the photos, with its checksum beside it (ADR 0055). On
// PostgreSQL, pg_dump in one snapshot while the shop runs; on the embedded
// database, the running shop takes it (only one process may open the data
// folder), or this script when no shop runs there.
import { existsSync } from "node:fs";
import path from "node:path";
import { scriptConfig } from "../server/bootstrap.ts";
import { DatabaseLockedError, openPglite, openPostgres } from "../server/db/client.ts";
import { type TakenBackup, takeBackup } from "../server/modules/backups/backup.ts";
import { requestBackup } from "../server/modules/backups/socket.ts";

const config = scriptConfig();
const progress = (step: string) => console.log(step);

async function backUp(): Promise<TakenBackup> {
  if (config.databaseUrl) {
    const database = await openPostgres(config.databaseUrl, { max: 2 });
    try {
      return await takeBackup(config, database, { progress });
    } finally {
      await database.close();
    }
  }
  if (!existsSync(path.join(config.dataDir, "pglite", "PG_VERSION"))) throw new Error(`There is no shop database in ${config.dataDir} (DATA_DIR)`);
  let database;
  try {
    database = await openPglite(config.dataDir);
  } catch (error) {
    if (!(error instanceof DatabaseLockedError)) throw error;
    progress("the shop is running: asking it to take the backup");
    return requestBackup(config.dataDir, progress);
  }
  try {
    return await takeBackup(config, database, { progress });
  } finally {
    await database.close();
  }
}

try {
  const { file, sha256, manifest } = await backUp();
  console.log(`Backup: ${file}\nsha256: ${sha256}\nmigration: ${manifest.migration ?? "none"}`);
  for (const [name, n] of Object.entries(manifest.counts)) console.log(`  ${name.padEnd(20)} ${n}`);
  console.log(`  ${"media files".padEnd(20)} ${manifest.media.files}${manifest.media.storage === "s3" ? " (photos are in S3: keep the bucket's versioning on)" : ""}`);
} catch (error) {
  console.error(`Backup failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

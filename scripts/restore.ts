// `npm run restore -- FILE [--force] [--sha256 HEX]`: restores a backup of
// `npm run backup` into an empty data folder (DATA_DIR) or an empty PostgreSQL
// database (DATABASE_URL), checksum first; runs the migrations it predates and
// prints its manifest's counts against the restored ones (ADR 0055).
import { parseArgs } from "node:util";
import { scriptConfig } from "../server/bootstrap.ts";
import { RestoreRefusedError, restoreBackup } from "../server/modules/backups/restore.ts";

const { values, positionals } = parseArgs({ allowPositionals: true, options: { force: { type: "boolean" }, sha256: { type: "string" } } });
if (positionals.length !== 1) {
  console.error("Usage: npm run restore -- FILE [--force] [--sha256 HEX]");
  process.exit(2);
}
const config = scriptConfig();
try {
  const result = await restoreBackup(positionals[0]!, config, { force: values.force, sha256: values.sha256, progress: (step) => console.log(step) });
  console.log(`Restored the backup taken at ${result.manifest.takenAt} (version ${result.manifest.version}, migration ${result.manifest.migration ?? "none"}; now ${result.migration ?? "none"})`);
  console.log(`  ${"".padEnd(20)} ${"backup".padStart(8)} ${"restored".padStart(9)}`);
  for (const c of result.counts) console.log(`  ${c.name.padEnd(20)} ${String(c.inBackup).padStart(8)} ${String(c.restored).padStart(9)}${c.inBackup === c.restored ? "" : "  differs"}`);
  if (result.differences.length > 0) {
    console.error(`${result.differences.length} counts differ from the backup's manifest`);
    process.exit(1);
  }
} catch (error) {
  console.error(`Restore failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(error instanceof RestoreRefusedError ? 2 : 1);
}

// The kill test's child process (kill.test.ts): applies a catalogue CSV to the
// PostgreSQL database named by its first argument, printing "progress DONE"
// after each batch and pausing there, so the test can SIGKILL it mid-import.
import { createReadStream } from "node:fs";
import { openPostgres } from "../../../db/client.ts";
import { createStaffService } from "../../staff/service.ts";
import { runImport } from "./import.ts";

const [url, file] = process.argv.slice(2);
const database = await openPostgres(url!, { max: 2 });
const system = await createStaffService(database.db, { appName: "Tradecounter", publicUrl: "http://shop.test", requireTotp: false }).systemActor();
await runImport(database.db, system, () => createReadStream(file!), {
  fileName: "kill.csv",
  dryRun: false,
  batchSize: 500,
  onProgress: async (p) => {
    if (p.phase !== "writing" || p.done === 0) return;
    process.stdout.write(`progress ${p.done}\n`);
    await new Promise((r) => setTimeout(r, 200));
  },
});
process.stdout.write("finished\n");
await database.close();

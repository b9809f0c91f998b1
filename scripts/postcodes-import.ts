// `npm run postcodes:import -- FILE.csv`: fills the built-in postcode lookup's
// address table (header row: postcode, line_1, line_2, line_3, town, county).
import { existsSync } from "node:fs";
import { scriptConfig } from "../server/bootstrap.ts";
import { openDatabase } from "../server/db/client.ts";
import { importPostcodeCsv } from "../server/modules/postcode/import.ts";

const file = process.argv[2];
if (!file || !existsSync(file)) {
  console.error("Usage: npm run postcodes:import -- FILE.csv");
  process.exit(2);
}
const config = scriptConfig();
const database = await openDatabase(config);
let code = 0;
try {
  await database.migrate();
  const report = await importPostcodeCsv(database.db, file, (fraction, so) => {
    const width = 30;
    const done = Math.round(fraction * width);
    const bar = `[${"#".repeat(done)}${"-".repeat(width - done)}] ${Math.round(fraction * 100)}%  ${so.imported} addresses, ${so.located} places, ${so.skipped} skipped`;
    process.stderr.write(process.stderr.isTTY ? `\r${bar}` : `${bar}\n`);
  });
  if (process.stderr.isTTY) process.stderr.write("\n");
  console.log(`Imported ${report.imported} addresses and ${report.located} places; skipped ${report.skipped} rows.`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  code = 1;
} finally {
  await database.close();
}
process.exit(code);

// `npm run db:migrate | db:seed | db:reset`: the same configuration and
// database as `npm start` (DATABASE_URL, or PGlite in DATA_DIR).
// `db:seed` fills an empty database with the demo shop; `db:reset` empties the
// database (all tables and migrations) and then migrates and seeds it again.
import pino from "pino";
import { sql } from "drizzle-orm";
import { scriptConfig } from "../server/bootstrap.ts";
import { openDatabase } from "../server/db/client.ts";
import { isEmpty, seedDemo } from "../server/db/seed/index.ts";
import { seedScale } from "../server/db/seed/scale.ts";

const log = pino({ level: "info" });
const command = process.argv[2];
// `npm run db:seed -- --products 100000` adds that many generated products.
const productsFlag = process.argv.indexOf("--products");
const extraProducts = productsFlag === -1 ? 0 : Number(process.argv[productsFlag + 1]);
if (!Number.isSafeInteger(extraProducts) || extraProducts < 0 || extraProducts > 5_000_000) {
  console.error("--products takes a whole number up to 5,000,000");
  process.exit(2);
}
if (!["migrate", "seed", "reset"].includes(command ?? "")) {
  console.error("Usage: node scripts/db.ts migrate|seed|reset");
  process.exit(2);
}

const config = scriptConfig();
if (command === "reset" && config.isProduction && !process.argv.includes("--yes-really")) {
  console.error("Refusing to reset a production database. Add --yes-really if you mean it.");
  process.exit(1);
}

const database = await openDatabase(config);
try {
  if (command === "reset") {
    await database.db.execute(sql`drop schema if exists public cascade`);
    await database.db.execute(sql`drop schema if exists drizzle cascade`);
    // The job queue's tables (ADR 0038): pg-boss makes them again when the server starts.
    await database.db.execute(sql`drop schema if exists pgboss cascade`);
    await database.db.execute(sql`create schema public`);
    log.info("emptied the database");
  }
  await database.migrate();
  log.info("migrations applied");
  if (command !== "migrate") {
    if (await isEmpty(database.db)) log.info({ seeded: await seedDemo(database.db) }, "seeded the demo shop");
    else log.info("the database already has a catalogue; the demo seed only fills an empty one");
    if (extraProducts > 0) {
      const started = Date.now();
      log.info({ generated: await seedScale(database.db, extraProducts), seconds: (Date.now() - started) / 1000 }, "generated products for performance work");
    }
  }
} finally {
  await database.close();
}

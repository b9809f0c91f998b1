import type { Logger } from "pino";
import { type Config, ConfigError, ensureCookieSecret, loadConfig } from "./config.ts";
import { type Database, openDatabase, SERVER_QUERY_TIMEOUT_MS } from "./db/client.ts";
import { isEmpty, seedDemo } from "./db/seed/index.ts";
import { markDemoPhotosPending, startDemoPhotos } from "./db/seed/demo-start.ts";
import { loadDotEnv } from "./lib/dotenv.ts";

/**
 * Everything before the server listens: configuration, database, migrations
 * and the demo seed on an empty database (its photos come after: startDemoPhotos). Shared by `npm start`, `npm run dev`
 * and the db scripts so they can never drift apart. `migrate: false` for the shop processes a primary
 * forks: it has migrated and seeded once before forking them (ADR 0044).
 */
export async function prepare(log: Pick<Logger, "info" | "warn">, env = process.env, options: { migrate?: boolean } = {}): Promise<{ config: Config; database: Database }> {
  const config = ensureCookieSecret(loadConfig(env));
  for (const w of config.flagWarnings) {
    log.warn(`${w.variable}=${JSON.stringify(w.value)} is not recognised; it counts as off (use true, 1, yes or on)`);
  }
  const database = await openDatabase(config, { queryTimeoutMillis: SERVER_QUERY_TIMEOUT_MS });
  if (options.migrate === false) return { config, database };
  try {
    await database.migrate();
    if (config.seedDemo && (await isEmpty(database.db))) {
      // Real photos for the products a newcomer sees first are owed from here; made once the shop listens (ADR 0060).
      await markDemoPhotosPending(config);
      const seeded = await seedDemo(database.db);
      log.info({ seeded }, "seeded the demo shop");
    }
    // Tools that want the demo's data settled before they look (the browser tests, Lighthouse) make them first.
    if (config.demoPhotos === "before-start") await startDemoPhotos(database.db, config, log, env).done;
  } catch (error) {
    await database.close();
    throw error;
  }
  return { config, database };
}

/** For command-line scripts: .env, then the configuration, or one message per bad variable and exit 1. */
export function scriptConfig(): Config {
  loadDotEnv();
  try {
    return ensureCookieSecret(loadConfig());
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  }
}

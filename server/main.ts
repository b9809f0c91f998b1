import pino from "pino";
import { loadDotEnv, prepare } from "./bootstrap.ts";
import { ConfigError } from "./config.ts";
import { DatabaseLockedError } from "./db/client.ts";
import { RedisUnavailableError } from "./lib/redis.ts";

loadDotEnv();
// The configuration reads the operator's NODE_ENV (production rules: a required
// COOKIE_SECRET, Secure cookies, HSTS, no demo seed). The code itself always runs
// as the optimised production build, so React and React Router load their
// production bundles: they read NODE_ENV when first imported, below.
const shopEnv = { ...process.env };
process.env.NODE_ENV = "production";
const log = pino({ level: process.env.LOG_LEVEL ?? "info" });

try {
  const { config, database } = await prepare(log, shopEnv);
  const { buildApp } = await import("./app.ts");
  const app = await buildApp({ config, database, storefront: { mode: "build" } });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down");
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await app.close();
    } finally {
      await database.close();
    }
    process.exit(0);
  };
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(`${config.appName} is open at ${config.publicUrl} (database: ${database.kind})`);
} catch (error) {
  if (error instanceof ConfigError || error instanceof DatabaseLockedError || error instanceof RedisUnavailableError) {
    console.error(error.message);
  } else {
    log.fatal({ err: error }, "could not start");
  }
  process.exit(1);
}

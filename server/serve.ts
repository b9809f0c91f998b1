import cluster from "node:cluster";
import pino from "pino";
import { prepare } from "./bootstrap.ts";
import { ConfigError } from "./config.ts";
import { DatabaseLockedError } from "./db/client.ts";
import { readyMessage, startDemoPhotos } from "./db/seed/demo-start.ts";
import { serveBackupSocket } from "./modules/backups/socket.ts";
import { gatherForWorkers } from "./modules/metrics/cluster.ts";
import { RedisUnavailableError } from "./lib/redis.ts";
import { shopProcessCount, superviseWorkers } from "./process-model.ts";
import { stopTracing } from "./tracing.ts";

// The configuration reads the operator's NODE_ENV (production rules: a required
// COOKIE_SECRET, Secure cookies, HSTS, no demo seed). The code itself always runs
// as the optimised production build: see serve().
const shopEnv = { ...process.env };
const log = pino({ level: process.env.LOG_LEVEL ?? "info" });

function fail(error: unknown): never {
  if (error instanceof ConfigError || error instanceof DatabaseLockedError || error instanceof RedisUnavailableError || error instanceof RangeError) {
    console.error(error.message);
  } else {
    log.fatal({ err: error }, "could not start");
  }
  process.exit(1);
}

/** The primary of several shop processes (ADR 0044): migrates and seeds once, then forks and watches them. */
async function supervise(count: number): Promise<void> {
  const { config, database } = await prepare(log, shopEnv);
  const workers = superviseWorkers(count, log, () => {
    void workers.stop().then(() => process.exit(1));
  });
  // A scrape of /metrics reaches one process; it asks here for the whole machine's (ADR 0056).
  gatherForWorkers();
  // Said once, when the first shop process listens.
  cluster.once("listening", () => log.info(readyMessage(config, `${database.kind}, ${count} shop processes`)));
  // The demo's photos, if a fresh seed owes them, made here while the shop processes serve; then the primary needs no database.
  const photos = startDemoPhotos(database.db, config, log, shopEnv);
  const closed = photos.done.then(() => database.close());
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down the shop processes");
    await photos.stop();
    await closed;
    await workers.stop();
    process.exit(0);
  };
  process.once("SIGINT", () => void stop("SIGINT"));
  process.once("SIGTERM", () => void stop("SIGTERM"));
}

/** One shop process: the whole app, listening on the port (shared with its siblings under a primary). */
async function serve(): Promise<void> {
  // React and React Router load their production bundles: they read NODE_ENV when
  // first imported, with app.ts below. Set here, not before forking, so that the
  // processes a primary forks inherit the operator's NODE_ENV, not this one.
  process.env.NODE_ENV = "production";
  const { config, database } = await prepare(log, shopEnv, { migrate: !cluster.isWorker });
  const { buildApp } = await import("./app.ts");
  const app = await buildApp({ config, database, storefront: { mode: "build" } });

  let backups: { close(): Promise<void> } | null = null;
  let photos: { stop(): Promise<void> } | null = null;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down");
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await photos?.stop();
      await backups?.close();
      await app.close();
    } finally {
      await database.close();
      // The spans still buffered, sent before the process goes.
      await stopTracing();
    }
    process.exit(0);
  };
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  // A worker whose primary has gone (killed outright) has nobody to hand it connections: it stops too.
  if (cluster.isWorker) process.once("disconnect", () => void shutdown("primary gone"));

  await app.listen({ port: config.port, host: config.host });
  // `npm run backup` asks this process for the embedded database's backup (ADR 0055): no other process may open it.
  // A socket it cannot open (a DATA_DIR path too long for one) costs the shop nothing but that door: it says so and serves on.
  if (database.kind === "pglite") {
    backups = await serveBackupSocket(config, database, app.log).catch((error: unknown) => {
      app.log.warn({ err: error }, "npm run backup cannot reach this shop (its socket in DATA_DIR did not open); the nightly backup still runs");
      return null;
    });
  }
  if (!cluster.isWorker) {
    app.log.info(readyMessage(config, database.kind));
    // A freshly seeded demo's photos, made now the shop answers (ADR 0060).
    photos = startDemoPhotos(database.db, config, app.log, shopEnv);
  }
}

try {
  const count = cluster.isPrimary ? shopProcessCount(shopEnv) : 1;
  await (count > 1 ? supervise(count) : serve());
} catch (error) {
  fail(error);
}

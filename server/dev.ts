import pino from "pino";
import type { ViteDevServer } from "vite";
import { buildApp } from "./app.ts";
import { prepare } from "./bootstrap.ts";
import { readyMessage, startDemoPhotos } from "./db/seed/demo-start.ts";
import { loadDotEnv } from "./lib/dotenv.ts";
import type { Config } from "./config.ts";
import type { Database } from "./db/client.ts";

// `react-router dev` reloads this module on every change; the embedded
// database must stay open across reloads (one PGlite per process).
const holder = globalThis as typeof globalThis & { __tradecounterDev?: Promise<{ config: Config; database: Database }> };

export async function createServer(vite: ViteDevServer) {
  if (!holder.__tradecounterDev) {
    loadDotEnv();
    process.env.NODE_ENV ??= "development";
    const log = pino({ level: "info" });
    holder.__tradecounterDev = prepare(log);
    const ready = holder.__tradecounterDev;
    // A freshly seeded demo's photos, made while the dev server answers (ADR 0060).
    const photos = ready.then(({ config, database }) => {
      log.info(readyMessage(config, database.kind));
      return startDemoPhotos(database.db, config, log);
    });
    const close = () =>
      void photos
        .then((p) => p.stop())
        .then(() => ready)
        .then(({ database }) => database.close())
        .finally(() => process.exit(0));
    process.once("SIGINT", close);
    process.once("SIGTERM", close);
  }
  const { config, database } = await holder.__tradecounterDev;
  return buildApp({ config, database, storefront: { mode: "vite", vite } });
}

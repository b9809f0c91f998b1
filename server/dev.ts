import pino from "pino";
import type { ViteDevServer } from "vite";
import { buildApp } from "./app.ts";
import { prepare } from "./bootstrap.ts";
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
    holder.__tradecounterDev = prepare(pino({ level: "info" }));
    const ready = holder.__tradecounterDev;
    const close = () => void ready.then(({ database }) => database.close()).finally(() => process.exit(0));
    process.once("SIGINT", close);
    process.once("SIGTERM", close);
  }
  const { config, database } = await holder.__tradecounterDev;
  return buildApp({ config, database, storefront: { mode: "vite", vite } });
}

// A newcomer's first start (issue 35, ADR 0060): the demo shop listens as soon
// as it is seeded, and its photos are made after, in the background. A file in
// DATA_DIR says they are still owed, written before the seed and removed once
// every photo is made, so a start cut short finishes them on the next start;
// each product's photo is written once (addDemoPhotos skips a product that has
// one), so a restart never makes one twice.
import { existsSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Config } from "../../config.ts";
import type { Db } from "../client.ts";
import { fileStoreFromConfig } from "../../modules/media/setup.ts";
import { addDemoPhotos } from "./demo-photos.ts";
import { demoPhotoCacheDir } from "./demo-photo-cache.ts";
import { DEMO_CUSTOMER } from "./index.ts";
import { DEMO_STAFF } from "./demo-staff.ts";

/** The file in DATA_DIR that says the demo's photos are still to be made. */
export const DEMO_PHOTOS_PENDING = "demo-photos.pending";

type Log = { info(message: string): void; warn(object: object, message: string): void };
type PhotoConfig = Pick<Config, "dataDir" | "s3">;

const pendingFile = (config: Pick<Config, "dataDir">) => path.join(config.dataDir, DEMO_PHOTOS_PENDING);

/** Before the demo seed: its photos are owed from now on, whatever happens to this process. */
export async function markDemoPhotosPending(config: Pick<Config, "dataDir">): Promise<void> {
  await writeFile(pendingFile(config), "The demo shop's product photos are being made; this file goes when they are all made (ADR 0060).\n");
}

export function demoPhotosPending(config: Pick<Config, "dataDir">): boolean {
  return existsSync(pendingFile(config));
}

/**
 * Makes the photos the demo seed owes, if any: each product's in turn, through
 * the upload pipeline (about a second and a half each; sharp works off the event
 * loop, so the shop answers meanwhile). `stop()` lets the product under way
 * finish, then ends: the rest are made on the next start.
 */
export function startDemoPhotos(db: Db, config: PhotoConfig, log: Log, env: NodeJS.ProcessEnv = process.env): { done: Promise<number | null>; stop(): Promise<void> } {
  if (!demoPhotosPending(config)) return { done: Promise.resolve(null), stop: async () => {} };
  const stopping = new AbortController();
  log.info("making the demo shop's product photos in the background; each product shows its drawn picture until its photo is ready");
  const done = (async () => {
    try {
      const photos = await addDemoPhotos(db, fileStoreFromConfig(config), { perCategory: 2, cacheDir: demoPhotoCacheDir(env), signal: stopping.signal, log: (m) => log.info(m) });
      if (stopping.signal.aborted) return null;
      await rm(pendingFile(config), { force: true });
      log.info(`made the demo shop's product photos (${photos})`);
      return photos;
    } catch (error) {
      // The shop serves on with drawn pictures; the file stays, so the next start tries again.
      if (!stopping.signal.aborted) log.warn({ err: error }, "the demo shop's product photos were not all made; the next start makes the rest");
      return null;
    }
  })();
  return {
    done,
    async stop() {
      stopping.abort();
      await done;
    },
  };
}

/** The line a start ends with: where the shop and its back office are and, for the demo shop, how to sign in. */
export function readyMessage(config: Pick<Config, "appName" | "publicUrl" | "seedDemo">, database: string): string {
  const owner = DEMO_STAFF.find((m) => m.role === "owner")!.email;
  const signIn = config.seedDemo ? ` (${owner} / ${DEMO_CUSTOMER.password}, see README 'Demo accounts')` : " (its first owner: npm run shop -- staff:create EMAIL --role owner)";
  return `${config.appName} is ready at ${config.publicUrl} — back office ${config.publicUrl}/admin${signIn} (database: ${database})`;
}

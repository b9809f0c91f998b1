import path from "node:path";
import type { Config } from "../../config.ts";
import { s3FileStore } from "./s3-store.ts";
import { type FileStore, localFileStore } from "./store.ts";

/** Photos in the S3-compatible bucket when S3_BUCKET is set, else in `DATA_DIR/media` (ADR 0034). */
export function fileStoreFromConfig(config: Pick<Config, "s3" | "dataDir">): FileStore {
  return config.s3 ? s3FileStore(config.s3) : localFileStore(path.join(config.dataDir, "media"));
}

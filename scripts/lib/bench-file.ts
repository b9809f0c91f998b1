import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { projectRoot } from "./shop-server.ts";

/** Writes a tool's figures to `bench/<name>` as JSON, stamped with the time, and says so. */
export function writeBenchFile(name: string, figures: Record<string, unknown>): void {
  mkdirSync(path.join(projectRoot, "bench"), { recursive: true });
  writeFileSync(path.join(projectRoot, "bench", name), `${JSON.stringify({ at: new Date().toISOString(), ...figures }, null, 2)}\n`);
  console.log(`Written to bench/${name}`);
}

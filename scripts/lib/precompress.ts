import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Plugin } from "vite";

/** Text assets worth compressing; images here are SVG (text) too. */
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|xml|webmanifest|map)$/;
/** Below this, the headers cost more than compression saves. */
const MIN_BYTES = 1024;

/**
 * Writes `.br` and `.gz` beside every compressible file of the client build,
 * at the highest settings (done once per build, not per request), so the
 * static file server sends them as they are (`preCompressed`).
 */
export function precompressDirectory(dir: string): { files: number; bytes: number; brotli: number } {
  const totals = { files: 0, bytes: 0, brotli: 0 };
  const walk = (d: string) => {
    for (const entry of readdirSync(d)) {
      const file = path.join(d, entry);
      const stat = statSync(file);
      if (stat.isDirectory()) walk(file);
      else if (COMPRESSIBLE.test(entry) && stat.size >= MIN_BYTES) {
        const body = readFileSync(file);
        const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
        writeFileSync(`${file}.br`, br);
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
        totals.files += 1;
        totals.bytes += body.length;
        totals.brotli += br.length;
      }
    }
  };
  walk(dir);
  return totals;
}

/** The Vite plugin: precompresses the client build once it is written. */
export function precompress(): Plugin {
  return {
    name: "tradecounter:precompress",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    writeBundle(options) {
      if (!options.dir) return;
      const t = precompressDirectory(options.dir);
      this.info(`precompressed ${t.files} files: ${Math.round(t.bytes / 1024)} KB → ${Math.round(t.brotli / 1024)} KB brotli`);
    },
  };
}

import fastifyCompress from "@fastify/compress";
import type { FastifyInstance } from "fastify";
import { constants } from "node:zlib";

/**
 * Compresses what the server makes per request (pages, JSON) on the way out.
 * Brotli at quality 4 costs about as much CPU as gzip's default and gives
 * smaller pages; quality 11 is for the build's files, which are compressed
 * once at build time and sent as they are (the static server's
 * `preCompressed`), so they skip this step (they already carry an encoding).
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    encodings: ["br", "gzip"],
    threshold: 1024,
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
}

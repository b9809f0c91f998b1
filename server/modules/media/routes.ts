import type { FastifyInstance } from "fastify";
import { isSafeKey, type FileStore } from "./store.ts";

const IMMUTABLE = "public, max-age=31536000, immutable";

/** The public folders of the store; `originals/` (uploads as they came, EXIF and all) is never served. */
const PUBLIC_PREFIXES = ["photos/"];

/**
 * `GET /media/{key}`: photos' renditions from the FileStore, outside /api as
 * they are page assets. A key holds its content's hash, so the answer may be
 * kept for a year by the browser and any CDN. The type comes from the key's
 * extension (never from the bytes or the store), and `nosniff` stops a
 * browser guessing another.
 */
export async function mediaRoutes(app: FastifyInstance, options: { store: FileStore }): Promise<void> {
  app.get<{ Params: { "*": string } }>("/media/*", { schema: { hide: true } }, async (request, reply) => {
    const key = request.params["*"];
    if (!isSafeKey(key)) return reply.code(404).send({ message: "Not Found" });
    if (!PUBLIC_PREFIXES.some((prefix) => key.startsWith(prefix))) return reply.code(404).send({ message: "Not Found" });
    const file = await options.store.get(key);
    if (!file) return reply.code(404).header("cache-control", "no-store").send({ message: "Not Found" });
    return reply
      .type(file.contentType)
      .header("cache-control", IMMUTABLE)
      .header("x-content-type-options", "nosniff")
      .header("content-length", file.bytes.length)
      .send(file.bytes);
  });
}

import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { accepts } from "../lib/accept-encoding.ts";

/** Vite puts a hash of the content in every name under /assets/: a name never changes its bytes. */
export const IMMUTABLE = "public, max-age=31536000, immutable";
/** The build's other files (favicon.svg and the like): what the adapter's disk server sends them (its `fileCacheControl`). */
export const PUBLIC_FILE = "public, max-age=3600";
/** Larger files are left to the adapter's disk server: the client build is a few MB in all. */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;

/** The types the client build holds, as the adapter's disk server names them; a file of any other type is left to it. */
const TYPES: Record<string, string> = {
  ".js": "application/javascript; charset=utf-8",
  ".mjs": "application/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/vnd.microsoft.icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".wasm": "application/wasm",
};

export type Encoding = "br" | "gzip" | "identity";

interface Variant {
  body: Buffer;
  /** Strong: each encoding's bytes have a tag of their own. */
  etag: string;
}

export interface StaticFile {
  type: string;
  cacheControl: string;
  /** The file as built, and the build's .br and .gz copies of it where it wrote them (scripts/lib/precompress.ts). */
  variants: { identity: Variant; br?: Variant; gzip?: Variant };
}

function variant(body: Buffer): Variant {
  return { body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"` };
}

function readIfSmall(file: string, maxBytes: number): Buffer | null {
  try {
    const stat = statSync(file);
    return stat.isFile() && stat.size <= maxBytes ? readFileSync(file) : null;
  } catch {
    return null;
  }
}

/**
 * Every file of the client build, read once, keyed by the exact path it is
 * requested at ("/assets/app-B0FpPAud.css"). Dotfiles (.vite/manifest) are not
 * served, as the adapter serves none; the .br and .gz copies are kept with the
 * file they compress, not as files of their own.
 */
export function loadStaticFiles(root: string, options: { maxFileBytes?: number } = {}): Map<string, StaticFile> {
  const maxBytes = options.maxFileBytes ?? MAX_FILE_BYTES;
  const files = new Map<string, StaticFile>();
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith(".")) continue;
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(file, `${prefix}${entry.name}/`);
        continue;
      }
      const type = TYPES[path.extname(entry.name).toLowerCase()];
      const body = type ? readIfSmall(file, maxBytes) : null;
      if (!type || !body) continue;
      const br = readIfSmall(`${file}.br`, maxBytes);
      const gzip = readIfSmall(`${file}.gz`, maxBytes);
      files.set(`${prefix}${entry.name}`, {
        type,
        cacheControl: prefix.startsWith("/assets/") ? IMMUTABLE : PUBLIC_FILE,
        variants: { identity: variant(body), ...(br ? { br: variant(br) } : {}), ...(gzip ? { gzip: variant(gzip) } : {}) },
      });
    }
  };
  walk(root, "/");
  return files;
}

/** Brotli when the client takes it (the smaller), then gzip, else the file as built. */
export function chooseEncoding(header: string | string[] | undefined, file: StaticFile): Encoding {
  if (file.variants.br && accepts(header, "br")) return "br";
  if (file.variants.gzip && accepts(header, "gzip")) return "gzip";
  return "identity";
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t.replace(/^W\//, "") === etag;
  });
}

/**
 * Answers GET and HEAD for the client build's files from memory (ADR 0042),
 * with the build's brotli or gzip copy the client takes. Registered on the
 * root before the session hooks, so a file costs no session lookup. Only the
 * exact paths of the files loaded are answered, without touching the disk;
 * anything else (other paths, Range requests, files left out above) goes on
 * to the adapter's routes as before. The onSend hooks (security headers,
 * request id) still run: the reply is sent from a hook, not around Fastify.
 */
export function registerStaticFiles(app: FastifyInstance, files: Map<string, StaticFile>): void {
  app.addHook("onRequest", async (request, reply) => {
    if ((request.method !== "GET" && request.method !== "HEAD") || request.headers.range !== undefined) return;
    const query = request.url.indexOf("?");
    const file = files.get(query === -1 ? request.url : request.url.slice(0, query));
    if (!file) return;
    const encoding = chooseEncoding(request.headers["accept-encoding"], file);
    const chosen = file.variants[encoding]!;
    reply.header("cache-control", file.cacheControl);
    reply.header("etag", chosen.etag);
    if (file.variants.br || file.variants.gzip) reply.header("vary", "accept-encoding");
    if (matches(request.headers["if-none-match"], chosen.etag)) return reply.code(304).send();
    reply.header("content-type", file.type);
    reply.header("content-length", chosen.body.length);
    if (encoding !== "identity") reply.header("content-encoding", encoding);
    // For HEAD too: Fastify and Node send the headers (its length) and drop the body.
    return reply.send(chosen.body);
  });
}

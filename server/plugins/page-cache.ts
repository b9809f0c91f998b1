import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { isbot } from "isbot";
import { type PageStore, type PageStoreOptions, type StoredPage, createPageStore, gzipWithNonce, NONCE_LENGTH, pageHash, splitAt, withNonce } from "../lib/page-store.ts";
import type { PageVersion } from "../modules/system/page-version.ts";
import { accepts } from "../lib/accept-encoding.ts";
import { SESSION_COOKIE } from "./auth.ts";
import { RETAIL_VIEW } from "../modules/trade/pricing.ts";
import { isAdminPath } from "../modules/staff/cookies.ts";

/** What a visitor's page may be kept as: the header a CDN in front reads too. */
export const PUBLIC_PAGE = "public, max-age=0, must-revalidate";

export interface PageCacheOptions extends PageStoreOptions {
  buildId: string;
  versions: PageVersion;
  /** Which requests it keeps answers to: the storefront's pages unless said (its catch-all route). */
  isCached?: (request: FastifyRequest) => boolean;
  /**
   * A signed-in customer's price view where their page is the one everyone with
   * that view sees (ADR 0043: catalogue pages), else null. Without it, only
   * visitors' answers are kept.
   */
  signedInView?: (request: FastifyRequest) => string | null;
}

/** `personal`: kept for a trade price view, so private to those who have it (no validators, never public). */
type PageCacheState = { kind: "hit" } | { kind: "render"; key: string; version: string; placeholder: string; personal: boolean };

declare module "fastify" {
  interface FastifyRequest {
    pageCache: PageCacheState | null;
  }
}

// Rendered pages and the single-fetch data of client navigations (holding a
// nonce), and the JSON of the catalogue's reads (holding none).
const CACHEABLE_TYPE = /^(text\/(html|x-script)|application\/json)\b/i;

/**
 * The price view a request's answer may be kept and served under: the shop's
 * own for visitors, the customer's for a shared page (`signedInView`), null for
 * an API client or anyone else signed in (their page is theirs alone).
 */
function viewOf(request: FastifyRequest, signedInView: PageCacheOptions["signedInView"]): string | null {
  if (request.headers.authorization !== undefined) return null;
  if (!request.cookies[SESSION_COOKIE]) return RETAIL_VIEW;
  return signedInView?.(request) ?? null;
}

/** Build, price view, crawler or browser (they get differently streamed HTML), host, path and sorted query. */
function keyOf(request: FastifyRequest, buildId: string, view: string): string {
  const url = new URL(request.url, "http://page");
  url.searchParams.sort();
  const ua = request.headers["user-agent"];
  const bot = typeof ua === "string" && isbot(ua) ? "bot" : "browser";
  return `${buildId} ${view} ${bot} ${request.host} ${url.pathname}${url.search}`;
}

/**
 * The ETag names the body and the nonce in it: a browser (or a CDN) that
 * revalidates keeps its copy, with that nonce, so a 304 must name that nonce in
 * its Content-Security-Policy, or the header the browser updates no longer
 * matches the page it shows. Returns the nonce of the client's copy when the
 * copy is this body.
 */
function revalidatedNonce(ifNoneMatch: string | undefined, hash: string): string | null {
  if (!ifNoneMatch) return null;
  for (const tag of ifNoneMatch.split(",")) {
    const found = /^\s*(?:W\/)?"([A-Za-z0-9_-]+)\.([A-Za-z0-9+/]{22}==)"\s*$/.exec(tag);
    if (found && found[1] === hash) return found[2]!;
  }
  return null;
}

async function bodyOf(payload: unknown): Promise<Buffer | null> {
  if (payload === null || payload === undefined) return Buffer.alloc(0);
  if (Buffer.isBuffer(payload)) return payload;
  if (typeof payload === "string") return Buffer.from(payload);
  if (payload instanceof Readable) {
    const chunks: Buffer[] = [];
    for await (const chunk of payload) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
    return Buffer.concat(chunks);
  }
  return null;
}

/** A trade price view's page: served from memory, never kept by a browser or a CDN, so no validators. */
const PERSONAL_PAGE = "private, no-store";

/** Weak: bodies differ, byte for byte, by their nonce. */
function validators(reply: FastifyReply, hash: string, nonce: string): void {
  reply.header("cache-control", PUBLIC_PAGE);
  reply.header("etag", `W/"${hash}.${nonce}"`);
  reply.header("vary", "Accept-Encoding");
}

/** A kept page with the request's own nonce, compressed when the client takes it. */
function sendKept(request: FastifyRequest, reply: FastifyReply, page: StoredPage): Buffer {
  if (request.cspNonce.length === NONCE_LENGTH && accepts(request.headers["accept-encoding"], "gzip")) {
    reply.header("content-encoding", "gzip");
    return gzipWithNonce(page, request.cspNonce);
  }
  return withNonce(page.parts, request.cspNonce);
}

/**
 * The visitor page cache (ADR 0025), registered in the storefront's scope so
 * it sees pages only, and once more for the catalogue's JSON reads, which are
 * the same for every visitor too (`isCached`). Static files never pass through it.
 *
 * A visitor's page (no session cookie, no bearer token) is rendered with a
 * placeholder for the CSP nonce; the response swaps in the request's own nonce,
 * and a 200 without Set-Cookie or `no-store` is kept under the page version
 * read before rendering. A later visitor's request reads the version again and
 * gets the kept page, with a nonce of its own, while nothing has changed.
 */
export function registerPageCache(app: FastifyInstance, options: PageCacheOptions): PageStore {
  const store = createPageStore(options);
  // The back office's pages are never kept, for anyone (ADR 0029).
  const isCached = options.isCached ?? ((request: FastifyRequest) => request.routeOptions.url === "*" && !isAdminPath(request.url));

  // One per request whichever instance (pages, API reads) handles it.
  if (!app.hasRequestDecorator("pageCache")) app.decorateRequest("pageCache", null);

  app.addHook("onRequest", async (request, reply) => {
    if (!isCached(request) || (request.method !== "GET" && request.method !== "HEAD")) return;
    const view = viewOf(request, options.signedInView);
    if (view === null) return;
    const personal = view !== RETAIL_VIEW;
    let version: string;
    try {
      version = await options.versions.current();
    } catch (err) {
      // Without a version nothing can be proved fresh: render as if there were no cache.
      request.log.warn({ err }, "page cache: could not read the page version");
      return;
    }
    const key = keyOf(request, options.buildId, view);
    const page = store.get(key, version);
    if (page) {
      request.pageCache = { kind: "hit" };
      reply.header("x-cache", "hit");
      if (personal) {
        reply.header("cache-control", PERSONAL_PAGE);
        return reply.type(page.contentType).send(sendKept(request, reply, page));
      }
      const theirs = revalidatedNonce(request.headers["if-none-match"], page.hash);
      if (theirs) {
        // The Content-Security-Policy header, sent after this, names their copy's nonce.
        request.cspNonce = theirs;
        validators(reply, page.hash, theirs);
        return reply.code(304).send();
      }
      validators(reply, page.hash, request.cspNonce);
      return reply.type(page.contentType).send(sendKept(request, reply, page));
    }
    // Letters and digits only: unchanged by HTML and JSON escaping, and never in a page by chance.
    const placeholder = `tcnonce${randomBytes(12).toString("hex")}`;
    request.pageCache = { kind: "render", key, version, placeholder, personal };
    request.renderNonce = placeholder;
  });

  app.addHook("onSend", async (request, reply, payload) => {
    if (!isCached(request)) return payload;
    const state = request.pageCache;
    if (state?.kind === "hit") return payload;
    if (state?.kind !== "render") {
      reply.header("x-cache", "bypass");
      return payload;
    }
    const type = String(reply.getHeader("content-type") ?? "");
    const body = CACHEABLE_TYPE.test(type) ? await bodyOf(payload) : null;
    if (!body) {
      reply.header("x-cache", "bypass");
      return payload;
    }
    const cacheControl = String(reply.getHeader("cache-control") ?? "");
    // A trade view's page is private to the view (the auth plugin says so): kept all the same, on the shared-page list's word.
    const keep =
      request.method === "GET" && reply.statusCode === 200 && !reply.hasHeader("set-cookie") && (state.personal || !/private|no-store/i.test(cacheControl));
    if (!keep) {
      reply.header("x-cache", "bypass");
      return withNonce(splitAt(body, state.placeholder), request.cspNonce);
    }
    const hash = pageHash(splitAt(body, state.placeholder));
    store.set(state.key, { body, placeholder: state.placeholder, contentType: type, hash, version: state.version });
    reply.header("x-cache", "miss");
    const theirs = state.personal ? null : revalidatedNonce(request.headers["if-none-match"], hash);
    if (theirs) {
      // The security headers went first: name their copy's nonce instead of this response's.
      const policy = String(reply.getHeader("content-security-policy") ?? "");
      reply.header("content-security-policy", policy.replace(`'nonce-${request.cspNonce}'`, `'nonce-${theirs}'`));
      request.cspNonce = theirs;
      validators(reply, hash, theirs);
      reply.code(304);
      return null;
    }
    if (state.personal) reply.header("cache-control", PERSONAL_PAGE);
    else validators(reply, hash, request.cspNonce);
    const kept = store.get(state.key, state.version);
    return kept ? sendKept(request, reply, kept) : withNonce(splitAt(body, state.placeholder), request.cspNonce);
  });

  return store;
}

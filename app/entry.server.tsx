import { Writable } from "node:stream";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { type EntryContext, type HandleDataRequestFunction, type RouterContextProvider, ServerRouter } from "react-router";
import { appContext } from "#app-context";
import { DATABASE_RETRY_AFTER_SECONDS } from "../server/lib/database-outage.ts";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  // The same nonce the Content-Security-Policy header names.
  const { nonce, user } = loadContext.get(appContext);
  // A page rendered for a signed-in user carries their name: never cache or share it.
  if (user) responseHeaders.set("Cache-Control", "private, no-store");
  // A loader found the database out of reach (server/lib/database-outage.ts): ask for a retry, keep nothing.
  if (responseStatusCode === 503) {
    responseHeaders.set("Retry-After", String(DATABASE_RETRY_AFTER_SECONDS));
    responseHeaders.set("Cache-Control", "no-store");
  }
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers and the first byte of a page both want the full HTML at once.
    const readyOption = (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    const { pipe, abort } = renderToPipeableStream(<ServerRouter context={routerContext} url={request.url} nonce={nonce} />, {
      nonce,
      [readyOption]() {
        shellRendered = true;
        const { writable, body } = gatheredBody();
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        resolve(new Response(body, { headers: responseHeaders, status: responseStatusCode }));
        pipe(writable);
      },
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        if (shellRendered) console.error(error);
      },
    });
    setTimeout(abort, streamTimeout + 1000);
  });
}

/**
 * React writes a page in pieces of 4 KB. Passed on one by one, every piece is
 * a trip through the stream adapters and its own write to the socket (a
 * category page is about 40 of them). Here what React writes in one go is
 * gathered and leaves as one chunk, on the next turn of the event loop; a
 * part that is still rendering (a Suspense boundary) still streams later.
 */
function gatheredBody(): { writable: Writable; body: ReadableStream<Uint8Array> } {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  let open = true;
  let pending: Uint8Array[] = [];
  let size = 0;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (size === 0 || !open) return;
    const chunk = pending.length === 1 ? pending[0]! : Buffer.concat(pending, size);
    pending = [];
    size = 0;
    controller!.enqueue(chunk);
  };
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel() {
      open = false;
      writable.destroy();
    },
  });
  const writable = new Writable({
    write(chunk: Uint8Array, _encoding, callback) {
      pending.push(chunk);
      size += chunk.byteLength;
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
      callback();
    },
    final(callback) {
      flush();
      if (open) controller!.close();
      open = false;
      callback();
    },
    destroy(error, callback) {
      if (open && error) controller!.error(error);
      open = false;
      callback(error);
    },
  });
  return { writable, body };
}

/** The data requests of client navigations follow the same rule as pages. */
export const handleDataRequest: HandleDataRequestFunction = (response, { context }) => {
  if (context.get(appContext).user) response.headers.set("Cache-Control", "private, no-store");
  return response;
};

import { data } from "react-router";
import { escapeHtml } from "./html.ts";

/** Seconds a client is asked to wait when the database is briefly out of reach. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
export const DATABASE_UNAVAILABLE = "The shop is briefly unavailable. Please try again in a moment.";

// Node's socket errors for a server that is gone or unreachable.
const socketCodes = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
// PostgreSQL: connection exceptions (class 08), the server shutting down or starting, no free connection.
const sqlStates = /^(08...|57P0[1-3]|53300)$/;
// node-postgres says these in words only; "Query read timeout" is a connection that went silent (query_timeout).
const pgMessages = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection closed|Query read timeout)/;

/**
 * The database could not be reached (refused, dropped, shutting down, no
 * connection in time, silent): the same request may well succeed in a moment.
 * Looks through the causes, as Drizzle wraps the driver's error.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message, errors } = e as { code?: unknown; message?: unknown; errors?: unknown };
    if (typeof code === "string" && (socketCodes.has(code) || sqlStates.test(code))) return true;
    if (typeof message === "string" && pgMessages.test(message)) return true;
    // A connection to a host with several addresses fails with each one's error.
    if (Array.isArray(errors) && errors.some((x) => isDatabaseUnavailable(x))) return true;
  }
  return false;
}

/**
 * The page for an outage met before the storefront renders (reading the
 * session, say): one HTML document with its few styles inline and nothing to
 * load, so it shows whatever else is down. Colours are the shop's (app.css).
 */
export function outagePage(appName: string): string {
  return `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Service Unavailable | ${escapeHtml(appName)}</title>
<style>body{margin:0;font-family:ui-sans-serif,system-ui,sans-serif;background:#fafaf9;color:#1c1917;line-height:1.5}header{background:#1d3f8f;color:#fff;padding:1rem 1.5rem;font-weight:800;font-size:1.25rem}main{max-width:36rem;margin:0 auto;padding:3rem 1.5rem;text-align:center}.code{font-size:4.5rem;font-weight:900;color:#1d3f8f;margin:0}h1{font-size:1.5rem;margin:.5rem 0 1rem}a{display:inline-block;margin-top:1.5rem;background:#1d3f8f;color:#fff;padding:.625rem 1rem;border-radius:.375rem;font-weight:600;text-decoration:none}a:focus-visible{outline:2px solid #f59e0b;outline-offset:2px}</style></head>
<body><header>${escapeHtml(appName)}</header><main><p class="code" aria-hidden="true">503</p><h1>Service Unavailable</h1><p>${escapeHtml(DATABASE_UNAVAILABLE)}</p><a href="/">Go back home</a></main></body></html>
`;
}

/**
 * The services as the storefront's loaders and actions see them: a call that
 * finds the database out of reach throws a 503 route error response, which
 * the error page shows with its message and entry.server answers with
 * Retry-After, instead of an unexpected error (500). One wrapper per method,
 * made once.
 */
export function withOutageResponses<T extends object>(services: T): T {
  const rethrow = (error: unknown): never => {
    if (isDatabaseUnavailable(error)) throw data(DATABASE_UNAVAILABLE, { status: 503, statusText: "Service Unavailable" });
    throw error;
  };
  const wrapped = new WeakMap<object, object>();
  const wrap = <S extends object>(service: S): S => {
    const known = wrapped.get(service);
    if (known) return known as S;
    const methods = new Map<PropertyKey, unknown>();
    const proxy = new Proxy(service, {
      get(target, key, receiver) {
        const value: unknown = Reflect.get(target, key, receiver);
        if (typeof value !== "function") return value !== null && typeof value === "object" ? wrap(value) : value;
        let method = methods.get(key);
        if (!method) {
          method = (...args: unknown[]) => {
            try {
              const result: unknown = Reflect.apply(value, target, args);
              return result instanceof Promise ? result.catch(rethrow) : result;
            } catch (error) {
              return rethrow(error);
            }
          };
          methods.set(key, method);
        }
        return method;
      },
    });
    wrapped.set(service, proxy);
    return proxy;
  };
  return wrap(services);
}

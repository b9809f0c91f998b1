/**
 * The browser's door to the JSON API, used by every screen that talks to it.
 * - base URL from configuration (API_BASE_URL, default same origin), credentials included;
 * - cookie-authenticated writes carry X-XSRF-TOKEN from the XSRF-TOKEN cookie, fetched
 *   from /sanctum/csrf-cookie when missing or older than 5 minutes;
 * - a GET that fails on the network or with a 5xx is tried once more, at once;
 *   writes are never retried (a retried order could be placed twice).
 */

export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  readonly status: number;
  readonly errors: FieldErrors;
  readonly body: unknown;
  constructor(status: number, message: string, errors: FieldErrors = {}, body: unknown = undefined) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.errors = errors;
    this.body = body;
  }
}

/** A field's server messages joined with spaces, as the specification shows them. */
export function fieldMessage(errors: FieldErrors, field: string): string | undefined {
  const messages = errors[field];
  return messages && messages.length > 0 ? messages.join(" ") : undefined;
}

export const CSRF_COOKIE = "XSRF-TOKEN";
export const CSRF_HEADER = "X-XSRF-TOKEN";
export const CSRF_TIMESTAMP_COOKIE = "XSRF-TOKEN-TIMESTAMP";
/** The token is reused while younger than this. */
export const CSRF_MAX_AGE_MS = 5 * 60 * 1000;
/** The timestamp cookie lives about 30 days (43829 minutes). */
export const CSRF_TIMESTAMP_COOKIE_MINUTES = 43829;

export interface CookieJar {
  get(name: string): string | undefined;
  set(name: string, value: string, maxAgeSeconds: number): void;
}

export const documentCookies: CookieJar = {
  get(name) {
    for (const part of document.cookie.split("; ")) {
      const eq = part.indexOf("=");
      if (eq > 0 && part.slice(0, eq) === name) return decodeURIComponent(part.slice(eq + 1));
    }
    return undefined;
  },
  set(name, value, maxAgeSeconds) {
    const secure = location.protocol === "https:" ? "; Secure" : "";
    document.cookie = `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${maxAgeSeconds}; SameSite=Lax${secure}`;
  },
};

export interface ApiClientOptions {
  /** API_BASE_URL; empty for the same origin. */
  baseUrl: string;
  cookies: CookieJar;
  /** A bearer token when the caller holds one (other API clients). */
  getToken?: () => string | null | undefined;
  fetch?: typeof fetch;
  now?: () => number;
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  signal?: AbortSignal;
  /** Extra request headers, e.g. checkout's Idempotency-Key. */
  headers?: Record<string, string>;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function createApiClient(options: ApiClientOptions) {
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const now = options.now ?? Date.now;
  const base = options.baseUrl.replace(/\/+$/, "");

  function urlFor(path: string, query?: RequestOptions["query"]): string {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) search.set(key, String(value));
    }
    const qs = search.toString();
    return `${base}${path}${qs ? `?${qs}` : ""}`;
  }

  /**
   * One token fetch at a time: two writes at once (a postcode suggestion while
   * "Find address" is clicked) each fetching a new token would each replace the
   * cookie, and the first write would send a token the cookie no longer holds (419).
   */
  let refreshing: Promise<void> | null = null;

  /** Makes sure a fresh request-forgery token is held before a write. */
  async function ensureCsrfToken(fresh = false): Promise<string | undefined> {
    const token = options.cookies.get(CSRF_COOKIE);
    const issuedAt = Number(options.cookies.get(CSRF_TIMESTAMP_COOKIE));
    if (!fresh && token && Number.isFinite(issuedAt) && now() - issuedAt < CSRF_MAX_AGE_MS) return token;
    // Shared by every write waiting for it, so no one write's abort cancels it for the others.
    refreshing ??= doFetch(urlFor("/sanctum/csrf-cookie"), { method: "GET", credentials: "include" })
      .then(() => options.cookies.set(CSRF_TIMESTAMP_COOKIE, String(now()), CSRF_TIMESTAMP_COOKIE_MINUTES * 60))
      .catch(() => {
        // The write goes ahead; the server answers 419 if it needed the token.
      })
      .finally(() => {
        refreshing = null;
      });
    await refreshing;
    return options.cookies.get(CSRF_COOKIE);
  }

  async function send(method: string, path: string, request: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { ...request.headers, Accept: "application/json" };
    if (request.body !== undefined) headers["Content-Type"] = "application/json";
    const token = options.getToken?.();
    if (token) headers.Authorization = `Bearer ${token}`;
    if (!SAFE_METHODS.has(method)) {
      const csrf = await ensureCsrfToken();
      if (csrf) headers[CSRF_HEADER] = csrf;
    }
    const init: RequestInit = {
      method,
      headers,
      credentials: "include",
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: request.signal,
    };
    const url = urlFor(path, request.query);
    if (method !== "GET") {
      const res = await doFetch(url, init);
      // The token is bound to the session it was issued for: one that ended meanwhile (signed out in another
      // tab, expired) leaves a stale one. A 419 did nothing, so the write is sent once more with a fresh token.
      if (res.status !== 419 || SAFE_METHODS.has(method)) return res;
      const retried = await ensureCsrfToken(true);
      return retried ? doFetch(url, { ...init, headers: { ...headers, [CSRF_HEADER]: retried } }) : res;
    }
    // One retry for reads, with no wait.
    try {
      const first = await doFetch(url, init);
      if (first.status < 500) return first;
    } catch (error) {
      if (request.signal?.aborted) throw error;
    }
    return doFetch(url, init);
  }

  async function call<T>(method: string, path: string, request?: RequestOptions): Promise<T> {
    const response = await send(method, path, request);
    const text = response.status === 204 ? "" : await response.text();
    let body: unknown = undefined;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
    }
    if (!response.ok) {
      const record = (body ?? {}) as { message?: unknown; errors?: unknown };
      const message = typeof record.message === "string" ? record.message : response.statusText || "Request failed";
      const errors = record.errors && typeof record.errors === "object" ? (record.errors as FieldErrors) : {};
      throw new ApiError(response.status, message, errors, body);
    }
    return body as T;
  }

  return {
    get: <T>(path: string, request?: Omit<RequestOptions, "body">) => call<T>("GET", path, request),
    post: <T>(path: string, body?: unknown, request?: RequestOptions) => call<T>("POST", path, { ...request, body }),
    put: <T>(path: string, body?: unknown, request?: RequestOptions) => call<T>("PUT", path, { ...request, body }),
    patch: <T>(path: string, body?: unknown, request?: RequestOptions) => call<T>("PATCH", path, { ...request, body }),
    delete: <T>(path: string, request?: RequestOptions) => call<T>("DELETE", path, request),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

let browserClient: ApiClient | undefined;

/** The storefront's shared client, built on first use from the public configuration. */
export function apiClient(baseUrl: string): ApiClient {
  browserClient ??= createApiClient({ baseUrl, cookies: documentCookies });
  return browserClient;
}

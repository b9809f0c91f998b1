import type { FastifyInstance, LightMyRequestResponse } from "fastify";

/**
 * A browser-like client over `app.inject`: keeps cookies between requests and,
 * like the storefront's API client, echoes XSRF-TOKEN as X-XSRF-TOKEN on writes.
 */
export class TestBrowser {
  readonly cookies = new Map<string, string>();
  readonly app: FastifyInstance;
  readonly ip: string;
  constructor(app: FastifyInstance, ip = "203.0.113.10") {
    this.app = app;
    this.ip = ip;
  }

  async request(
    method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
    url: string,
    body?: unknown,
    options: { csrf?: boolean; headers?: Record<string, string> } = {},
  ): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const xsrf = this.cookies.get("XSRF-TOKEN");
    if (method !== "GET" && options.csrf !== false && xsrf) headers["x-xsrf-token"] = decodeURIComponent(xsrf);
    // The back office's own token, as its scripts echo it.
    const adminCsrf = this.cookies.get("tc_admin_csrf");
    if (method !== "GET" && options.csrf !== false && adminCsrf) headers["x-admin-csrf"] = decodeURIComponent(adminCsrf);
    const res = await this.app.inject({ method, url, payload: body as never, headers, remoteAddress: this.ip });
    for (const c of res.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      const expired = c.maxAge === 0 || (c.expires && c.expires.getTime() <= Date.now());
      if (expired || c.value === "") this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return res;
  }

  /** Fetches the request-forgery cookie, as the storefront does before a write. */
  async csrf(): Promise<void> {
    await this.request("GET", "/sanctum/csrf-cookie");
  }

  /** Opens a customer account through the register form, password confirmed; the answer, for the test to check. */
  register(firstname: string, lastname: string, email: string, password = "a long enough secret"): Promise<LightMyRequestResponse> {
    return this.post("/api/auth/register", { firstname, lastname, email, password, password_confirmation: password });
  }

  /** Signs in as an existing user, as the sign-in form does. */
  async signIn(email: string, password: string): Promise<void> {
    await this.csrf();
    const res = await this.post("/api/auth/login", { email, password });
    if (res.statusCode !== 200) throw new Error(`Sign-in as ${email} answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
  }

  /** Signs in to the back office as a member of staff, as its sign-in screen does. */
  async staffSignIn(email: string, password: string, totp?: string): Promise<void> {
    const res = await this.post("/api/admin/auth/login", { email, password, ...(totp ? { totp } : {}) });
    if (res.statusCode !== 200) throw new Error(`Staff sign-in as ${email} answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
  }

  /** A form post from the page itself, as a browser without scripts sends it (same origin, urlencoded). */
  postForm(url: string, fields: readonly (readonly [string, string])[]): Promise<LightMyRequestResponse> {
    return this.request("POST", url, new URLSearchParams(fields.map(([k, v]) => [k, v])).toString(), { headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" } });
  }

  get = (url: string) => this.request("GET", url);
  post = (url: string, body?: unknown) => this.request("POST", url, body);
  put = (url: string, body?: unknown) => this.request("PUT", url, body);
  delete = (url: string) => this.request("DELETE", url);
  patch = (url: string, body?: unknown) => this.request("PATCH", url, body);
}

/** A browser on `app` from `ip` holding the request-forgery cookie, as the storefront fetches it before its first write. */
export async function freshBrowser(app: FastifyInstance, ip: string): Promise<TestBrowser> {
  const browser = new TestBrowser(app, ip);
  await browser.csrf();
  return browser;
}

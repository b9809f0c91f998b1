// A visitor for the bench: keeps its cookies and, like the storefront, echoes
// the XSRF-TOKEN cookie as a header on writes.

export interface Sample {
  status: number;
  ms: number;
  /** The start of the answer when it was an error, to say why. */
  error?: string;
}

/** The p-th percentile of sorted values (nearest rank); 0 when there are none. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** A guest's order from the basket, collected and paid on collection: the body of `POST /api/checkout`. */
export const guestOrder = {
  email: "bench@example.com",
  phone: "0113 496 0000",
  delivery_method: "collect",
  // Who collects it: checkout asks for the name (issue 34).
  collector_name: "Bench Collector",
  delivery_address: { line_1: "1 Bench Street", town: "Leeds", postcode: "LS1 1AA" },
  payment_method: "pay_on_collection",
};

export class BenchClient {
  private readonly cookies = new Map<string, string>();
  private readonly base: string;
  private readonly timeoutMs: number | undefined;
  /** `timeoutMs`: a request not answered by then fails (an AbortSignal timeout); none by default. */
  constructor(base: string, timeoutMs?: number) {
    this.base = base;
    this.timeoutMs = timeoutMs;
  }

  /** Cookie (and, for writes, XSRF) headers that replay this visitor. */
  headers(write = false): Record<string, string> {
    const headers: Record<string, string> = { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ") };
    const xsrf = this.cookies.get("XSRF-TOKEN");
    if (write && xsrf) headers["x-xsrf-token"] = decodeURIComponent(xsrf);
    // The back office's own token, as its screens echo it.
    const adminCsrf = this.cookies.get("tc_admin_csrf");
    if (write && adminCsrf) headers["x-admin-csrf"] = decodeURIComponent(adminCsrf);
    return headers;
  }

  async csrf(): Promise<void> {
    await this.timed("GET", "/sanctum/csrf-cookie");
  }

  async post(url: string, body: unknown): Promise<void> {
    const { status, error } = await this.timed("POST", url, body);
    if (status >= 400) throw new Error(`POST ${url} answered ${status}: ${error}`);
  }

  /** One request, timed to the end of its body; `body` is the answer's text. */
  async timed(method: "GET" | "POST" | "PATCH", url: string, body?: unknown, extra: Record<string, string> = {}): Promise<Sample & { body: string }> {
    const headers: Record<string, string> = { ...this.headers(method !== "GET"), ...extra };
    if (body !== undefined) headers["content-type"] = "application/json";
    const started = performance.now();
    const signal = this.timeoutMs === undefined ? undefined : AbortSignal.timeout(this.timeoutMs);
    const res = await fetch(this.base + url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
    const text = await res.text();
    const ms = performance.now() - started;
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const at = pair!.indexOf("=");
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      if (value === "" || /max-age=0/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res.status >= 400 ? { status: res.status, ms, error: text.slice(0, 300), body: text } : { status: res.status, ms, body: text };
  }
}

import { readFileSync } from "node:fs";
import { z } from "zod";

/**
 * What a route rule may say, and how a request finds its rule: the one set
 * of rules the file, the back office, the API and the CSV import check.
 */
const internalPath = z
  .string()
  .trim()
  .max(500, "must be at most 500 characters")
  .regex(/^\/(?!\/)[^\s\\]*$/, "must be a path starting with a single /");
const externalUrl = z.url({ protocol: /^https$/, error: "must be an absolute https:// address" });

/** Paths a rule may not take over: the API, the back office, the build's files. */
const RESERVED = /^\/(api|admin|assets|sanctum|media)(\/|$)|^\/(healthz|readyz)$/;

export const ruleSchema = z
  .object({
    from: internalPath.refine((p) => !RESERVED.test(p), "cannot be a path of the API, the back office or the shop's files"),
    match: z.enum(["exact", "prefix"], { error: "must be exact or prefix" }).default("exact"),
    to: z.union([internalPath, externalUrl], { error: "must be an internal path or an absolute https:// address" }),
    status: z.coerce.number().pipe(z.union([z.literal(301), z.literal(302), z.literal(307), z.literal(308)], { error: "must be 301, 302, 307 or 308" })).default(301),
  })
  .refine((r) => !(r.match === "exact" && r.from === r.to), { message: "redirects to itself", path: ["to"] });

const fileSchema = z.object({ rules: z.array(ruleSchema) });

export type RedirectRule = z.output<typeof ruleSchema>;

export function parseRedirectRules(json: unknown): RedirectRule[] {
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`);
    throw new Error(`Invalid redirect rules:\n  - ${problems.join("\n  - ")}`);
  }
  return parsed.data.rules;
}

export function loadRedirectRules(file: string): RedirectRule[] {
  return parseRedirectRules(JSON.parse(readFileSync(file, "utf8")));
}

export interface RedirectHit {
  location: string;
  status: number;
  rule: RedirectRule;
}

/**
 * A resolver over the rules: an exact rule by a map lookup, else the longest
 * prefix rule that matches whole segments (`/blog` matches `/blog/x`, not
 * `/blogger`) and carries the rest of the path over. The query string is kept.
 * Thousands of rules cost one lookup and a short scan per request.
 */
export function compileRedirects(rules: RedirectRule[]): (url: string) => RedirectHit | null {
  const exact = new Map<string, RedirectRule>();
  for (const r of rules) if (r.match === "exact" && !exact.has(r.from)) exact.set(r.from, r);
  const prefixes = rules.filter((r) => r.match === "prefix").sort((a, b) => b.from.length - a.from.length);
  return (url) => {
    const q = url.indexOf("?");
    const path = q === -1 ? url : url.slice(0, q);
    const query = q === -1 ? "" : url.slice(q);
    const found = exact.get(path);
    if (found) return { location: `${found.to}${query}`, status: found.status, rule: found };
    for (const rule of prefixes) {
      const base = rule.from.replace(/\/$/, "");
      if (path !== rule.from && path !== base && !path.startsWith(`${base}/`)) continue;
      const rest = path === rule.from || path === base ? "" : path.slice(base.length);
      return { location: `${rest ? `${rule.to.replace(/\/$/, "")}${rest}` : rule.to}${query}`, status: rule.status, rule };
    }
    return null;
  };
}

/** One request against the rules: where it goes, or null. */
export function resolveRedirect(rules: RedirectRule[], url: string): { location: string; status: number } | null {
  const hit = compileRedirects(rules)(url);
  return hit ? { location: hit.location, status: hit.status } : null;
}

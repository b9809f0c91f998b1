import { readFileSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import { z } from "zod";

const internalPath = z
  .string()
  .regex(/^\/(?!\/)[^\s\\]*$/, "must be a path starting with a single /");
const externalUrl = z.url({ protocol: /^https$/, error: "must be an absolute https:// address" });

const ruleSchema = z
  .object({
    from: internalPath,
    match: z.enum(["exact", "prefix"]).default("exact"),
    to: z.union([internalPath, externalUrl], { error: "must be an internal path or an absolute https:// address" }),
    status: z.union([z.literal(301), z.literal(302), z.literal(307), z.literal(308)], {
      error: "must be 301, 302, 307 or 308",
    }),
  })
  .refine((r) => !(r.match === "exact" && r.from === r.to), { message: "redirects to itself" });

const fileSchema = z.object({ rules: z.array(ruleSchema) });

export type RedirectRule = z.infer<typeof ruleSchema>;

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

/**
 * Where a request path goes, or null when no rule matches. A prefix rule
 * matches whole segments (`/blog` matches `/blog/x`, not `/blogger`) and carries
 * the rest of the path over. The query string is kept.
 */
export function resolveRedirect(rules: RedirectRule[], url: string): { location: string; status: number } | null {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? "" : url.slice(q);
  for (const rule of rules) {
    let rest: string | null = null;
    if (path === rule.from) rest = "";
    else if (rule.match === "prefix" && path.startsWith(rule.from.endsWith("/") ? rule.from : `${rule.from}/`)) {
      rest = path.slice(rule.from.replace(/\/$/, "").length);
    }
    if (rest === null) continue;
    const target = rest ? `${rule.to.replace(/\/$/, "")}${rest}` : rule.to;
    return { location: `${target}${query}`, status: rule.status };
  }
  return null;
}

export function registerRedirects(app: FastifyInstance, rules: RedirectRule[]): void {
  if (rules.length === 0) return;
  app.addHook("onRequest", async (request, reply) => {
    if (request.method !== "GET" && request.method !== "HEAD") return;
    const hit = resolveRedirect(rules, request.url);
    if (hit) return reply.redirect(hit.location, hit.status);
  });
}

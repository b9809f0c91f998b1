import { parse } from "csv-parse/sync";
import { and, asc, eq, ilike, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { escapeLike } from "../../db/like.ts";
import { refusingUniqueClash } from "../../db/errors.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { recordAudit } from "../audit/service.ts";
import { fieldErrorsOf } from "../catalog/products/product-rules.ts";
import { type StaffActor, authorize } from "../staff/actor.ts";
import { type RedirectHit, type RedirectRule, compileRedirects, ruleSchema } from "./rules.ts";
import { type RedirectRuleRow, redirectRules } from "./schema.ts";

/**
 * The shop's route rules in the database (issue 29): listed, added, changed
 * and removed by staff (each audited), imported from a CSV of old → new
 * addresses all or nothing, tested against a URL, and seeded from
 * config/redirects.json. Every process holds them in memory (the matcher).
 */
export const REDIRECTS_PAGE_MAX = 200;
export const IMPORT_ROWS_MAX = 50_000;

const ruleOf = (r: RedirectRuleRow): RedirectRule => ({ from: r.fromPath, match: r.match, to: r.toTarget, status: r.status as RedirectRule["status"] });
export const redirectJson = (r: RedirectRuleRow) => ({ id: r.id, from: r.fromPath, match: r.match, to: r.toTarget, status: r.status, updated_at: r.updatedAt.toISOString() });

/** A rule as given, checked: each refused field named as the API names it. */
function checked(input: unknown): RedirectRule {
  const parsed = ruleSchema.safeParse(input);
  if (!parsed.success) throw new ValidationError(fieldErrorsOf(parsed.error));
  return parsed.data;
}

/**
 * The rules every request is matched against, in memory: loaded at start,
 * again at once after this process changes them, and every few seconds when
 * another process has (a count and checksum of the table, one cheap query).
 */
export interface RedirectMatcher {
  resolve(url: string): RedirectHit | null;
  reload(): Promise<void>;
  /** Reloads only when the table changed since the last load (one small query otherwise). */
  refresh(): Promise<void>;
  /** Checks for others' changes every `ms` until closed. */
  watch(ms: number): void;
  close(): void;
}

export function createRedirectMatcher(db: Db): RedirectMatcher {
  let resolve: (url: string) => RedirectHit | null = () => null;
  let stamp = "";
  let timer: NodeJS.Timeout | null = null;
  const stampOf = async () => {
    const result = (await db.execute(sql`select count(*)::int as n, coalesce(sum(id), 0)::bigint as ids, max(updated_at) as at from ${redirectRules}`)) as unknown as {
      rows: { n: number; ids: string; at: string | Date | null }[];
    };
    const r = result.rows[0]!;
    return `${r.n}:${r.ids}:${r.at ? new Date(r.at).toISOString() : ""}`;
  };
  async function reload(): Promise<void> {
    const [now, rows] = await Promise.all([stampOf(), db.select().from(redirectRules)]);
    resolve = compileRedirects(rows.map(ruleOf));
    stamp = now;
  }
  async function refresh(): Promise<void> {
    if ((await stampOf()) !== stamp) await reload();
  }
  return {
    resolve: (url) => resolve(url),
    reload,
    refresh,
    watch(ms) {
      timer = setInterval(() => {
        // The database away for a moment: keep the rules held, try again next time.
        refresh().catch(() => {});
      }, ms);
      timer.unref();
    },
    close() {
      if (timer) clearInterval(timer);
    },
  };
}

/** The file's rules into the table, each only where no rule has its path yet: a shop's own edits win. */
export async function seedRedirectRules(db: Db, rules: RedirectRule[]): Promise<void> {
  if (rules.length === 0) return;
  await db
    .insert(redirectRules)
    .values(rules.map((r) => ({ fromPath: r.from, match: r.match, toTarget: r.to, status: r.status })))
    .onConflictDoNothing();
}

export function createRedirectService(db: Db, matcher: RedirectMatcher) {
  async function loops(q: Db, rule: RedirectRule, selfId: number | null): Promise<void> {
    // An exact rule back to where another exact rule comes from, the other way round, would send browsers in a circle.
    if (rule.match !== "exact" || !rule.to.startsWith("/")) return;
    const [back] = await q
      .select({ id: redirectRules.id })
      .from(redirectRules)
      .where(and(eq(redirectRules.fromPath, rule.to), eq(redirectRules.toTarget, rule.from), eq(redirectRules.match, "exact")))
      .limit(1);
    if (back && back.id !== selfId) throw new ValidationError({ to: [`${rule.to} already redirects to ${rule.from}: the two would send browsers in a circle.`] });
  }

  function guarded<T>(work: () => Promise<T>, from: string): Promise<T> {
    return refusingUniqueClash(work, () => ({ from: [`There is already a rule for ${from}.`] }));
  }

  async function byId(q: Db, id: number) {
    const [row] = await q.select().from(redirectRules).where(eq(redirectRules.id, id)).limit(1);
    if (!row) throw new HttpError(404, "No such rule.");
    return row;
  }

  return {
    /** Rules by path, a page at a time (`after`: the last path shown), found by either address. */
    async list(actor: StaffActor, options: { q?: string; after?: string; limit?: number } = {}) {
      authorize(actor, "catalogue.view");
      const limit = Math.min(Math.max(1, options.limit ?? 50), REDIRECTS_PAGE_MAX);
      const q = options.q?.trim();
      const rows = await db
        .select()
        .from(redirectRules)
        .where(
          and(
            q ? or(ilike(redirectRules.fromPath, `%${escapeLike(q)}%`), ilike(redirectRules.toTarget, `%${escapeLike(q)}%`)) : undefined,
            options.after ? sql`${redirectRules.fromPath} > ${options.after}` : undefined,
          ),
        )
        .orderBy(asc(redirectRules.fromPath), asc(redirectRules.match))
        .limit(limit + 1);
      const page = rows.slice(0, limit);
      const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(redirectRules);
      return { data: page.map(redirectJson), next_after: rows.length > limit ? page.at(-1)!.fromPath : null, total: count!.n };
    },

    async create(actor: StaffActor, input: unknown) {
      authorize(actor, "catalogue.manage");
      const rule = checked(input);
      const row = await guarded(
        () =>
          db.transaction(async (t) => {
            const tx = t as unknown as Db;
            await loops(tx, rule, null);
            const [made] = await tx.insert(redirectRules).values({ fromPath: rule.from, match: rule.match, toTarget: rule.to, status: rule.status }).returning();
            await recordAudit(tx, actor, { action: "redirect.created", entity: "redirect", entityId: rule.from, before: null, after: redirectJson(made!) });
            return made!;
          }),
        rule.from,
      );
      await matcher.reload();
      return redirectJson(row);
    },

    async update(actor: StaffActor, id: number, input: Record<string, unknown>) {
      authorize(actor, "catalogue.manage");
      const row = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const before = await byId(tx, id);
        const rule = checked({ ...ruleOf(before), ...input });
        await loops(tx, rule, id);
        const [after] = await guarded(
          () => tx.update(redirectRules).set({ fromPath: rule.from, match: rule.match, toTarget: rule.to, status: rule.status, updatedAt: sql`now()` }).where(eq(redirectRules.id, id)).returning(),
          rule.from,
        );
        await recordAudit(tx, actor, { action: "redirect.updated", entity: "redirect", entityId: rule.from, before: redirectJson(before), after: redirectJson(after!) });
        return after!;
      });
      await matcher.reload();
      return redirectJson(row);
    },

    async remove(actor: StaffActor, id: number) {
      authorize(actor, "catalogue.manage");
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const before = await byId(tx, id);
        await tx.delete(redirectRules).where(eq(redirectRules.id, id));
        await recordAudit(tx, actor, { action: "redirect.removed", entity: "redirect", entityId: before.fromPath, before: redirectJson(before), after: null });
      });
      await matcher.reload();
    },

    /** Which rule answers a URL (a path, or a whole address on this site), and where it sends it. */
    async test(actor: StaffActor, url: string) {
      authorize(actor, "catalogue.view");
      let path = url.trim();
      try {
        if (/^https?:\/\//i.test(path)) {
          const address = new URL(path);
          path = address.pathname + address.search;
        }
      } catch {
        throw new ValidationError({ url: ["Give a path such as /old-page, or a whole address."] });
      }
      if (!path.startsWith("/")) throw new ValidationError({ url: ["Give a path such as /old-page, or a whole address."] });
      // Another process's change of the last seconds counts too.
      await matcher.refresh();
      const hit = matcher.resolve(path);
      if (!hit) return { path, rule: null, location: null, status: null };
      const [row] = await db
        .select()
        .from(redirectRules)
        .where(and(eq(redirectRules.fromPath, hit.rule.from), eq(redirectRules.match, hit.rule.match)))
        .limit(1);
      return { path, rule: row ? redirectJson(row) : null, location: hit.location, status: hit.status };
    },

    /**
     * A CSV of `from,to` (and optionally `status`, `match`) rows, a header row
     * first: every row checked, then all of it written in one transaction
     * (a rule for the same path is replaced), or nothing when any row is
     * refused. `dryRun` reports and writes nothing.
     */
    async importCsv(actor: StaffActor, text: string, options: { dryRun: boolean }) {
      authorize(actor, "catalogue.manage");
      let records: string[][];
      try {
        records = parse(text.replace(/^\uFEFF/, ""), { skip_empty_lines: true, relax_column_count: true }) as string[][];
      } catch (error) {
        throw new ValidationError({ file: [`The file is not CSV this can read: ${(error as Error).message.slice(0, 200)}`] });
      }
      const [header, ...rows] = records;
      const names = (header ?? []).map((h) => h.trim().toLowerCase().replace(/^old[ _]?path$/, "from").replace(/^new[ _]?(path|address)$/, "to"));
      const at = (name: string) => names.indexOf(name);
      if (at("from") < 0 || at("to") < 0) throw new ValidationError({ file: ["The first row names the columns: from and to (or old_path and new_path), and optionally status and match."] });
      if (rows.length > IMPORT_ROWS_MAX) throw new ValidationError({ file: [`At most ${IMPORT_ROWS_MAX.toLocaleString("en-GB")} rules in one file.`] });
      const refused: { row: number; column: string; message: string }[] = [];
      const rules: RedirectRule[] = [];
      const seen = new Map<string, number>();
      rows.forEach((cells, i) => {
        const row = i + 2;
        const cell = (name: string) => (at(name) >= 0 ? (cells[at(name)] ?? "").trim() : "");
        const parsed = ruleSchema.safeParse({ from: cell("from"), to: cell("to"), status: cell("status") || undefined, match: cell("match") || undefined });
        if (!parsed.success) {
          for (const [column, messages] of Object.entries(fieldErrorsOf(parsed.error))) for (const message of messages) refused.push({ row, column, message });
          return;
        }
        const key = `${parsed.data.match} ${parsed.data.from}`;
        if (seen.has(key)) refused.push({ row, column: "from", message: `${parsed.data.from} is also on row ${seen.get(key)}: give each address once.` });
        seen.set(key, row);
        rules.push(parsed.data);
      });
      const existing = rules.length
        ? await db.select({ from: redirectRules.fromPath, match: redirectRules.match }).from(redirectRules).where(sql`(${redirectRules.fromPath}, ${redirectRules.match}) in (select * from jsonb_to_recordset(${JSON.stringify(rules.map((r) => ({ f: r.from, m: r.match })))}::jsonb) as x(f text, m text))`)
        : [];
      const replaced = rules.filter((r) => existing.some((e) => e.from === r.from && e.match === r.match)).length;
      const report = { rows: rows.length, created: rules.length - replaced, updated: replaced, refused, applied: false, dry_run: options.dryRun };
      if (options.dryRun || refused.length || rules.length === 0) return report;
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        await tx.execute(sql`
          insert into ${redirectRules} (from_path, match, to_target, status)
          select r.f, r.m, r.t, r.s from jsonb_to_recordset(${JSON.stringify(rules.map((r) => ({ f: r.from, m: r.match, t: r.to, s: r.status })))}::jsonb) as r(f text, m text, t text, s int)
          on conflict (from_path, match) do update set to_target = excluded.to_target, status = excluded.status, updated_at = now()`);
        await recordAudit(tx, actor, { action: "redirect.imported", entity: "redirect", entityId: "import", before: null, after: { rows: rows.length, created: report.created, updated: report.updated } });
      });
      await matcher.reload();
      return { ...report, applied: true };
    },
  };
}

export type RedirectService = ReturnType<typeof createRedirectService>;

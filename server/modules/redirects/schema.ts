import { sql } from "drizzle-orm";
import { check, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { serialId, timestamps } from "../../db/columns.ts";

/**
 * Route rules (issue 29): an old address answered with a redirect before any
 * page is routed, exact or by prefix, to a path here or an https:// address.
 * Edited in the back office, imported as CSV, seeded from config/redirects.json.
 */
export const redirectRules = pgTable(
  "redirect_rules",
  {
    id: serialId(),
    fromPath: text("from_path").notNull(),
    match: text("match", { enum: ["exact", "prefix"] }).notNull().default("exact"),
    toTarget: text("to_target").notNull(),
    status: integer("status").notNull().default(301),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("redirect_rules_from_key").on(t.fromPath, t.match),
    check("redirect_rules_match_check", sql`${t.match} in ('exact', 'prefix')`),
    check("redirect_rules_status_check", sql`${t.status} in (301, 302, 307, 308)`),
  ],
);

export type RedirectRuleRow = typeof redirectRules.$inferSelect;

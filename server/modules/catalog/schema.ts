import { sql } from "drizzle-orm";
import { type AnyPgColumn, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * Categories form a tree. `path` is the slug path from the root
 * (`power-tools/cordless-drills`), kept so a URL resolves in one indexed read.
 */
export const categories = pgTable(
  "categories",
  {
    id: serial("id").primaryKey(),
    parentId: integer("parent_id").references((): AnyPgColumn => categories.id, { onDelete: "restrict" }),
    slug: text("slug").notNull(),
    path: text("path").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    position: integer("position").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`now()`),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [
    uniqueIndex("categories_path_key").on(t.path),
    uniqueIndex("categories_parent_slug_key").on(sql`coalesce(${t.parentId}, 0)`, t.slug),
    index("categories_parent_position_idx").on(t.parentId, t.position),
  ],
);

export type Category = typeof categories.$inferSelect;

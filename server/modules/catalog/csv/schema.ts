import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { optionalRef, serialId, timestamps, timestamptz } from "../../../db/columns.ts";
import { staff } from "../../staff/schema.ts";

/**
 * Checking: read, nothing written (a dry run). Running: being applied in one
 * transaction. Done: applied (or, for a dry run, checked). Refused: a row was
 * refused, so nothing was written. Failed: an error or an interrupted process
 * (the transaction rolled back).
 */
export const IMPORT_STATES = ["queued", "checking", "running", "done", "refused", "failed"] as const;
export type ImportState = (typeof IMPORT_STATES)[number];

/**
 * A catalogue CSV import (issue 20, ADR 0036): its file, what it was asked to
 * do, its progress while it works and its report once done. The import itself
 * writes products in one transaction of its own; this row is written outside
 * it, so its progress is readable while it runs.
 */
export const productImports = pgTable(
  "product_imports",
  {
    id: serialId(),
    staffId: optionalRef("staff_id", () => staff.id, { onDelete: "set null" }),
    fileName: text("file_name").notNull(),
    /** Where the uploaded file waits to be applied after its dry run; empty once done with. */
    storedPath: text("stored_path").notNull().default(""),
    bytes: integer("bytes").notNull().default(0),
    dryRun: boolean("dry_run").notNull(),
    validOnly: boolean("valid_only").notNull().default(false),
    state: text("state", { enum: IMPORT_STATES }).notNull().default("queued"),
    rowsTotal: integer("rows_total").notNull().default(0),
    rowsDone: integer("rows_done").notNull().default(0),
    /** The report (`{rows, created, updated, unchanged, refused, changes, …}`) once finished. */
    report: jsonb("report"),
    error: text("error").notNull().default(""),
    startedAt: timestamptz("started_at"),
    finishedAt: timestamptz("finished_at"),
    ...timestamps(),
  },
  (t) => [
    index("product_imports_created_idx").on(t.createdAt, t.id),
    check("product_imports_state_check", sql`${t.state} in ('queued', 'checking', 'running', 'done', 'refused', 'failed')`),
  ],
);

export type ProductImport = typeof productImports.$inferSelect;

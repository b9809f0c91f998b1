import type { Db } from "../../../db/client.ts";
import { recordAudit } from "../../audit/service.ts";
import { type StaffActor, authorize } from "../../staff/actor.ts";
import { VARIANTS_MAX } from "../variants/variant-rules.ts";
import { branchColumnProblems, matchHeaders } from "./columns.ts";
import { groupRows, hasOptions, loadHeldProducts, readRow, sameProductRows } from "./product-rows.ts";
import { CsvReadError, type CsvRecord, type CsvSource, detectEncoding, isBlank, readRecords } from "./read.ts";
import { type Plan, type RunState, loadCurrent, loadLookups } from "./import-state.ts";
import { checkBarcodes, keepOneOnSale, keepWholeProducts, planGroup, planSlugs } from "./plan-batch.ts";
import { type ImportOptions, type ImportReport, REPORT_CHANGES_MAX, emptyReport, refuse } from "./report.ts";
import { writeBatch } from "./write-batch.ts";

export type { FieldChange, ImportOptions, ImportProgress, ImportReport, Refusal, RowChange } from "./report.ts";

/**
 * The catalogue import (issue 20, ADR 0036). Each row is checked by the same
 * field rules as the product screen (product-rules.ts), matched to a product
 * by SKU, and compared with it: created, changed (field: old → new),
 * unchanged or refused (row, column, why). A dry run writes nothing. Applying
 * runs in ONE transaction, set-based a batch at a time: any refused row (unless
 * only the valid rows are wanted), an error, or the process dying rolls all of
 * it back, so the catalogue is as it was.
 */

/** Rows read, checked and written per statement. */
export const IMPORT_BATCH = 2_000;

class RolledBack extends Error {}

async function processBatch(db: Db, batch: CsvRecord[], state: RunState): Promise<void> {
  const rows = batch.map((record) => readRow(record, state.columns));
  const skus = [...new Set(rows.map((r) => r.cells.get("sku") ?? "").filter(Boolean))];
  const current = await loadCurrent(db, skus, state.byBranch);
  // Products in the shop that new rows name by their slug, and those new rows below a product's own rows add to.
  const slugs = [...new Set(rows.filter((r) => hasOptions(r) && !current.has(r.cells.get("sku") ?? "") && r.cells.has("slug")).map((r) => r.cells.get("slug")!.toLowerCase()))];
  const bySlug = new Map((await loadHeldProducts(db, { slugs })).map((h) => [h.slug, h]));
  const groups = groupRows(rows, (sku) => current.get(sku)?.id, bySlug);
  const orphans = groups.filter((g) => g.key.startsWith("p:") && !g.held && g.rows.some((r) => !current.has(r.cells.get("sku") ?? "")));
  if (orphans.length) {
    const byId = new Map((await loadHeldProducts(db, { ids: orphans.map((g) => Number(g.key.slice(2))) })).map((h) => [h.id, h]));
    for (const g of orphans) g.held = byId.get(Number(g.key.slice(2))) ?? null;
  }
  const refusedBefore = state.refusedCount;
  const planned = groups.flatMap((group) => planGroup(group, state, current));
  const accepted = keepWholeProducts(await planSlugs(db, keepOneOnSale(await checkBarcodes(db, planned, state), state), state), groups, state);
  const { report } = state;
  const changed: Plan[] = [];
  for (const plan of accepted) {
    if (plan.changes.length === 0) {
      report.unchanged += 1;
      continue;
    }
    changed.push(plan);
    if (plan.current) report.would_update += 1;
    else report.would_create += 1;
    if (report.changes.length < REPORT_CHANGES_MAX) report.changes.push({ row: plan.row, sku: plan.sku, action: plan.current ? "update" : "create", fields: plan.changes });
    else report.more_changes += 1;
  }
  // One refused row and the import (unless for valid rows only) will be rolled back: stop writing, keep checking.
  if (state.refusedCount > refusedBefore && !report.valid_only) state.writing = false;
  if (state.writing && changed.length) await writeBatch(db, changed, state);
}

/**
 * Reads, checks and (unless a dry run) applies a catalogue CSV, all or
 * nothing. Never throws for what is in the file: the report says what was
 * refused. Throws for a fault (the database), having changed nothing.
 */
export async function runImport(db: Db, actor: StaffActor, source: CsvSource, options: ImportOptions): Promise<ImportReport> {
  authorize(actor, "catalogue.manage");
  const started = performance.now();
  const report = emptyReport(options);
  const finish = () => {
    report.seconds = Math.round((performance.now() - started) / 10) / 100;
    return report;
  };
  const progress = options.onProgress ?? (() => {});
  const batchSize = options.batchSize ?? IMPORT_BATCH;

  // First the whole file is read: its encoding, its header, its rows counted, its quoting checked.
  report.encoding = await detectEncoding(source);
  let header: string[] = [];
  try {
    for await (const record of readRecords(source, report.encoding)) {
      if (record.row === 1) header = record.cells;
      else if (!isBlank(record.cells)) report.rows += 1;
      if (record.row % 20_000 === 0) await progress({ done: 0, total: 0, phase: "reading" });
    }
  } catch (error) {
    if (!(error instanceof CsvReadError)) throw error;
    report.fatal = true;
    report.refused.push({ row: error.row, ...(error.column ? { column: error.column } : {}), message: error.message });
    return finish();
  }
  if (header.length === 0) {
    report.fatal = true;
    report.refused.push({ row: 1, message: "The file is empty: the first row should name the columns (sku, name, price_ex_vat, …)." });
    return finish();
  }
  const { columns, problems } = matchHeaders(header);
  const lookups = await loadLookups(db);
  problems.push(...branchColumnProblems(header, columns, lookups.branches));
  const state: RunState = {
    lookups,
    columns,
    byBranch: columns.some((c) => c?.kind === "stock_at"),
    skuRows: new Map(),
    productRuns: new Map(),
    barcodes: new Map(),
    claimed: new Map(),
    freed: new Set(),
    report,
    refusedCount: 0,
    writing: !options.dryRun,
    actor,
    fileName: options.fileName,
  };
  for (const problem of problems) refuse(state, { row: 1, column: problem.column, message: problem.message });
  if (problems.some((p) => p.fatal)) {
    report.fatal = true;
    return finish();
  }
  if (problems.length && !report.valid_only) state.writing = false;

  async function pass(handle: Db) {
    let batch: CsvRecord[] = [];
    let done = 0;
    const phase = state.writing ? "writing" : "checking";
    await progress({ done, total: report.rows, phase });
    let last: CsvRecord | null = null;
    for await (const record of readRecords(source, report.encoding!)) {
      if (record.row === 1 || isBlank(record.cells)) continue;
      // A batch is cut between products, never inside one's rows (bounded, should a file never change product).
      const full = batch.length >= batchSize && !(last && batch.length < batchSize + VARIANTS_MAX && sameProductRows(readRow(last, columns), readRow(record, columns)));
      if (full) {
        await processBatch(handle, batch, state);
        done += batch.length;
        batch = [];
        await progress({ done, total: report.rows, phase: state.writing ? "writing" : "checking" });
      }
      batch.push(record);
      last = record;
    }
    if (batch.length) await processBatch(handle, batch, state);
    await progress({ done: report.rows, total: report.rows, phase });
  }

  if (options.dryRun) {
    await pass(db);
  } else {
    try {
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        await pass(tx);
        if (state.refusedCount > 0 && !report.valid_only) throw new RolledBack();
        if (report.would_create + report.would_update === 0) return;
        await recordAudit(tx, actor, {
          action: "product.imported",
          entity: "product_import",
          entityId: options.importId ?? options.fileName.slice(0, 200),
          after: { file: options.fileName, rows: report.rows, created: report.would_create, updated: report.would_update, unchanged: report.unchanged, refused: report.refused_rows, valid_only: report.valid_only },
        });
      });
      report.applied = true;
      report.created = report.would_create;
      report.updated = report.would_update;
    } catch (error) {
      if (!(error instanceof RolledBack)) throw error;
    }
  }
  if (options.dryRun) {
    report.created = report.would_create;
    report.updated = report.would_update;
  }
  return finish();
}

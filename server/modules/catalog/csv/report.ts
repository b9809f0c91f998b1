// What an import tells its staff member: the counts, the changes and the
// refusals (row, column, why).
import type { CsvEncoding } from "./read.ts";

/** The report lists this many changes and refusals; the counts are always whole. */
export const REPORT_CHANGES_MAX = 1_000;
export const REPORT_REFUSED_MAX = 1_000;

export interface Refusal {
  /** The row as a spreadsheet numbers it: the header is row 1. */
  row: number;
  column?: string;
  message: string;
  sku?: string;
}
export interface FieldChange {
  field: string;
  old: string;
  new: string;
}
export interface RowChange {
  row: number;
  sku: string;
  action: "create" | "update";
  fields: FieldChange[];
}

export interface ImportReport {
  file_name: string;
  encoding: CsvEncoding | null;
  dry_run: boolean;
  valid_only: boolean;
  /** Whether the catalogue was changed: false for a dry run, and for an import refused or rolled back. */
  applied: boolean;
  /** Data rows in the file (blank rows aside). */
  rows: number;
  /** Products created and updated: by a dry run, what would be; by a refused import, 0 (see would_create). */
  created: number;
  updated: number;
  unchanged: number;
  would_create: number;
  would_update: number;
  /** Rows refused (the header's own problems are in `refused` as row 1, not counted here). */
  refused_rows: number;
  refused: Refusal[];
  more_refused: number;
  changes: RowChange[];
  more_changes: number;
  /** Set when the file could not be read at all (no sku column, malformed quoting, too large). */
  fatal: boolean;
  seconds: number;
}

export interface ImportProgress {
  done: number;
  total: number;
  phase: "reading" | "checking" | "writing";
}

export interface ImportOptions {
  fileName: string;
  dryRun: boolean;
  /** Apply the valid rows and skip the refused ones ("import the valid rows"). */
  validOnly?: boolean;
  batchSize?: number;
  /** The import's id (product_imports), as the audit log names it. */
  importId?: number;
  onProgress?: (progress: ImportProgress) => void | Promise<void>;
}

export function emptyReport(options: ImportOptions): ImportReport {
  return {
    file_name: options.fileName,
    encoding: null,
    dry_run: options.dryRun,
    valid_only: !!options.validOnly,
    applied: false,
    rows: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    would_create: 0,
    would_update: 0,
    refused_rows: 0,
    refused: [],
    more_refused: 0,
    changes: [],
    more_changes: 0,
    fatal: false,
    seconds: 0,
  };
}

/** The report and the count of refusals it is kept with (the run's state). */
export interface Tally {
  report: ImportReport;
  refusedCount: number;
}

export function refuse(state: Tally, refusal: Refusal) {
  state.refusedCount += 1;
  if (state.report.refused.length < REPORT_REFUSED_MAX) state.report.refused.push(refusal);
  else state.report.more_refused += 1;
}

/** Refuses a row for each of its problems, counted once. */
export function refuseRow(state: Tally, refusals: Refusal[], sku: string): null {
  for (const r of refusals) refuse(state, { ...r, ...(sku ? { sku } : {}) });
  state.report.refused_rows += 1;
  return null;
}


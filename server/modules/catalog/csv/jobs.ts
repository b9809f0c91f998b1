import { createReadStream, mkdirSync, rmSync } from "node:fs";
import { createWriteStream } from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { and, eq, inArray, lt } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { HttpError } from "../../../http-errors.ts";
import { type StaffActor, authorize } from "../../staff/actor.ts";
import { type CatalogueExportFilters, exportCatalogueCsv } from "./export.ts";
import { type ImportProgress, type ImportReport, runImport } from "./import.ts";
import { IMPORT_MAX_BYTES } from "./read.ts";
import { type ImportState, productImports } from "./schema.ts";

/**
 * Catalogue imports as background jobs (issue 20, ADR 0036). An upload is
 * streamed to a file under DATA_DIR/imports (cut off at 200 MB while it
 * arrives), then checked (a dry run) or applied in the background while the
 * shop keeps serving; its progress (rows done, rows per second, time left) and
 * report are readable meanwhile. Progress lives in this process's memory and,
 * on PostgreSQL, in the product_imports row (written outside the import's own
 * transaction, at most once a second), so another process can read it too.
 * PGlite runs one query at a time, so there the row is written only at the
 * start and the end.
 */

export const sizeText = (bytes: number) => (bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.round(bytes / 1024)} KB`);

/** An upload over the limit: the stream was cut, nothing kept. */
export class FileTooLarge extends HttpError {
  constructor(maxBytes: number) {
    super(413, `The file is over ${sizeText(maxBytes)}, the most an import takes: split it into smaller files (by category or by SKU).`);
  }
}

/** A job not heard from in this long, in no process's memory, was interrupted (its transaction rolled back). */
const STALE_MS = 2 * 60_000;

interface Live {
  state: ImportState;
  done: number;
  total: number;
  startedAt: number;
  report: ImportReport | null;
  error: string;
  finished: Promise<void>;
  /** The job's row as it was started: answered from memory while the import runs (on PGlite the database is busy with it). */
  row: typeof productImports.$inferSelect;
}

export interface ImportStatus {
  id: number;
  file_name: string;
  dry_run: boolean;
  valid_only: boolean;
  state: ImportState;
  rows_done: number;
  rows_total: number;
  rows_per_second: number;
  /** Seconds, from the rate so far; null until it can be told. */
  seconds_left: number | null;
  report: ImportReport | null;
  error: string;
  /** A checked file that can now be applied (`POST …/imports/{id}/apply`). */
  can_apply: boolean;
}

export interface UploadedCsv {
  filename: string;
  file: Readable & { truncated?: boolean };
}

export function createCatalogueCsv(db: Db, options: { dataDir: string; sharedProgress: boolean; maxBytes?: number; log?: { warn: (obj: object, msg: string) => void } }) {
  const maxBytes = options.maxBytes ?? IMPORT_MAX_BYTES;
  const folder = path.join(options.dataDir, "imports");
  const live = new Map<number, Live>();
  let applying: number | null = null;

  async function save(id: number, values: Partial<typeof productImports.$inferInsert>) {
    await db
      .update(productImports)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(productImports.id, id));
  }

  /** Streams the upload to its file; refuses it past the limit, as it arrives. */
  async function store(actor: StaffActor, upload: UploadedCsv): Promise<{ id: number; file: string }> {
    authorize(actor, "catalogue.manage");
    mkdirSync(folder, { recursive: true });
    const fileName = path.basename(upload.filename || "products.csv").slice(0, 200) || "products.csv";
    const [job] = await db.insert(productImports).values({ staffId: actor.staffId, fileName, dryRun: true, state: "queued" }).returning({ id: productImports.id });
    const file = path.join(folder, `${job!.id}.csv`);
    let bytes = 0;
    let over = false;
    const counter = async function* (source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        bytes += chunk.length;
        if (bytes > maxBytes) {
          over = true;
          throw new FileTooLarge(maxBytes);
        }
        yield chunk;
      }
    };
    try {
      await pipeline(upload.file, counter, createWriteStream(file));
      if (upload.file.truncated) over = true;
    } catch (error) {
      if (!over && !(error as { code?: string }).code?.startsWith("FST_REQ_FILE_TOO_LARGE")) {
        rmSync(file, { force: true });
        await save(job!.id, { state: "failed", error: "The upload did not complete.", finishedAt: new Date() });
        throw new HttpError(422, "The upload did not complete. Try again.");
      }
      over = true;
    }
    if (over) {
      upload.file.resume();
      rmSync(file, { force: true });
      await save(job!.id, { state: "failed", error: new FileTooLarge(maxBytes).message, finishedAt: new Date() });
      throw new FileTooLarge(maxBytes);
    }
    await save(job!.id, { storedPath: file, bytes });
    return { id: job!.id, file };
  }

  /** One import applies at a time in this process: two over the same products would only wait on each other's locks. */
  function refuseWhileApplying() {
    if (applying !== null) throw new HttpError(409, `Import ${applying} is still being applied: wait for it to finish.`);
  }

  /** Runs the job in the background; the promise in `live` settles when it is done. */
  function start(actor: StaffActor, id: number, file: string, fileName: string, dryRun: boolean, validOnly: boolean): Live {
    if (!dryRun) {
      refuseWhileApplying();
      applying = id;
    }
    const now = new Date();
    const row = { id, staffId: actor.staffId, fileName, storedPath: file, bytes: 0, dryRun, validOnly, state: "queued" as ImportState, rowsTotal: 0, rowsDone: 0, report: null, error: "", startedAt: now, finishedAt: null, createdAt: now, updatedAt: now };
    const entry: Live = { state: dryRun ? "checking" : "running", done: 0, total: 0, startedAt: Date.now(), report: null, error: "", finished: Promise.resolve(), row };
    live.set(id, entry);
    let lastWrite = 0;
    const onProgress = async (p: ImportProgress) => {
      entry.done = p.done;
      entry.total = p.total;
      const now = Date.now();
      if (options.sharedProgress && now - lastWrite >= 1_000) {
        lastWrite = now;
        // Outside the import's transaction (another connection of the pool): readable while it runs.
        await save(id, { rowsDone: p.done, rowsTotal: p.total }).catch(() => {});
      }
    };
    entry.finished = (async () => {
      await save(id, { state: entry.state, dryRun, validOnly, startedAt: new Date() });
      try {
        const report = await runImport(db, actor, () => createReadStream(file), { fileName, dryRun, validOnly, importId: id, onProgress });
        entry.report = report;
        entry.state = report.fatal || (!dryRun && !report.applied) ? "refused" : "done";
        entry.done = report.rows;
        entry.total = report.rows;
      } catch (error) {
        entry.state = "failed";
        entry.error = error instanceof HttpError ? error.message : "The import failed and nothing was changed. Try again; if it fails again, the shop's log says why.";
        options.log?.warn({ err: error, importId: id }, "catalogue import failed");
      } finally {
        if (!dryRun) applying = null;
      }
      // A checked file is kept to be applied; an applied one is done with.
      const keep = dryRun && entry.state === "done";
      if (!keep) rmSync(file, { force: true });
      await save(id, {
        state: entry.state,
        rowsDone: entry.done,
        rowsTotal: entry.total,
        report: entry.report,
        error: entry.error,
        finishedAt: new Date(),
        ...(keep ? {} : { storedPath: "" }),
      }).catch((err: unknown) => options.log?.warn({ err, importId: id }, "could not record the import's end"));
      entry.row = { ...entry.row, storedPath: keep ? file : "" };
      // The row answers from now on; this process forgets the job after a while.
      setTimeout(() => live.delete(id), 10 * 60_000).unref();
    })();
    return entry;
  }

  function statusOf(row: typeof productImports.$inferSelect): ImportStatus {
    const mine = live.get(row.id);
    let state = mine?.state ?? row.state;
    let error = mine?.error ?? row.error;
    // Running in no process's memory, silent for minutes: the process died, and its transaction with it.
    if (!mine && (state === "running" || state === "checking" || state === "queued") && Date.now() - row.updatedAt.getTime() > STALE_MS) {
      state = "failed";
      error = "The import was interrupted (the shop stopped while it ran); nothing was changed. Start it again.";
    }
    const done = mine?.done ?? row.rowsDone;
    const total = mine?.total ?? row.rowsTotal;
    const elapsed = mine ? (Date.now() - mine.startedAt) / 1000 : row.startedAt ? ((row.finishedAt ?? row.updatedAt).getTime() - row.startedAt.getTime()) / 1000 : 0;
    const rate = elapsed > 0 && done > 0 ? done / elapsed : 0;
    const report = (mine?.report ?? (row.report as ImportReport | null)) || null;
    return {
      id: row.id,
      file_name: row.fileName,
      dry_run: row.dryRun,
      valid_only: row.validOnly,
      state,
      rows_done: done,
      rows_total: total,
      rows_per_second: Math.round(rate),
      seconds_left: rate > 0 && total >= done && (state === "running" || state === "checking") ? Math.ceil((total - done) / rate) : null,
      report,
      error,
      can_apply: row.dryRun && state === "done" && !!row.storedPath && !!report && !report.fatal,
    };
  }

  async function find(id: number) {
    const [row] = await db.select().from(productImports).where(eq(productImports.id, id));
    if (!row) throw new HttpError(404, "No such import.");
    return row;
  }

  return {
    maxBytes,

    /** The catalogue as CSV, streamed (catalogue.view). */
    exportCsv: (actor: StaffActor, filters: CatalogueExportFilters = {}) => exportCatalogueCsv(db, actor, filters),

    /** Uploads and starts checking (dry run) or applying the file in the background: answers the job's id at once. */
    async begin(actor: StaffActor, upload: UploadedCsv, options: { dryRun: boolean; validOnly: boolean }): Promise<{ id: number; done: Promise<void> }> {
      authorize(actor, "catalogue.manage");
      if (!options.dryRun) refuseWhileApplying();
      const { id, file } = await store(actor, upload);
      let entry: Live;
      try {
        entry = start(actor, id, file, (await find(id)).fileName, options.dryRun, options.validOnly);
      } catch (error) {
        // Another import began applying meanwhile: this one is not kept.
        rmSync(file, { force: true });
        await save(id, { state: "failed", storedPath: "", error: (error as Error).message, finishedAt: new Date() });
        throw error;
      }
      return { id, done: entry.finished };
    },

    /** The same, waiting for the report (the integration API, the CLI's own path aside). */
    async run(actor: StaffActor, upload: UploadedCsv, options: { dryRun: boolean; validOnly: boolean }): Promise<ImportStatus> {
      const { id, done } = await this.begin(actor, upload, options);
      await done;
      return statusOf(await find(id));
    },

    /** Applies a file already checked by a dry run (the screen's "Import" after its report), as a new job. */
    async apply(actor: StaffActor, checkedId: number, validOnly: boolean): Promise<{ id: number }> {
      authorize(actor, "catalogue.manage");
      const checked = await find(checkedId);
      const status = statusOf(checked);
      if (!status.can_apply) throw new HttpError(409, "This file cannot be applied: upload it again.");
      refuseWhileApplying();
      if (!validOnly && status.report && status.report.refused.length + status.report.more_refused > 0) {
        throw new HttpError(409, "This file has refused rows: correct them, or import the valid rows only.");
      }
      const [job] = await db
        .insert(productImports)
        .values({ staffId: actor.staffId, fileName: checked.fileName, storedPath: checked.storedPath, bytes: checked.bytes, dryRun: false, validOnly, state: "queued" })
        .returning({ id: productImports.id });
      // The file moves to the new job: the checked one is done with it.
      await save(checkedId, { storedPath: "" });
      start(actor, job!.id, checked.storedPath, checked.fileName, false, validOnly);
      return { id: job!.id };
    },

    /** A job's progress and, once done, its report (catalogue.manage). */
    async status(actor: StaffActor, id: number): Promise<ImportStatus> {
      authorize(actor, "catalogue.manage");
      const mine = live.get(id);
      return statusOf(mine && mine.state !== "done" && mine.state !== "refused" && mine.state !== "failed" ? mine.row : await find(id));
    },

    /** Waits for a job of this process (tests, the synchronous API). */
    async settled(id: number): Promise<void> {
      await live.get(id)?.finished;
    },

    /** Checked files never applied, after a day: removed. */
    async sweep(): Promise<void> {
      const old = await db
        .select({ id: productImports.id, storedPath: productImports.storedPath })
        .from(productImports)
        .where(and(lt(productImports.updatedAt, new Date(Date.now() - 24 * 3600_000)), inArray(productImports.state, ["done", "refused", "failed"])));
      for (const row of old) {
        if (!row.storedPath) continue;
        rmSync(row.storedPath, { force: true });
        await save(row.id, { storedPath: "" });
      }
    },
  };
}

export type CatalogueCsv = ReturnType<typeof createCatalogueCsv>;

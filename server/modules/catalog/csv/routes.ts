import { createReadStream } from "node:fs";
import { STOCK_FILTERS } from "../products/admin-list.ts";
import fastifyMultipart from "@fastify/multipart";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { HttpError } from "../../../http-errors.ts";
import { messageResponse, validationResponse } from "../../auth/contract.ts";
import { authorize } from "../../staff/actor.ts";
import { staffApi } from "../../staff/admin-api.ts";
import { PRODUCT_STATUSES } from "../schema.ts";
import { type CatalogueCsv, type UploadedCsv, sizeText } from "./jobs.ts";
import { staffDoor } from "../../staff/door.ts";

/** The example file docs/features.md and the import screen offer. */
export const EXAMPLE_CSV = new URL("../../../../docs/products-example.csv", import.meta.url);

const flag = z
  .enum(["0", "1", "true", "false", "yes", "no", ""], { error: "Say 1 or 0." })
  .optional()
  .transform((v) => v === "1" || v === "true" || v === "yes");
const importQuery = z.object({ dry_run: flag, valid_only: flag });
const blankOr = <T extends z.ZodType>(schema: T) => z.union([z.literal(""), schema]).optional();
const exportQuery = z.object({
  q: z.string().trim().max(100, "Search for at most 100 characters.").optional(),
  category: blankOr(z.coerce.number().int().positive("Choose a category.")),
  brand: blankOr(z.coerce.number().int().positive("Choose a brand.")),
  status: blankOr(z.enum([...PRODUCT_STATUSES, "active", "all"], { error: "Choose draft, published, archived, active or all." })),
  stock: blankOr(z.enum(STOCK_FILTERS, { error: `Choose one of: ${STOCK_FILTERS.join(", ")}.` })),
  no_photo: blankOr(z.enum(["1", "true"])),
});

const refusal = z.object({ row: z.number().int(), column: z.string().optional(), message: z.string(), sku: z.string().optional() });
const report = z.object({
  file_name: z.string(),
  encoding: z.string().nullable(),
  dry_run: z.boolean(),
  valid_only: z.boolean(),
  applied: z.boolean().describe("Whether the catalogue changed: never for a dry run, nor for a file with refused rows unless valid_only"),
  rows: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  would_create: z.number().int(),
  would_update: z.number().int(),
  refused_rows: z.number().int(),
  refused: z.array(refusal).describe("Row as a spreadsheet numbers it (the header is row 1), column, why; at most 1,000 (more_refused counts the rest)"),
  more_refused: z.number().int(),
  changes: z.array(z.object({ row: z.number().int(), sku: z.string(), action: z.enum(["create", "update"]), fields: z.array(z.object({ field: z.string(), old: z.string(), new: z.string() })) })),
  more_changes: z.number().int(),
  fatal: z.boolean(),
  seconds: z.number(),
});
const status = z.object({
  id: z.number().int(),
  file_name: z.string(),
  dry_run: z.boolean(),
  valid_only: z.boolean(),
  state: z.enum(["queued", "checking", "running", "done", "refused", "failed"]),
  rows_done: z.number().int(),
  rows_total: z.number().int(),
  rows_per_second: z.number(),
  seconds_left: z.number().nullable(),
  report: report.nullable(),
  error: z.string(),
  can_apply: z.boolean(),
});
const errors = { 401: messageResponse, 403: messageResponse, 409: messageResponse, 413: messageResponse, 422: validationResponse.or(messageResponse) };

/** The upload's `file` part, as a stream (never read whole into memory). */
async function uploadOf(request: FastifyRequest, maxBytes: number): Promise<UploadedCsv> {
  const wrong = () => new HttpError(422, "Send the CSV as multipart/form-data, in a field named file.");
  if (!request.isMultipart()) throw wrong();
  let part;
  try {
    part = await request.file({ throwFileSizeLimit: false, limits: { fileSize: maxBytes, files: 1, fields: 10, parts: 12 } });
  } catch {
    // A body that is not the multipart it says (no boundary, cut short, too many parts).
    throw new HttpError(422, "The upload was not complete, or not a form with a file. Try again.");
  }
  if (!part || part.fieldname !== "file") throw wrong();
  return { filename: part.filename, file: part.file };
}

/**
 * The catalogue's CSV export and import in the back office's API (issue 20,
 * ADR 0036). The service checks the permission: catalogue.view to export,
 * catalogue.manage to import.
 */
export async function catalogueCsvRoutes(app: FastifyInstance, options: { csv: CatalogueCsv }): Promise<void> {
  // Only in this scope, and only once (another scope's registration does not reach here).
  if (!app.hasContentTypeParser("multipart/form-data")) await app.register(fastifyMultipart, { throwFileSizeLimit: false });
  const { csv } = options;
  const api = staffApi(app, { tags: ["admin: products"], errors });
  const limit = sizeText(csv.maxBytes);
  // Checked files never applied are removed after a day by the hourly job catalog.sweep-imports (server/modules/jobs/schedule.ts).

  api.get(
    "/admin/products/export.csv",
    {
      summary:
        "The catalogue (or the list filtered as GET /api/admin/products filters it: q, category id, brand id, status (all by default), stock, no_photo) as CSV in the import's columns (see docs/features.md), UTF-8 with a byte order mark, formulas escaped; streamed in keyset batches whatever its size. Needs catalogue.view",
      querystring: exportQuery,
      produces: ["text/csv"],
    },
    async (actor, request, reply) => {
      const q = request.query;
      const stream = await csv.exportCsv(actor, { q: q.q || undefined, category: q.category || undefined, brand: q.brand || undefined, status: q.status || undefined, stock: q.stock || undefined, no_photo: q.no_photo ? true : undefined });
      const today = new Date().toISOString().slice(0, 10);
      return reply.type("text/csv; charset=utf-8").header("content-disposition", `attachment; filename="products-${today}.csv"`).send(stream);
    },
  );

  api.get(
    "/admin/products/import/example.csv",
    { summary: "A small example of the import's file. Needs catalogue.view", produces: ["text/csv"] },
    async (actor, _request, reply) => {
      authorize(actor, "catalogue.view");
      return reply.type("text/csv; charset=utf-8").header("content-disposition", 'attachment; filename="products-example.csv"').send(createReadStream(EXAMPLE_CSV));
    },
  );

  api.post(
    "/admin/products/import",
    {
      config: staffDoor("catalogue.manage"),
      consumes: ["multipart/form-data"],
      summary: `Imports a catalogue CSV (multipart, field \`file\`, at most ${limit}) and answers its report once done: \`{rows, created, updated, refused: [{row, column, message}], …}\`. With dry_run=1 nothing is written and created/updated say what would be. Otherwise all or nothing: any refused row changes nothing unless valid_only=1. Needs catalogue.manage`,
      querystring: importQuery,
      response: { 200: report },
    },
    async (actor, request) => {
      // The permission before the body is read: a refused member's upload is never stored.
      authorize(actor, "catalogue.manage");
      const done = await csv.run(actor, await uploadOf(request, csv.maxBytes), { dryRun: request.query.dry_run, validOnly: request.query.valid_only });
      if (done.state === "failed" || !done.report) throw new HttpError(500, done.error);
      return done.report;
    },
  );

  api.post(
    "/admin/products/imports",
    {
      config: staffDoor("catalogue.manage"),
      consumes: ["multipart/form-data"],
      summary: `Starts a catalogue import in the background (multipart, field \`file\`, at most ${limit}): 202 with its id at once; read its progress and report at GET /admin/products/imports/{id}. dry_run=1 checks only (then apply it with POST …/imports/{id}/apply). Needs catalogue.manage`,
      querystring: importQuery,
      response: { 202: z.object({ id: z.number().int() }) },
    },
    async (actor, request, reply) => {
      const { id } = await csv.begin(authorize(actor, "catalogue.manage"), await uploadOf(request, csv.maxBytes), { dryRun: request.query.dry_run, validOnly: request.query.valid_only });
      return reply.code(202).send({ id });
    },
  );

  const idParams = z.object({ id: z.coerce.number().int().positive("Give an import's id.").max(2_147_483_647) });
  api.post(
    "/admin/products/imports/:id/apply",
    {
      config: staffDoor("catalogue.manage"),
      summary: "Applies a file its dry run checked, in the background, as a new import: 202 with its id. Refused (409) while the file has refused rows unless valid_only=1. Needs catalogue.manage",
      params: idParams,
      querystring: z.object({ valid_only: flag }),
      response: { 202: z.object({ id: z.number().int() }), 404: messageResponse },
    },
    async (actor, request, reply) => reply.code(202).send(await csv.apply(actor, request.params.id, request.query.valid_only)),
  );

  api.get(
    "/admin/products/imports/:id",
    {
      summary: "An import's state (queued, checking, running, done, refused, failed), rows done of the total, rows per second, seconds left, and its report once finished. Needs catalogue.manage",
      params: idParams,
      response: { 200: status, 404: messageResponse },
    },
    async (actor, request) => csv.status(actor, request.params.id),
  );
}

import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { messageResponse, validationResponse } from "../auth/contract.ts";
import { staffApi } from "../staff/admin-api.ts";
import { REASON_MAX, RETURNS_PAGE_MAX, type ReturnsDesk } from "./desk.ts";
import { PHOTO_SIZES } from "./photos/rows.ts";
import type { ReturnPhotos } from "./photos/service.ts";
import { sendReturnPhoto } from "./routes.ts";
import { RETURN_STATUSES } from "./statuses.ts";
import { staffDoor } from "../staff/door.ts";

const returnParams = z.object({ number: z.string().max(20).regex(/^RMA-\d{6,}$/i, "Give a return number such as RMA-000123.") });
const blankOr = <T extends z.ZodType>(schema: T) => z.union([z.literal(""), schema]).optional();
const status = z.enum(RETURN_STATUSES, { error: `Choose one of: ${RETURN_STATUSES.join(", ")}.` });
const count = z.number({ error: "Enter a number of units." }).int("Enter a whole number.").min(0, "Cannot be negative.").max(100_000);
const pence = z.number({ error: "Enter an amount in pence." }).int("Enter whole pence.").min(0, "Cannot be negative.").max(100_000_000);

const errors = { 401: messageResponse, 403: messageResponse, 404: messageResponse, 409: messageResponse, 422: validationResponse, 502: messageResponse };

/** The returns desk's API (issue 31): the same service as its screens. */
export async function adminReturnRoutes(app: FastifyInstance, options: { desk: ReturnsDesk; photos: ReturnPhotos }): Promise<void> {
  const api = staffApi(app, { tags: ["admin: returns"], errors });

  api.get(
    "/admin/returns",
    {
      summary: "Returns, newest first, a keyset page at a time; `counts` per status for the same search. Needs returns.view",
      querystring: z.object({
        status: blankOr(status),
        q: z.string().trim().max(100, "Search for at most 100 characters.").optional().describe("A return's or order's number (or its start), or the customer's email"),
        overdue: blankOr(z.enum(["yes"], { error: "Say yes, or leave it out." })).describe("yes: received more than 14 days ago and not yet refunded"),
        cursor: z.string().max(100).regex(/^[A-Za-z0-9_-]*$/, "Invalid cursor.").optional(),
        limit: z.coerce.number().int().min(1).max(RETURNS_PAGE_MAX).optional(),
      }),
      response: { 200: z.object({ data: z.array(z.record(z.string(), z.unknown())), next_cursor: z.string().nullable(), counts: z.record(z.string(), z.number()) }) },
    },
    async (actor, request) => {
      const filters = { status: request.query.status || undefined, q: request.query.q || undefined, overdue: request.query.overdue === "yes", cursor: request.query.cursor || undefined, limit: request.query.limit };
      const [page, counts] = await Promise.all([options.desk.list(actor, filters), options.desk.statusCounts(actor, filters)]);
      return { ...page, counts };
    },
  );

  api.get(
    "/admin/returns/:number",
    {
      summary: "One return: its order, lines (received and damaged), the refund the rules propose once received, days left to refund, the timeline and the moves this member may make",
      params: returnParams,
      response: { 200: z.record(z.string(), z.unknown()) },
    },
    async (actor, request) => options.desk.detail(actor, request.params.number),
  );

  api.get(
    "/admin/returns/:number/photos/:photo/:size",
    {
      summary: "A photo the customer attached to the return, `small` (320 pixels wide) or `large` (up to 1,280), as WebP; the return's page lists them under `photos`. Needs returns.view (and the return's branch, for a member of some branches)",
      params: returnParams.extend({ photo: z.string().regex(/^[a-z0-9]{12}$/, "Give a photo's id."), size: z.enum(PHOTO_SIZES) }),
      produces: ["image/webp"],
    },
    async (actor, request, reply) => {
      const { number, photo, size } = request.params;
      return sendReturnPhoto(reply, await options.photos.deskFile(actor, number, photo, size));
    },
  );

  api.post(
    "/admin/returns/:number/transitions",
    {
      config: staffDoor(["returns.approve", "returns.receive", "refunds.create"]),
      summary:
        "Moves the return on (server/modules/returns/transitions.ts): approve, reject with a `reason` the customer is told, receive (`lines`: units back resaleable and damaged per line; all resaleable when not given), refund (what the rules propose, or `refund_pence`, less `deduction_pence` with its reason; by card, credit note on account or by hand, within the member's refund limit), exchange (a replacement order), close. 409 for a move the table does not allow; every move audited",
      params: returnParams,
      body: z.object({
        to: status,
        reason: z.string().max(REASON_MAX, `Keep the reason to ${REASON_MAX} characters.`).nullish(),
        lines: z.array(z.object({ line_id: z.number().int().positive().max(2_147_483_647), received: count, damaged: count })).max(200).optional(),
        branch_id: z.number().int().positive().max(2_147_483_647).nullish(),
        refund_pence: pence.nullish(),
        deduction_pence: pence.nullish(),
        deduction_reason: z.string().max(REASON_MAX, `Keep the reason to ${REASON_MAX} characters.`).nullish(),
        exchange: z.array(z.object({ line_id: z.number().int().positive().max(2_147_483_647), variant_id: z.number().int().positive().max(2_147_483_647).nullish() })).max(200).optional(),
        expected_status: status.nullish(),
      }),
      response: { 200: z.record(z.string(), z.unknown()) },
    },
    async (actor, request) => options.desk.transition(actor, request.params.number, request.body),
  );
}

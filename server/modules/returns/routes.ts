import fastifyMultipart from "@fastify/multipart";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { messageResponse, validationResponse } from "../auth/contract.ts";
import type { OrderLinks } from "../orders/links.ts";
import type { OrderService } from "../orders/service.ts";
import { PHOTO_MAX_BYTES } from "../media/photos.ts";
import type { StoredFile } from "../media/store.ts";
import { multipartPhotos } from "../media/uploads.ts";
import type { OrderCancelling } from "./cancel.ts";
import { CAPTION_MAX, PHOTO_SIZES, RETURN_PHOTOS_MAX, withOrderLink } from "./photos/rows.ts";
import type { ReturnPhotos } from "./photos/service.ts";
import { NOTE_MAX, type Requester, type ReturnsService } from "./service.ts";
import { RETURN_METHODS, RETURN_REASONS } from "./statuses.ts";

const numberParams = z.object({ number: z.string().max(20).regex(/^TC-\d{6,}$/i, "Give an order number such as TC-000123.") });
/** A guest's way in: the signature of the link in the order's emails. */
const linkQuery = z.object({ expires: z.string().max(20).optional(), signature: z.string().max(100).optional() });
const lineId = z.number({ error: "Give the order line's id." }).int().positive().max(2_147_483_647);
const quantity = z.number({ error: "Enter a quantity." }).int("Enter a whole number.").min(1, "Enter at least 1.").max(100_000, "Enter at most 100,000.");

const returnBody = z.object({
  lines: z
    .array(
      z.object({
        line_id: lineId,
        quantity,
        reason: z.enum(RETURN_REASONS, { error: `Choose a reason: ${RETURN_REASONS.join(", ")}.` }),
        note: z.string().max(NOTE_MAX, `Keep it to ${NOTE_MAX} characters.`).optional(),
      }),
    )
    .min(1, "Choose at least one item to return.")
    .max(200),
  method: z.enum(RETURN_METHODS, { error: `Choose how it comes back: ${RETURN_METHODS.join(", ")}.` }),
  branch_id: z.number().int().positive().max(2_147_483_647).optional().describe("Method branch: the branch the goods come back to (the order's own when not given)"),
});

const returnLine = z.object({ line_id: z.number(), name: z.string(), sku: z.string(), quantity: z.number(), reason: z.string(), reason_label: z.string(), note: z.string(), received: z.number(), damaged: z.number() });
const returnPhoto = z.object({
  id: z.string(),
  caption: z.string(),
  width: z.number(),
  height: z.number(),
  url: z.string().describe("The photo at up to 1,280 pixels wide (WebP), for this order's customer or the holder of its link only"),
  thumbnail_url: z.string().describe("The photo 320 pixels wide"),
});
const customerReturn = z.object({
  number: z.string(),
  status: z.string(),
  status_label: z.string(),
  method: z.string(),
  method_label: z.string(),
  branch: z.object({ id: z.number(), name: z.string() }).nullable(),
  created_at: z.string(),
  reject_reason: z.string().nullable(),
  refund: z.object({ amount: z.number(), method: z.string().nullable(), credit_note: z.string().nullable(), at: z.string().nullable() }).nullable(),
  lines: z.array(returnLine),
  timeline: z.array(z.object({ status: z.string(), label: z.string(), note: z.string(), at: z.string() })),
  photos: z.array(returnPhoto).describe("Photos the customer attached"),
});
const errors = { 401: messageResponse, 403: messageResponse, 404: messageResponse, 409: messageResponse, 422: validationResponse };
const photoParams = numberParams.extend({ rma: z.string().max(20).regex(/^RMA-\d{6,}$/i, "Give a return number such as RMA-000123.") });
const photoFileParams = photoParams.extend({ photo: z.string().regex(/^[a-z0-9]{12}$/, "Give a photo's id."), size: z.enum(PHOTO_SIZES) });

/**
 * A return's photo as the one who may see it gets it: never kept by a shared
 * cache (it may show the customer's home or address), typed by its key as
 * `/media` types it.
 */
export function sendReturnPhoto(reply: FastifyReply, file: StoredFile | null) {
  if (!file) return reply.code(404).send({ message: "No such photo." });
  return reply.type(file.contentType).header("cache-control", "private, max-age=3600").header("x-content-type-options", "nosniff").header("content-length", file.bytes.length).send(file.bytes);
}

/**
 * The customer's returns and cancelling (issue 31): the order's customer by
 * cookie or bearer token, or a guest with the signature of the order's link.
 */
export async function returnRoutes(app: FastifyInstance, options: { returns: ReturnsService; photos: ReturnPhotos; cancelling: OrderCancelling; orders: OrderService; links: OrderLinks }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["returns"];
  app.addHook("onSend", async (_request, reply) => {
    // A photo says its own (private, kept an hour by the browser alone); everything else is kept nowhere.
    if (!reply.hasHeader("cache-control")) reply.header("cache-control", "private, no-store");
  });
  const requester = (request: FastifyRequest, number: string, query: z.infer<typeof linkQuery>): Requester => {
    const upper = number.toUpperCase();
    return { userId: request.user?.id ?? null, signedFor: options.links.verifyOrderLink(upper, query.expires, query.signature) ? upper : null, triedLink: Boolean(query.signature) };
  };

  r.post(
    "/orders/:number/returns",
    {
      schema: {
        tags,
        summary:
          "Asks to return some of a delivered or collected order's lines: each `line_id` as GET /api/account/orders/{order_id} gives it, with a reason and how it comes back. 422 naming the line when its quantity exceeds what is left to return, the window has closed or the product cannot be returned; 403 for someone else's order. A change of mind inside the window is approved at once, with `instructions`",
        params: numberParams,
        querystring: linkQuery,
        body: returnBody,
        response: { 201: z.object({ data: customerReturn.extend({ instructions: z.array(z.string()) }) }), ...errors },
      },
    },
    async (request, reply) => {
      const { number } = request.params;
      const made = await options.returns.request(number, requester(request, number, request.query), request.body);
      return reply.code(201).send({ data: withOrderLink([made], request.query)[0]! });
    },
  );

  r.get(
    "/orders/:number/returns",
    { schema: { tags, summary: "The order's returns with their status and refunds", params: numberParams, querystring: linkQuery, response: { 200: z.object({ data: z.array(customerReturn) }), ...errors } } },
    async (request) => ({ data: withOrderLink(await options.returns.list(request.params.number, requester(request, request.params.number, request.query)), request.query) }),
  );

  // Photos of a return (issue 31): multipart bodies in this scope alone.
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, { throwFileSizeLimit: true, limits: { fileSize: PHOTO_MAX_BYTES, files: RETURN_PHOTOS_MAX } });
    const s = scope.withTypeProvider<ZodTypeProvider>();
    s.post(
      "/orders/:number/returns/:rma/photos",
      {
        bodyLimit: RETURN_PHOTOS_MAX * (PHOTO_MAX_BYTES + 64 * 1024),
        schema: {
          tags,
          consumes: ["multipart/form-data"],
          summary: `Attaches photos to the return while it is requested or approved (multipart/form-data: one or several fields named \`file\`, and optionally a \`caption\` field per file in the same order, at most ${CAPTION_MAX} characters): at most ${RETURN_PHOTOS_MAX} per return, each a JPEG, PNG, WebP or AVIF by its bytes (HEIC is refused with how to save it as JPEG), at most ${PHOTO_MAX_BYTES / 1024 / 1024} MB and 50 megapixels; location data removed. Who may: as for the return itself (the order's customer, or a guest with the order link's signature). Answers the return's photos; 422 naming a refused file (nothing is added), 409 once the return has moved on`,
          params: photoParams,
          querystring: linkQuery,
          response: { 201: z.object({ data: z.array(returnPhoto) }), ...errors, 422: validationResponse.or(messageResponse) },
        },
      },
      async (request, reply) => {
        const { number, rma } = request.params;
        const photos = await options.photos.attach(number, rma, requester(request, number, request.query), async () => {
          const { files, fields } = await multipartPhotos(request, { maxFiles: RETURN_PHOTOS_MAX, fields: ["caption"] });
          return { files, captions: fields.caption ?? [] };
        });
        return reply.code(201).send({ data: withOrderLink([{ photos }], request.query)[0]!.photos });
      },
    );
  });

  r.get(
    "/orders/:number/returns/:rma/photos/:photo/:size",
    {
      schema: {
        tags,
        summary: "A photo attached to the return, `small` (320 pixels wide) or `large` (up to 1,280), as WebP: for the order's customer or the holder of its link only, never cached by a shared cache",
        params: photoFileParams,
        querystring: linkQuery,
        produces: ["image/webp"],
      },
    },
    async (request, reply) => {
      const { number, rma, photo, size } = request.params;
      return sendReturnPhoto(reply, await options.photos.customerFile(number, rma, photo, size, requester(request, number, request.query)));
    },
  );

  r.post(
    "/orders/:number/cancel",
    {
      schema: {
        tags,
        summary:
          "Cancels the whole order, or `lines` of it, before dispatch: the stock goes back and a card payment is refunded at once (an order on account is credited). 409 once dispatched. Some lines only for orders paid by card or on account",
        params: numberParams,
        querystring: linkQuery,
        body: z.object({ lines: z.array(z.object({ line_id: lineId, quantity })).max(200).optional() }),
        response: { 200: z.object({ data: z.record(z.string(), z.unknown()) }), ...errors },
      },
    },
    async (request) => {
      const { number } = request.params;
      const done = await options.cancelling.cancel(number, requester(request, number, request.query), request.body);
      const order = await options.orders.byNumber(done.number);
      return { data: { ...order, cancelled: done.cancelled, refund_failed: done.refund_failed } };
    },
  );
}

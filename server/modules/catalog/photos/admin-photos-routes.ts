import fastifyMultipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { staffDoor } from "../../staff/door.ts";
import { messageResponse, validationResponse } from "../../auth/contract.ts";
import { PHOTO_MAX_BYTES, PHOTO_WIDTHS } from "../../media/photos.ts";
import { multipartPhotos } from "../../media/uploads.ts";
import { staffApi } from "../../staff/admin-api.ts";
import { ALT_MAX, type AdminPhotoService, PHOTOS_MAX, type PhotoOwner, UPLOAD_FILES_MAX } from "./admin-photos.ts";

const photo = z.object({
  id: z.string(),
  alt: z.string(),
  src: z.string().describe("The fallback: the WebP at up to 960 pixels wide"),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  sources: z.array(z.object({ type: z.enum(["image/avif", "image/webp"]), srcset: z.string() })),
});
const photos = z.object({ images: z.array(photo) });
const photoId = z.string().regex(/^[a-z0-9]{12}$/, "Give a photo's id.");
const altBody = z.object({ alt: z.string({ error: "Write the alt text." }).trim().max(ALT_MAX, `Alt text may be at most ${ALT_MAX} characters.`) });
const orderBody = z.object({ ids: z.array(photoId).min(1, "Give every photo's id, in the new order.").max(PHOTOS_MAX) });

const errors = { 401: messageResponse, 403: messageResponse, 404: messageResponse, 422: validationResponse.or(messageResponse) };

/**
 * Photos of products and hire items in the back office's API (issue 20, ADR
 * 0034): upload (multipart, field `file`, one or several), reorder, alt text,
 * delete. The service checks catalogue.manage (catalogue.view to read).
 */
export async function adminPhotoRoutes(app: FastifyInstance, options: { photos: AdminPhotoService }): Promise<void> {
  // Only in this scope: no other route takes multipart bodies.
  await app.register(fastifyMultipart, { throwFileSizeLimit: true, limits: { fileSize: PHOTO_MAX_BYTES, files: UPLOAD_FILES_MAX } });
  const { photos: service } = options;

  const owners = [
    { kind: "product", base: "/admin/products/:sku/images", tags: ["admin: products"], what: "product", params: z.object({ sku: z.string().trim().min(1).max(64) }), ownerOf: (p: Record<string, string>): PhotoOwner => ({ kind: "product", sku: p.sku! }) },
    { kind: "variant", base: "/admin/variants/:sku/images", tags: ["admin: products"], what: "variant", params: z.object({ sku: z.string().trim().min(1).max(64) }), ownerOf: (p: Record<string, string>): PhotoOwner => ({ kind: "variant", sku: p.sku! }) },
    { kind: "hire_item", base: "/admin/hire/items/:slug/images", tags: ["admin: hire"], what: "hire item", params: z.object({ slug: z.string().regex(/^[a-z0-9-]{1,200}$/, "Give a hire item's slug.") }), ownerOf: (p: Record<string, string>): PhotoOwner => ({ kind: "hire_item", slug: p.slug! }) },
  ] as const;

  for (const o of owners) {
    const api = staffApi(app, { tags: o.tags, errors });
    const withId = o.params.extend({ id: photoId });
    api.get(
      o.base,
      { summary: `The ${o.what}'s photos in order, with their AVIF and WebP renditions. Needs catalogue.view`, params: o.params, response: { 200: photos } },
      async (actor, request) => service.list(actor, o.ownerOf(request.params)),
    );
    api.post(
      o.base,
      {
        config: staffDoor("catalogue.manage"),
        bodyLimit: UPLOAD_FILES_MAX * (PHOTO_MAX_BYTES + 64 * 1024),
        consumes: ["multipart/form-data"],
        summary: `Adds photos (multipart/form-data, one or several fields named \`file\`, up to ${UPLOAD_FILES_MAX}) after the ${o.what}'s own: JPEG, PNG, WebP, AVIF or HEIC by their bytes, each at most ${PHOTO_MAX_BYTES / 1024 / 1024} MB and 50 megapixels, EXIF (location included) removed, AVIF and WebP made at ${PHOTO_WIDTHS.join(", ")} pixels wide (never wider than the photo). Answers the whole list. One refused file refuses the upload: 422 with a message naming it. Needs catalogue.manage`,
        params: o.params,
        response: { 201: photos },
      },
      async (member, request, reply) => {
        const actor = service.authorizeUpload(member);
        const { files } = await multipartPhotos(request, { maxFiles: UPLOAD_FILES_MAX });
        return reply.code(201).send(await service.upload(actor, o.ownerOf(request.params), files));
      },
    );
    api.put(
      `${o.base}/order`,
      { config: staffDoor("catalogue.manage"), summary: `Puts the ${o.what}'s photos in this order (every id once); the first is the one listings show. Needs catalogue.manage`, params: o.params, body: orderBody, response: { 200: photos } },
      async (actor, request) => service.reorder(actor, o.ownerOf(request.params), request.body.ids),
    );
    api.patch(
      `${o.base}/:id`,
      { config: staffDoor("catalogue.manage"), summary: `A photo's alt text (what it shows, for whoever cannot see it; required before a product is published). Needs catalogue.manage`, params: withId, body: altBody, response: { 200: photos } },
      async (actor, request) => service.setAlt(actor, o.ownerOf(request.params), request.params.id, request.body.alt),
    );
    api.delete(
      `${o.base}/:id`,
      { config: staffDoor("catalogue.manage"), summary: `Deletes a photo and its files; the drawn picture returns when the last one goes. Needs catalogue.manage`, params: withId, response: { 200: photos } },
      async (actor, request) => service.remove(actor, o.ownerOf(request.params), request.params.id),
    );
  }
}

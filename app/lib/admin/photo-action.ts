import { data } from "react-router";
import type { AdminPhotoService, PhotoOwner } from "../../../server/modules/catalog/photos/admin-photos.ts";
import type { StaffActor } from "../../../server/modules/staff/actor.ts";
import { notFoundOr, requirePermission, requireSameOrigin, serviceError } from "./access.ts";

/**
 * The photos screens' form posts without scripts, for a product's and a hire
 * item's alike (app/routes/admin/products/photos.tsx, app/routes/admin/hire/
 * photos.tsx): upload (multipart), move up or down, alt text, delete
 * (confirmed). The service checks catalogue.manage.
 */
export type PhotoIntent = "upload" | "move" | "alt" | "delete";
export type PhotoActionResult = { ok: boolean; intent: PhotoIntent; message: string; errors?: Record<string, string[]>; id?: string };

/** The largest form the screen's own upload takes: ten photos of 20 MB and their envelope. */
export const PHOTO_FORM_MAX = 10 * 20 * 1024 * 1024 + 1024 * 1024;

export async function photoFormAction(
  photos: AdminPhotoService,
  actor: StaffActor,
  owner: PhotoOwner,
  request: Request,
  words: { what: string; altCleared: string },
) {
  const length = Number(request.headers.get("content-length") ?? "0");
  if (!length || length > PHOTO_FORM_MAX) return data<PhotoActionResult>({ ok: false, intent: "upload", message: "Upload at most 10 photos of 20 MB each at a time." }, { status: 413 });
  let intent: PhotoIntent = "upload";
  let id: string | undefined;
  try {
    photos.authorizeUpload(actor);
    const form = await request.formData();
    intent = String(form.get("intent") ?? "") as PhotoIntent;
    id = String(form.get("id") ?? "");
    if (intent === "upload") {
      const files = form.getAll("file").filter((f): f is File => typeof f !== "string" && f.size > 0);
      const done = await photos.upload(actor, owner, await Promise.all(files.map(async (f) => ({ filename: f.name, bytes: Buffer.from(await f.arrayBuffer()) }))));
      return data<PhotoActionResult>({ ok: true, intent, message: `${files.length === 1 ? "Photo" : `${files.length} photos`} added. The ${words.what} has ${done.images.length}.` });
    }
    const { images } = await photos.list(actor, owner);
    if (intent === "move") {
      const order = images.map((i) => i.id);
      const at = order.indexOf(id);
      const to = form.get("direction") === "up" ? at - 1 : at + 1;
      if (at < 0 || to < 0 || to >= order.length) return data<PhotoActionResult>({ ok: false, intent, message: "That photo cannot move that way.", id }, { status: 422 });
      [order[at], order[to]] = [order[to]!, order[at]!];
      await photos.reorder(actor, owner, order);
      return data<PhotoActionResult>({ ok: true, intent, message: `Photo moved ${to < at ? "up" : "down"} to position ${to + 1}.`, id });
    }
    if (intent === "alt") {
      const alt = String(form.get("alt") ?? "").trim();
      if (alt.length > 250) return data<PhotoActionResult>({ ok: false, intent, message: "Check the alt text.", errors: { alt: ["Alt text may be at most 250 characters."] }, id }, { status: 422 });
      await photos.setAlt(actor, owner, id, alt);
      return data<PhotoActionResult>({ ok: true, intent, message: alt ? "Alt text saved." : words.altCleared, id });
    }
    if (intent === "delete") {
      if (form.get("confirm") !== "yes") return data<PhotoActionResult>({ ok: false, intent, message: "Tick the box to confirm the delete.", errors: { confirm: ["Tick the box to confirm the delete."] }, id }, { status: 422 });
      await photos.remove(actor, owner, id);
      return data<PhotoActionResult>({ ok: true, intent, message: "Photo deleted." });
    }
    return data<PhotoActionResult>({ ok: false, intent: "upload", message: "Choose what to do with the photos." }, { status: 422 });
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    if (known.status === 404 && intent !== "alt" && intent !== "move" && intent !== "delete") notFoundOr(error);
    return data<PhotoActionResult>({ ok: false, intent, message: known.errors ? Object.values(known.errors).flat().join(" ") : known.message, errors: known.errors, id }, { status: known.status });
  }
}

/** A photos screen's action: the same origin and a catalogue reader signed in, then the form (the service checks catalogue.manage). */
export function photoScreenAction(
  app: { staff: StaffActor | null; services: { adminPhotos: AdminPhotoService } },
  request: Request,
  owner: PhotoOwner,
  words: { what: string; altCleared: string },
) {
  requireSameOrigin(request);
  const actor = requirePermission(app.staff, request, "catalogue.view");
  return photoFormAction(app.services.adminPhotos, actor, owner, request, words);
}

import { data } from "react-router";
import type { AppContext } from "#app-context";
import { PHOTO_MAX_BYTES } from "../../server/modules/media/photos.ts";
import { RETURN_PHOTOS_MAX } from "../../server/modules/returns/photos/rows.ts";

// The guest's page adds its link's signature to the photos' URLs (server-only: it reads no secret, but its module reads the schema).
export { withOrderLink } from "../../server/modules/returns/photos/rows.ts";
import type { Requester } from "../../server/modules/returns/service.ts";
import { requireOwnOrigin } from "./access.ts";
import { serviceError } from "./admin/access.ts";
import { type FormFailure, checked, failure, text } from "./form-result.ts";
import { CHOOSE_ITEMS, PHOTOS_FIELD, type ReturnsIntent, type ReturnsResult, byLine, fieldOf, orderOfForm, photosOfForm, returnMessage, returnOfForm, returnsFormFields } from "./returns.ts";

/** The largest form the return takes: its photos at the pipeline's limit, and the rest of the form. */
const RETURN_FORM_MAX = RETURN_PHOTOS_MAX * PHOTO_MAX_BYTES + 1024 * 1024;

/**
 * The order page's own action (the account's and the guest's link page):
 * the returns forms posted without scripts, and a return with photos from
 * either (multipart). Through the same services as the API: the photos go
 * through the image pipeline first, so a refused photo refuses the return
 * with nothing made, beside the photos field; what was typed comes back.
 * The page is a same-origin form post (plugins/auth.ts refuses another
 * site's); `number` is the page's own order, already found to be `who`'s
 * (the signed-in customer's, or the link's holder's).
 */
export async function returnsFormAction(app: AppContext, request: Request, number: string, who: Requester) {
  requireOwnOrigin(request, app.config.apiBaseUrl);
  let intent: ReturnsIntent = "return";
  // A refusal is the page again with its messages (200, as the storefront's other forms answer): the form's own business, not an error of the page.
  const refuse = (result: FormFailure & { values?: Record<string, string> }) => data<ReturnsResult>({ ...result, intent });
  if (Number(request.headers.get("content-length") ?? "0") > RETURN_FORM_MAX) {
    return refuse(failure(`Attach at most ${RETURN_PHOTOS_MAX} photos of ${PHOTO_MAX_BYTES / 1024 / 1024} MB each.`, { [PHOTOS_FIELD]: [`Attach at most ${RETURN_PHOTOS_MAX} photos of ${PHOTO_MAX_BYTES / 1024 / 1024} MB each.`] }));
  }
  const form = await request.formData();
  intent = (text(form, "intent") || "return") as ReturnsIntent;
  // The order is the page's (its loader's checks), never one the form names.
  const { lineIds } = orderOfForm(form);
  // What was typed, to show again beside a refusal.
  const values = Object.fromEntries([...form.entries()].flatMap(([k, v]) => (typeof v === "string" && k.length <= 40 ? [[k, v.slice(0, 1000)]] : [])));
  const sent: number[] = [];
  try {
    if (intent === "cancel-all") {
      if (!checked(form, "confirm")) return refuse({ ...failure("Tick the box to confirm you want to cancel the whole order.", { confirm: ["Tick to confirm."] }), values });
      await app.services.orderCancelling.cancel(number, who, {});
      return data<ReturnsResult>({ ok: true, intent, message: `Order ${number} is cancelled. Any card payment is being refunded; we have emailed you.` });
    }
    if (intent === "cancel-lines") {
      const lines = lineIds.flatMap((id) => {
        const quantity = Number(text(form, fieldOf("cancel", id)) || 0);
        if (quantity > 0) sent.push(id);
        return quantity > 0 ? [{ line_id: id, quantity }] : [];
      });
      if (!lines.length) return refuse({ ...failure("Choose how many of an item to cancel."), values });
      const done = await app.services.orderCancelling.cancel(number, who, { lines });
      return data<ReturnsResult>({ ok: true, intent, message: done.cancelled === "whole" ? `Everything left on order ${number} was chosen, so the whole order is cancelled.` : "Those items are cancelled; we have emailed you." });
    }
    const asked = returnOfForm(form, lineIds, sent);
    if (!asked.lines.length) return refuse({ ...failure(CHOOSE_ITEMS), values });
    const files = await Promise.all(photosOfForm(form).map(async (f) => ({ filename: f.name, bytes: Buffer.from(await f.arrayBuffer()) })));
    const made = await app.services.returnPhotos.prepare(files, [], (photos) => app.services.returns.request(number, who, asked, { photos }));
    return data<ReturnsResult>({ ok: true, intent, made, message: returnMessage(made) });
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    const errors = byLine(known.errors ?? {}, sent);
    // The pipeline's refusal names the file: said beside the photos field.
    if (!known.errors && known.status === 422 && known.message) errors[PHOTOS_FIELD] = [known.message];
    const fields = returnsFormFields(lineIds);
    const elsewhere = Object.entries(errors).filter(([k]) => !fields.includes(k));
    const message = !Object.keys(errors).length ? known.message : elsewhere.length ? elsewhere.map(([, m]) => m.join(" ")).join(" ") : "Check the details below: nothing was sent.";
    return refuse({ ok: false, errors: Object.fromEntries(Object.entries(errors).filter(([k]) => fields.includes(k))), message, values });
  }
}

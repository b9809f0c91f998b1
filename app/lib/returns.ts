// The customer's returns and cancelling (issue 31): what the order page's
// forms send to the API, and how its answers come back to the forms.
import type { Returnability, CustomerReturn } from "../../server/modules/returns/read.ts";
import type { ReturnMethod, ReturnReason } from "../../server/modules/returns/statuses.ts";
import { ApiError, type FieldErrors } from "./api-client.ts";
import { browserApi } from "./browser-api.ts";
import { type FormResult, checked, failure, failureFrom, redirectIfSignedOut, text } from "./form-result.ts";

export type { CustomerReturn, Returnability };
export { RETURN_METHOD_LABELS, RETURN_REASONS, RETURN_REASON_LABELS } from "../../server/modules/returns/statuses.ts";

/** What the order page shows of returns: loaded with the order. */
export interface OrderReturnsView {
  returnable: Returnability;
  returns: CustomerReturn[];
}

export type ReturnsIntent = "return" | "cancel-all" | "cancel-lines";
export type ReturnsResult = FormResult & {
  intent: ReturnsIntent;
  made?: CustomerReturn & { instructions: string[] };
  /** A refused form posted without scripts: what was typed, shown again (files cannot be). */
  values?: Record<string, string>;
};

/** A line's form fields: `qty-{line_id}`, `reason-{line_id}`, `note-{line_id}`. */
export const fieldOf = (kind: "qty" | "reason" | "note" | "cancel", lineId: number) => `${kind}-${lineId}`;
/** The return form's file field: up to RETURN_PHOTOS_MAX photos, optional. */
export const PHOTOS_FIELD = "photos";

/** The API names a line by its place in what was sent (`lines.0.quantity`), and the photos `file`: the form names them by their fields. */
export function byLine(errors: FieldErrors, sent: number[]): FieldErrors {
  const out: FieldErrors = {};
  for (const [key, messages] of Object.entries(errors)) {
    const m = /^lines\.(\d+)(?:\.(quantity|reason|note))?$/.exec(key);
    const lineId = m ? sent[Number(m[1])] : undefined;
    if (key === "file" || key === "caption") out[PHOTOS_FIELD] = [...(out[PHOTOS_FIELD] ?? []), ...messages];
    else if (lineId === undefined) out[key] = messages;
    else out[fieldOf(m![2] === "reason" ? "reason" : m![2] === "note" ? "note" : "qty", lineId)] = messages;
  }
  return out;
}

/** Every field a returns form shows, so each error lands beside its own. */
export const returnsFormFields = (lineIds: number[]) => [...lineIds.flatMap((id) => [fieldOf("qty", id), fieldOf("reason", id), fieldOf("note", id), fieldOf("cancel", id)]), "method", PHOTOS_FIELD];

/** The order and line ids a form is about (OrderFields in components/returns). */
export function orderOfForm(form: FormData): { number: string; lineIds: number[] } {
  return {
    number: text(form, "order"),
    lineIds: text(form, "lines")
      .split(",")
      .map(Number)
      .filter((n) => Number.isInteger(n) && n > 0),
  };
}

/** The return the form asks for: the lines given a quantity (their ids pushed to `sent`, in order), and how it comes back. */
export function returnOfForm(form: FormData, lineIds: number[], sent: number[]) {
  const lines = lineIds.flatMap((id) => {
    const quantity = Number(text(form, fieldOf("qty", id)) || 0);
    if (quantity <= 0) return [];
    sent.push(id);
    return [{ line_id: id, quantity, reason: text(form, fieldOf("reason", id)) as ReturnReason, note: text(form, fieldOf("note", id)) || undefined }];
  });
  return { lines, method: text(form, "method") as ReturnMethod };
}

/** The photos chosen in the return form: none when the field was left empty. */
export const photosOfForm = (form: FormData): File[] => form.getAll(PHOTOS_FIELD).filter((f): f is File => typeof f !== "string" && (f.size > 0 || f.name !== ""));

export const CHOOSE_ITEMS = "Choose at least one item to return: set how many.";
export const returnMessage = (made: { number: string; status: string }) => `Return ${made.number} is ${made.status === "approved" ? "approved" : "requested"}.`;

/**
 * The order page's client action: asks for a return, or cancels the whole
 * order or some lines, through the API (the guest's link signature passed on
 * as it came). Answers what the form shows.
 */
export async function returnsAction(request: Request, link: { expires?: string | null; signature?: string | null } = {}, serverAction?: () => Promise<ReturnsResult>): Promise<ReturnsResult> {
  const form = await request.clone().formData();
  const intent = (text(form, "intent") || "return") as ReturnsIntent;
  // Photos go with the return to the page's own action (returns.server.ts), which takes them through the pipeline first.
  if (intent === "return" && serverAction && photosOfForm(form).length) return serverAction();
  // The forms carry the order's number and its line ids (OrderFields in components/returns).
  const { number, lineIds } = orderOfForm(form);
  if (!/^TC-\d{6,}$/.test(number)) return { ...failure("This order could not be found. Reload the page and try again."), intent };
  const api = browserApi();
  const query = link.signature ? { expires: link.expires ?? undefined, signature: link.signature } : undefined;
  const sent: number[] = [];
  try {
    if (intent === "cancel-all") {
      if (!checked(form, "confirm")) return { ...failure("Tick the box to confirm you want to cancel the whole order.", { confirm: ["Tick to confirm."] }), intent };
      await api.post(`/api/orders/${number}/cancel`, {}, { query });
      return { ok: true, intent, message: `Order ${number} is cancelled. Any card payment is being refunded; we have emailed you.` };
    }
    if (intent === "cancel-lines") {
      const lines = lineIds.flatMap((id) => {
        const quantity = Number(text(form, fieldOf("cancel", id)) || 0);
        if (quantity > 0) sent.push(id);
        return quantity > 0 ? [{ line_id: id, quantity }] : [];
      });
      if (!lines.length) return { ...failure("Choose how many of an item to cancel."), intent };
      const answer = await api.post<{ data: { cancelled: "whole" | "lines"; refund_failed: boolean } }>(`/api/orders/${number}/cancel`, { lines }, { query });
      const message =
        answer.data.cancelled === "whole"
          ? `Everything left on order ${number} was chosen, so the whole order is cancelled.`
          : answer.data.refund_failed
            ? "Those items are cancelled. Their refund could not be made just now; we will make it and email you."
            : "Those items are cancelled and refunded; we have emailed you.";
      return { ok: true, intent, message };
    }
    const { lines, method } = returnOfForm(form, lineIds, sent);
    if (!lines.length) return { ...failure(CHOOSE_ITEMS), intent };
    const made = await api.post<{ data: CustomerReturn & { instructions: string[] } }>(`/api/orders/${number}/returns`, { lines, method }, { query });
    return { ok: true, intent, made: made.data, message: returnMessage(made.data) };
  } catch (error) {
    redirectIfSignedOut(error, request);
    if (error instanceof ApiError && (error.status === 409 || error.status === 403)) return { ...failure(error.message), intent };
    const result = failureFrom(error instanceof ApiError && error.status === 422 ? new ApiError(error.status, error.message, byLine(error.errors, sent)) : error, {
      fallback: intent === "return" ? "Your return could not be sent. Please try again." : "The order could not be cancelled. Please try again.",
      fields: returnsFormFields(lineIds),
    });
    return { ...result, intent };
  }
}

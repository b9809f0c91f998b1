// The promotions desk's save, for the new and edit screens' actions (server
// only): the form's fields to the API's input (SKUs to product ids, London
// times to ISO), checked by the API's own schema, then the service, which
// checks the rest. A refusal comes back with every error by field and the
// form as typed.
import { promotionInput, promotionPatch } from "../../../server/modules/promotions/contract.ts";
import { type PromotionAdmin, promotionRuleErrors } from "../../../server/modules/promotions/admin.ts";
import type { PromotionJson } from "../../../server/modules/promotions/contract.ts";
import type { StaffActor } from "../../../server/modules/staff/actor.ts";
import { serviceError } from "./access.ts";
import { type PromotionFormValues, fieldOfPath, promotionInputOf, skusOf, valuesFromForm } from "./promotions.ts";

export type PromotionSaveResult = { ok: true; promotion: PromotionJson } | { ok: false; status: number; message: string; errors: Record<string, string[]>; values: PromotionFormValues };

export async function savePromotion(desk: PromotionAdmin, actor: StaffActor, form: FormData, id: number | null): Promise<PromotionSaveResult> {
  const values = valuesFromForm(form);
  const refuse = (status: number, message: string, errors: Record<string, string[]> = {}): PromotionSaveResult => ({ ok: false, status, message, errors, values });
  const checkBelow = "Nothing was saved. Check the fields marked below.";
  try {
    const skus = skusOf(values.product_skus);
    const products = await desk.productsBySku(actor, skus);
    const { input, errors } = promotionInputOf(values, products.ids);
    if (products.missing.length) errors["applies_to.product_ids"] = [`No product has the SKU ${products.missing.join(", ")}.`];
    const parsed = (id === null ? promotionInput : promotionPatch).safeParse(input);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) (errors[fieldOfPath(issue.path)] ??= []).push(issue.message);
    }
    if (!parsed.success) return refuse(422, checkBelow, errors);
    if (Object.keys(errors).length) {
      // Refused here already: the service's own rules are added, so every field's error shows at once.
      for (const [field, messages] of Object.entries(promotionRuleErrors(parsed.data as typeof promotionInput._output))) errors[field] ??= messages;
      return refuse(422, checkBelow, errors);
    }
    const saved = id === null ? await desk.create(actor, parsed.data as typeof promotionInput._output) : await desk.update(actor, id, parsed.data);
    return { ok: true, promotion: saved.data };
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    return refuse(known.status, known.errors ? checkBelow : known.message, known.errors ?? {});
  }
}

// The quick-order pad in the browser (issue 32): the pasted lines go to the
// basket API's check, then its bulk add, keeping the shared basket store up to date.
import type { BulkLine } from "../../server/modules/basket/bulk.ts";
import type { PastedLine } from "../../server/modules/basket/quick-order-text.ts";
import { ApiError } from "./api-client.ts";
import { type BasketAnswer, basketStore, setCart } from "./basket.ts";
import { browserApi } from "./browser-api.ts";

export type { BulkLine };

/** The basket envelope with each line's verdict beside it. */
export type QuickOrderAnswer = BasketAnswer & { lines: BulkLine[] };

/** A line's errors (its SKU's, then its quantity's), joined as the UI joins a field's messages. */
export function lineErrors(answer: Pick<QuickOrderAnswer, "errors">, line: number): string {
  return [`lines.${line}.sku`, `lines.${line}.quantity`].flatMap((field) => answer.errors[field] ?? []).join(" ");
}

/**
 * Checks the lines (`add` false: nothing is written) or adds them. Resolves to
 * the answer, a 422 that judged the lines included, or else to a message.
 */
export async function sendQuickOrder(lines: PastedLine[], add: boolean): Promise<{ answer: QuickOrderAnswer } | { message: string }> {
  const body = { lines: lines.map((l) => ({ sku: l.sku, quantity: l.quantity })) };
  try {
    const answer = await browserApi().post<QuickOrderAnswer>(add ? "/api/basket/bulk" : "/api/basket/bulk/check", body);
    if (add) setCart(answer.cart);
    return { answer };
  } catch (error) {
    const cart = basketStore.cartFromError(error);
    if (cart) setCart(cart);
    const judged = error instanceof ApiError ? (error.body as Partial<QuickOrderAnswer> | undefined) : undefined;
    if (judged && Array.isArray(judged.lines) && judged.lines.length === lines.length) return { answer: judged as QuickOrderAnswer };
    if (error instanceof ApiError && error.status < 500 && error.status !== 419 && error.message) return { message: error.message };
    return { message: add ? "We could not add your lines to the basket. Please try again." : "We could not check your lines. Please try again." };
  }
}

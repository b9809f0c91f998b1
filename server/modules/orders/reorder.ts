import { HttpError } from "../../http-errors.ts";
import type { BasketService, LinesOutcome } from "../basket/service.ts";
import type { OrderService } from "./service.ts";

const list = (parts: string[]) => (parts.length <= 1 ? parts.join("") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`);

const REASONS: Record<LinesOutcome["skipped"][number]["reason"], string> = {
  unavailable: "no longer sold",
  out_of_stock: "out of stock",
  basket_full: "your basket already holds all we have",
};

/** Tells the customer exactly what a reorder did: added, capped at the stock, skipped. */
export function reorderMessage(outcome: LinesOutcome): string {
  const sentences: string[] = [];
  if (outcome.added.length) sentences.push(`Added to your basket: ${list(outcome.added.map((a) => `${a.quantity} × ${a.name}`))}.`);
  for (const c of outcome.capped) sentences.push(`${c.name}: ${c.quantity} of the ${c.requested} ordered added (only ${c.stock} in stock).`);
  if (outcome.skipped.length) sentences.push(`Not added: ${list(outcome.skipped.map((s) => `${s.name} (${REASONS[s.reason]})`))}.`);
  if (!outcome.added.length && !outcome.capped.length) sentences.unshift("Nothing was added to your basket.");
  return sentences.join(" ");
}

/** Buy again: an order's lines go into the user's basket at today's prices. */
export function createReorderService(deps: { orders: OrderService; basket: BasketService }) {
  return {
    /** Only the user's own orders: another's is not found. */
    async reorder(userId: number, orderId: number) {
      const order = await deps.orders.linesForUser(userId, orderId);
      if (!order) throw new HttpError(404, "Order not found.");
      const outcome = await deps.basket.addLines({ userId }, order.lines);
      return { outcome, message: reorderMessage(outcome) };
    },
  };
}

export type ReorderService = ReturnType<typeof createReorderService>;

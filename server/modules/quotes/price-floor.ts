import { HttpError } from "../../http-errors.ts";
import type { StaffActor } from "../staff/actor.ts";
import { can } from "../staff/permissions.ts";
import { money } from "../trade/invoices/document-pdf.ts";

/**
 * The quote price floor (issue 32): staff who may price quotes (`quotes.manage`)
 * may take at most this much off the customer's own price (their trade price,
 * for a trade account) on a line; lower needs a role with `quotes.below_floor`
 * (managers and owners), who may go down to nothing.
 */
export const QUOTE_FLOOR_PERCENT = 15;

/** The lowest unit price (pence ex VAT) a role without `quotes.below_floor` may quote: rounded up, so never below the percentage. */
export function floorPrice(basePrice: number): number {
  return Math.ceil((basePrice * (100 - QUOTE_FLOOR_PERCENT)) / 100);
}

/** The floor for this actor, or null when they have none. */
export function floorFor(actor: StaffActor, basePrice: number): number | null {
  return can(actor.role, "quotes.below_floor") ? null : floorPrice(basePrice);
}

/** Refuses with 403, naming the lines, when any is priced below the actor's floor. */
export function checkFloor(actor: StaffActor, lines: readonly { sku: string; basePrice: number; unitPrice: number }[]): void {
  const below = lines.filter((l) => {
    const floor = floorFor(actor, l.basePrice);
    return floor !== null && l.unitPrice < floor;
  });
  if (!below.length) return;
  const named = below.map((l) => `${l.sku} at ${money(l.unitPrice)} (the lowest you may quote is ${money(floorPrice(l.basePrice))})`).join("; ");
  throw new HttpError(403, `More than ${QUOTE_FLOOR_PERCENT}% off the customer's price needs a manager: ${named}.`);
}

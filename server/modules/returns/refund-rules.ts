import { type ReturnReason, SHOPS_FAULT } from "./statuses.ts";

/**
 * What a return's refund should be (issue 31), in pence inc VAT: the rule the
 * returns desk proposes and staff may lower within their refund limit.
 *
 * - The goods received back (resaleable or damaged), each line's share of what
 *   was paid for it; goods that never arrived are not refunded.
 * - Delivery, when the whole order has come back: what was paid for it, but
 *   never more than the standard delivery would have cost (Consumer Contracts
 *   Regulations reg. 34(2): the extra cost of a premium delivery the customer
 *   chose is not refunded).
 * - Less the collection charge for heavy goods the customer sends back for
 *   their own reasons (the shop's fault bears its own costs), and less a
 *   deduction for handling beyond what inspecting the goods needed, which
 *   must give its reason (reg. 34(9)).
 * Never below nothing.
 */
export interface RefundLine {
  /** The order line as sold: its units and what they cost with VAT. */
  ordered: number;
  paid: number;
  /** Units of this line coming back in this return (resaleable plus damaged), and refunded by earlier returns. */
  back: number;
  before?: number;
  reason: ReturnReason;
}

export interface RefundProposal {
  goods: number;
  delivery: number;
  collectionCharge: number;
  deduction: number;
  total: number;
}

/** What `units` of a line cost: the last units take what is left, so piecemeal refunds never add up to more than the line. */
export function lineShare(line: Pick<RefundLine, "ordered" | "paid">, units: number): number {
  return units >= line.ordered ? line.paid : Math.round((line.paid * units) / line.ordered);
}

/** This return's share of a line, after what earlier returns took. */
const shareNow = (l: RefundLine) => lineShare(l, (l.before ?? 0) + l.back) - lineShare(l, l.before ?? 0);

/** The delivery to give back when a whole order comes back: what was paid, up to the standard delivery's price. */
export function deliveryRefund(paidForDelivery: number, standardDelivery: number | null): number {
  if (standardDelivery === null) return paidForDelivery;
  return Math.min(paidForDelivery, Math.max(0, standardDelivery));
}

export function proposeRefund(input: {
  lines: RefundLine[];
  /** This return brings the last of the order back: every unit sold is returned or cancelled. */
  wholeOrder: boolean;
  /** Pence inc VAT paid for delivery, and what the standard delivery would have been (null: the order's method was the standard one). */
  deliveryPaid: number;
  standardDelivery: number | null;
  collectionCharge: number;
  deduction?: number;
}): RefundProposal {
  const goods = input.lines.reduce((sum, l) => sum + shareNow(l), 0);
  const delivery = input.wholeOrder ? deliveryRefund(input.deliveryPaid, input.standardDelivery) : 0;
  const ownReasons = input.lines.filter((l) => l.back > 0).every((l) => !SHOPS_FAULT.includes(l.reason));
  const collectionCharge = ownReasons ? input.collectionCharge : 0;
  const deduction = Math.max(0, input.deduction ?? 0);
  return { goods, delivery, collectionCharge, deduction, total: Math.max(0, goods + delivery - collectionCharge - deduction) };
}

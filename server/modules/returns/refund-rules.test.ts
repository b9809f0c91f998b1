// What a return's refund should be (issue 31): the goods back, the standard
// delivery when the whole order comes back and never a premium delivery's
// extra, less a collection charge for the customer's own reasons and a
// deduction; piecemeal returns never add up to more than a line.
import { describe, expect, it } from "vitest";
import { deliveryRefund, lineShare, proposeRefund } from "./refund-rules.ts";

const line = { ordered: 3, paid: 1000 };

describe("proposeRefund", () => {
  it("refunds a partial return's goods without delivery", () => {
    expect(proposeRefund({ lines: [{ ...line, back: 1, reason: "changed_mind" }], wholeOrder: false, deliveryPaid: 695, standardDelivery: null, collectionCharge: 0 })).toEqual({ goods: 333, delivery: 0, collectionCharge: 0, deduction: 0, total: 333 });
  });

  it("adds the delivery paid when the whole order comes back", () => {
    expect(proposeRefund({ lines: [{ ...line, back: 3, reason: "changed_mind" }], wholeOrder: true, deliveryPaid: 695, standardDelivery: null, collectionCharge: 0 }).total).toBe(1695);
  });

  it("gives back only what standard delivery would have cost for a premium delivery", () => {
    expect(proposeRefund({ lines: [{ ...line, back: 3, reason: "faulty" }], wholeOrder: true, deliveryPaid: 1295, standardDelivery: 695, collectionCharge: 0 }).delivery).toBe(695);
    // Free standard delivery (the order was over its threshold): none of the premium charge.
    expect(deliveryRefund(1295, 0)).toBe(0);
    expect(deliveryRefund(695, null)).toBe(695);
  });

  it("takes the collection charge off for the customer's own reasons only", () => {
    const base = { wholeOrder: false, deliveryPaid: 0, standardDelivery: null, collectionCharge: 2500 };
    expect(proposeRefund({ ...base, lines: [{ ...line, back: 3, reason: "changed_mind" }] }).total).toBe(0);
    expect(proposeRefund({ ...base, lines: [{ ordered: 1, paid: 9000, back: 1, reason: "changed_mind" }] }).total).toBe(6500);
    expect(proposeRefund({ ...base, lines: [{ ordered: 1, paid: 9000, back: 1, reason: "faulty" }] }).total).toBe(9000);
  });

  it("takes a deduction off, never below nothing", () => {
    expect(proposeRefund({ lines: [{ ...line, back: 1, reason: "changed_mind" }], wholeOrder: false, deliveryPaid: 0, standardDelivery: null, collectionCharge: 0, deduction: 100 }).total).toBe(233);
    expect(proposeRefund({ lines: [{ ...line, back: 1, reason: "changed_mind" }], wholeOrder: false, deliveryPaid: 0, standardDelivery: null, collectionCharge: 0, deduction: 5000 }).total).toBe(0);
  });

  it("lets the last units take what is left of a line, so returns one at a time add up to what was paid", () => {
    const one = (before: number) => proposeRefund({ lines: [{ ...line, back: 1, before, reason: "changed_mind" }], wholeOrder: false, deliveryPaid: 0, standardDelivery: null, collectionCharge: 0 }).goods;
    expect([one(0), one(1), one(2)]).toEqual([333, 334, 333]);
    expect(one(0) + one(1) + one(2)).toBe(1000);
    expect(lineShare(line, 3)).toBe(1000);
  });
});

// The audit log's words (issue 34): no pence read as pounds, no raw JSON, no
// status codes, one date format.
import { describe, expect, it } from "vitest";
import { actionWords, auditSentence, changedFields, valueWords } from "./audit-words.ts";

describe("the audit log in the shop's words", () => {
  it("says a trade payment as a sentence, its pence as pounds, its allocations as a list", () => {
    const entry = {
      action: "trade_account.payment",
      entity_id: "12",
      before: null,
      after: { payment: "PAY-000031", amount: 23758, method: "bank_transfer", reference: "BACS 88", allocations: [{ invoice_number: "INV-000043", amount: 200 }, { invoice_number: "INV-000044", amount: 37.58 }], remittances_confirmed: 0 },
    };
    expect(auditSentence(entry)).toBe("Payment of £237.58 recorded (PAY-000031), reference BACS 88: £200.00 against INV-000043, £37.58 against INV-000044.");
    const fields = Object.fromEntries(changedFields(entry).map(([name, , after]) => [name, after]));
    expect(fields.amount).toBe("£237.58");
    expect(fields.allocations).toBe("invoice number INV-000043, amount £200.00; invoice number INV-000044, amount £37.58");
    expect(Object.values(fields).join(" ")).not.toMatch(/[{}[\]"]|23758/);
  });

  it("names statuses by their labels and moves as sentences", () => {
    const move = { action: "order.transition", entity_id: "TC-000101", before: { status: "awaiting_payment" }, after: { status: "paid", paid_on: "2026-11-02" } };
    expect(auditSentence(move)).toBe("Order TC-000101 moved from Awaiting payment to Paid.");
    const paid = { ...move, after: { status: "paid", paid_amount: 152.18, paid_on: "2026-11-29", payment_reference: "BACS 2" } };
    expect(auditSentence(paid)).toBe("Order TC-000101 moved from Awaiting payment to Paid: £152.18 received on 29 Nov 2026, reference BACS 2.");
    expect(actionWords("order.transition")).toBe("Order status changed");
    expect(changedFields(move)).toEqual([
      ["status", "Awaiting payment", "Paid"],
      ["received on", "none", "2 Nov 2026"],
    ]);
  });

  it("reads a trade account's terms: the limit in pence, the discount in basis points, the terms in days", () => {
    const terms = { action: "trade_account.terms", before: { credit_limit: 500000, discount_basis_points: 250, terms_days: 30, po_required: false }, after: { credit_limit: 750000, discount_basis_points: 250, terms_days: 60, po_required: true } };
    expect(changedFields(terms)).toEqual([
      ["credit limit", "£5,000.00", "£7,500.00"],
      ["payment terms", "30 days", "60 days"],
      ["PO required", "no", "yes"],
    ]);
    // A refund is written in pounds.
    expect(valueWords("order.refund", "refund", 12.5)).toBe("£12.50");
  });

  it("names actions it has no sentence for from their parts", () => {
    expect(actionWords("trade_account.credit_note")).toBe("Trade account: credit note");
    expect(actionWords("set_vat")).toBe("VAT rate set");
    expect(actionWords("hire_unit.retired")).toBe("Hire unit: retired");
    expect(auditSentence({ action: "product.updated", entity_id: "SKU-1", before: null, after: null })).toBeNull();
  });
});

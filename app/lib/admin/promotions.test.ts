import { describe, expect, it } from "vitest";
import { EMPTY_PROMOTION, fieldOfPath, isoOfLondonLocal, londonLocalOf, previewLinesOf, promotionGives, promotionInputOf, skusOf, usesOf } from "./promotions.ts";

describe("what a promotion gives, in the list's words", () => {
  it("says percent, pounds ex VAT, free delivery and each multi-buy plainly", () => {
    expect(promotionGives({ kind: "percent", value: 10, buy: null, multi_buy: null })).toBe("10% off");
    expect(promotionGives({ kind: "amount", value: 5, buy: null, multi_buy: null })).toBe("£5.00 off (ex VAT)");
    expect(promotionGives({ kind: "free_delivery", value: 0, buy: null, multi_buy: null })).toBe("Free delivery");
    expect(promotionGives({ kind: "multi_buy", value: 1, buy: 3, multi_buy: "free" })).toBe("3 for 2");
    expect(promotionGives({ kind: "multi_buy", value: 15, buy: 2, multi_buy: "percent" })).toBe("Buy 2, 15% off");
    expect(promotionGives({ kind: "multi_buy", value: 10, buy: 3, multi_buy: "price" })).toBe("3 for £10.00 (ex VAT)");
    expect(usesOf({ uses: 3, max_uses: 100 })).toBe("3 of 100");
    expect(usesOf({ uses: 3, max_uses: null })).toBe("3");
  });
});

describe("London's clock", () => {
  it("turns a wall-clock time typed in winter and in summer into the right instant, and back", () => {
    expect(isoOfLondonLocal("2026-12-01T09:00")).toBe("2026-12-01T09:00:00.000Z");
    expect(isoOfLondonLocal("2026-07-01T09:00")).toBe("2026-07-01T08:00:00.000Z");
    // The day the clocks go forward: by noon it is summer time.
    expect(isoOfLondonLocal("2026-03-29T12:00")).toBe("2026-03-29T11:00:00.000Z");
    expect(londonLocalOf("2026-07-01T08:00:00.000Z")).toBe("2026-07-01T09:00");
    expect(londonLocalOf("2026-12-01T09:00:00Z")).toBe("2026-12-01T09:00");
    expect(londonLocalOf(null)).toBe("");
    expect(isoOfLondonLocal(" ")).toBeNull();
    expect(isoOfLondonLocal("2026-02-30T09:00")).toBe("invalid");
    expect(isoOfLondonLocal("tomorrow")).toBe("invalid");
  });
});

describe("the form's fields to the API's input", () => {
  it("sends what the kind uses, numbers as numbers, blanks as no limit, and names what is not a number", () => {
    const { input, errors } = promotionInputOf({ ...EMPTY_PROMOTION, code: "welcome10", value: "10%", max_uses: "100", starts_at: "2026-07-01T09:00", category_ids: [4] }, [7]);
    expect(errors).toEqual({});
    expect(input).toMatchObject({ kind: "percent", code: "welcome10", value: 10, min_spend: 0, max_uses: 100, max_uses_per_customer: null, starts_at: "2026-07-01T08:00:00.000Z", ends_at: null, buy: null, multi_buy: null, applies_to: { product_ids: [7], category_ids: [4], brand_ids: [] } });
    expect(input).not.toHaveProperty("name");

    const multi = promotionInputOf({ ...EMPTY_PROMOTION, kind: "multi_buy", code: "IGNORED", value: "1", buy: "3", multi_buy: "free" }, []);
    expect(multi.input).toMatchObject({ kind: "multi_buy", code: null, buy: 3, multi_buy: "free", value: 1 });
    expect(promotionInputOf({ ...EMPTY_PROMOTION, kind: "free_delivery", code: "SHIPFREE", value: "rubbish" }, []).input).not.toHaveProperty("value");

    const wrong = promotionInputOf({ ...EMPTY_PROMOTION, code: "X", value: "ten", min_spend: "£lots", ends_at: "soon" }, []);
    expect(Object.keys(wrong.errors).sort()).toEqual(["ends_at", "min_spend", "value"]);
  });

  it("names an error's field as the API does", () => {
    expect(fieldOfPath(["value"])).toBe("value");
    expect(fieldOfPath(["applies_to", "category_ids", 0])).toBe("applies_to.category_ids");
    expect(skusOf("DR-1, dr-2\nDR-3  DR-1")).toEqual(["DR-1", "dr-2", "DR-3"]);
  });
});

describe("a sample basket typed as lines", () => {
  it("reads a SKU and a quantity a line, 1 when left out, and names a line it cannot read", () => {
    expect(previewLinesOf("DR-1001 3\n\nSC-2 x2\nHM-9")).toEqual({ lines: [{ sku: "DR-1001", quantity: 3 }, { sku: "SC-2", quantity: 2 }, { sku: "HM-9", quantity: 1 }], errors: [] });
    expect(previewLinesOf("DR-1001 three\nSC-2 0").errors).toHaveLength(2);
    expect(previewLinesOf("DR-1001 three").errors[0]).toMatch(/^Line 1:/);
    expect(previewLinesOf("  ").errors).toEqual(["Add at least one line: a SKU and how many."]);
  });
});

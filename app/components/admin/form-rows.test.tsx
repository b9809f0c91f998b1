// The long forms' shared fields.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { VatRateField } from "./form-rows.tsx";

describe("VatRateField", () => {
  it("labels the rates the shop charges, the chosen one selected, and reads out a refusal", () => {
    const html = renderToStaticMarkup(<VatRateField prefix="product" value={5} onChange={() => undefined} errors={{ vat_rate: ["Choose a rate."] }} />);
    expect(html).toContain('<label for="product-vat_rate" class="font-semibold">VAT rate</label>');
    expect(html).toMatch(/<select id="product-vat_rate" name="vat_rate" aria-invalid="true" aria-describedby="product-vat_rate-error"/);
    expect(html).toContain('<option value="20">20% standard</option><option value="5" selected="">5% reduced</option><option value="0">0% zero-rated</option>');
    expect(html).toContain("Choose a rate.");
  });
});

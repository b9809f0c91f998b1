// The counter's order form (issue 34) read into the API's body: the same
// shape is placed (after the contract's checks) or saved as a draft as it is.

/** The form's fields, as the API's body; blanks left out, nothing checked. */
export function counterBodyOf(form: FormData): Record<string, unknown> {
  const text = (name: string, max = 200) => String(form.get(name) ?? "").trim().slice(0, max);
  const all = (name: string) => form.getAll(name).map((v) => String(v).trim().slice(0, 200));
  const num = (value: string) => (value === "" ? undefined : Number(value.replace(/[£,\s]/g, "")));
  const skus = all("line_sku");
  const quantities = all("line_quantity");
  const prices = all("line_price");
  const reasons = all("line_reason");
  const lines = skus
    .map((sku, i) => ({ sku, quantity: num(quantities[i] ?? "") ?? 1, unit_price_ex_vat: num(prices[i] ?? ""), reason: reasons[i] || undefined }))
    .filter((l) => l.sku !== "")
    .slice(0, 100);
  const customerId = num(text("customer_id", 12));
  const walkIn = { name: text("walkin_name", 100), email: text("walkin_email", 200), phone: text("walkin_phone", 30) };
  const method = text("delivery_method", 40);
  const collect = text("fulfilment", 12) !== "delivery";
  const address = { name: text("addr_name", 100), company: text("addr_company", 100), line_1: text("addr_line_1", 100), line_2: text("addr_line_2", 100), town: text("addr_town", 60), postcode: text("addr_postcode", 10) };
  return {
    ...(customerId !== undefined ? { customer_id: customerId } : walkIn.name || walkIn.email || walkIn.phone ? { customer: walkIn } : {}),
    customer_label: text("customer_label", 200),
    lines,
    delivery_method: collect ? "collect" : method,
    ...(collect ? { branch_id: num(text("branch_id", 12)) } : { delivery_address: address }),
    payment: text("payment", 20) || undefined,
    ...(num(text("site_id", 12)) !== undefined ? { site_id: num(text("site_id", 12)) } : {}),
    payment_reference: text("payment_reference", 100) || undefined,
    po_reference: text("po_reference", 50) || undefined,
    notes: text("notes", 1000) || undefined,
    ...(num(text("draft_id", 12)) !== undefined ? { draft_id: num(text("draft_id", 12)) } : {}),
  };
}

// How a variant is named to people, in a plain module (no database code) so
// the storefront, the documents and the emails name it alike.

/** Option values as one line: "3.0 m, Brilliant White"; empty for a product without options. */
export function optionsLabel(options: Record<string, string>): string {
  return Object.values(options).join(", ");
}

/** Option values with their names, for staff (reports, messages): "Length 3.0 m, Colour White". */
export function optionsWithNames(options: Record<string, string>): string {
  return Object.entries(options)
    .map(([name, value]) => `${name} ${value}`)
    .join(", ");
}

/** A line's name: the product's, with the variant's option values after it: "CLS stud 38 × 63 mm (3.0 m)". */
export function lineName(productName: string, options: Record<string, string>): string {
  const label = optionsLabel(options);
  return label ? `${productName} (${label})` : productName;
}

// The product page's variant rules, in the browser: which variant a choice of
// values means, and how each value stands against the others chosen. Plain
// functions over the product's own `variants` (no request per click).

export interface PickerVariant {
  id: number;
  sku: string;
  options: Record<string, string>;
  stock: number;
  in_stock: boolean;
}

export type ValueState =
  /** The chosen variant has it. */
  | { kind: "chosen"; variant: PickerVariant }
  /** Made with the other values chosen, and in stock. */
  | { kind: "available"; variant: PickerVariant }
  /** Made with the other values chosen, but none in stock. */
  | { kind: "out_of_stock"; variant: PickerVariant }
  /** Not made with the other values chosen: choosing it changes them. */
  | { kind: "other_combination"; variant: PickerVariant; changes: string[] }
  /** No variant on sale has it. */
  | { kind: "none" };

/** The variant of this SKU (any case), or null. */
export function variantBySku<V extends PickerVariant>(variants: V[], sku: string | null): V | null {
  if (!sku) return null;
  const wanted = sku.toLowerCase();
  return variants.find((v) => v.sku.toLowerCase() === wanted) ?? null;
}

/**
 * Where choosing `value` for `name` leads: the variant with that value that
 * keeps most of the other values chosen (in stock first, then the picker's order).
 */
export function stateOf(variants: PickerVariant[], chosen: PickerVariant | null, name: string, value: string): ValueState {
  const withValue = variants.filter((v) => v.options[name] === value);
  if (withValue.length === 0) return { kind: "none" };
  if (chosen && chosen.options[name] === value) return { kind: "chosen", variant: chosen };
  const others = chosen ? Object.entries(chosen.options).filter(([n]) => n !== name) : [];
  const kept = (v: PickerVariant) => others.filter(([n, x]) => v.options[n] === x).length;
  const best = [...withValue].sort((a, b) => kept(b) - kept(a) || Number(b.in_stock) - Number(a.in_stock))[0]!;
  const changes = others.filter(([n, x]) => best.options[n] !== x).map(([n]) => n);
  if (changes.length) return { kind: "other_combination", variant: best, changes };
  return best.in_stock ? { kind: "available", variant: best } : { kind: "out_of_stock", variant: best };
}

/** Words a screen reader and a sighted customer both get for a value that is not simply available. */
export function stateNote(state: ValueState, chosen: PickerVariant | null): string {
  switch (state.kind) {
    case "out_of_stock":
      return "out of stock";
    case "other_combination":
      return `not made in ${state.changes.map((n) => chosen?.options[n] ?? n).join(", ")}`;
    case "none":
      return "not available";
    default:
      return "";
  }
}

import type { ReactNode } from "react";

/**
 * A select's options from a list (branches, categories, a label table): each
 * item's value and the words shown for it. Any "Choose…" or "Any" option
 * stays beside it in the select.
 */
export function Options<T>({ of, value, label }: { of: readonly T[]; value: (item: T) => string | number; label: (item: T) => ReactNode }) {
  return of.map((item) => (
    <option key={value(item)} value={value(item)}>
      {label(item)}
    </option>
  ));
}

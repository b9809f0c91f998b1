import type { ReactNode } from "react";

/** A few figures side by side, each its name over its value in bold (a line's or a request's costs, a quote's summary); `className` sets the grid. */
export function FactsRow({ items, className }: { items: readonly (readonly [label: ReactNode, value: ReactNode])[]; className: string }) {
  return (
    <dl className={`grid text-sm ${className}`}>
      {items.map(([label, value], i) => (
        <div key={i}>
          <dt className="text-stone-600">{label}</dt>
          <dd className="font-semibold">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

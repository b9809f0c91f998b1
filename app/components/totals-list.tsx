import type { ReactNode } from "react";

/** A totals row: its name, the amount as shown, and classes for the row (e.g. the final total's rule). */
export type TotalsListRow = readonly [label: string, value: ReactNode, className?: string];

/** The class of the last totals row, the amount to pay. */
export const TOTAL_ROW = "mt-1 border-t border-stone-300 pt-2 text-lg font-bold";

/** A basket's, an order's or a quote's totals: each row's name with its amount at the right; `className` places the list. */
export function TotalsList({ rows, className, testId }: { rows: readonly TotalsListRow[]; className: string; testId: string }) {
  return (
    <dl className={className} data-testid={testId}>
      {rows.map(([label, value, rowClassName = ""]) => (
        <div key={label} className={`flex justify-between gap-4 ${rowClassName}`}>
          <dt>{label}</dt>
          <dd className="text-right">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

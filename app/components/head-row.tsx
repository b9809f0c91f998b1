import type { ReactNode } from "react";

/**
 * The header row of a small table inside a form or a panel (rates worked
 * out, rows to type in, a preview): each column's name with its own classes.
 * A list of records is a DataTable instead.
 */
export function HeadRow({ cells, className }: { cells: readonly (readonly [name: ReactNode, className?: string])[]; className?: string }) {
  return (
    <tr className={className}>
      {cells.map(([name, cellClassName], i) => (
        <th key={i} scope="col" className={cellClassName}>
          {name}
        </th>
      ))}
    </tr>
  );
}

import type { ReactNode } from "react";
import { STACKED } from "./stacked-table.ts";

export interface TableColumn {
  label: string;
  /** Classes of its header cell beyond the padding, e.g. `lg:text-right`. */
  className?: string;
  /** The column the rows are sorted by. */
  sort?: "ascending" | "descending";
}

/**
 * A table on a desktop, a list of cards below `lg` (STACKED): the frame, the
 * caption for screen readers, the header row from `columns`, and the rows
 * (`children`, each built from `Cell`s). Dimmed while a new page loads.
 */
export function TableOrCards({ caption, columns, loading = false, children }: { caption?: string; columns: TableColumn[]; loading?: boolean; children: ReactNode }) {
  return (
    <div className={`${STACKED.frame} ${loading ? "opacity-75" : ""}`} aria-busy={loading || undefined}>
      <table className={STACKED.table}>
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead className={STACKED.head}>
          <tr>
            {columns.map((c) => (
              <th key={c.label} scope="col" className={`px-3 py-2 ${c.className ?? ""}`} aria-sort={c.sort}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={STACKED.body}>{children}</tbody>
      </table>
    </div>
  );
}

/** A row of a TableOrCards: a card of its own below `lg`. */
export function Row({ children }: { children: ReactNode }) {
  return <tr className={`${STACKED.row} max-lg:bg-white lg:hover:bg-stone-50`}>{children}</tr>;
}

/** A cell, named by its column on a card (`label`); the row's own name as a header cell (`head`). Holds one element. */
export function Cell({ label, head = false, className = "", children }: { label: string; head?: boolean; className?: string; children: ReactNode }) {
  return head ? (
    <th scope="row" className={`${STACKED.cell} ${className}`} data-label={label}>
      {children}
    </th>
  ) : (
    <td className={`${STACKED.cell} ${className}`} data-label={label}>
      {children}
    </td>
  );
}

import type { ReactNode, Ref } from "react";
import { STACKED } from "./stacked-table.ts";

export interface TableColumn {
  label: string;
  /** Classes of its header cell beyond the padding, e.g. `lg:text-right`. */
  className?: string;
  /** The column the rows are sorted by. */
  sort?: "ascending" | "descending";
  /** What the header cell shows instead of the label (a sort link, a "choose all" box). */
  header?: ReactNode;
}

/** What a TableOrCards and a DataTable take besides their rows. */
interface TableFrame {
  /** The table's name; for screen readers only unless `captionClassName` shows it. */
  caption?: ReactNode;
  captionClassName?: string;
  /** Dimmed while a new page loads. */
  loading?: boolean;
  tableRef?: Ref<HTMLTableElement>;
  /** The table's test id. */
  testId?: string;
}

/**
 * A table on a desktop, a list of cards below `lg` (STACKED): the frame, the
 * caption for screen readers, the header row from `columns`, and the rows
 * (`children`, each built from `Cell`s). Dimmed while a new page loads.
 * `DataTable` builds the rows too, from column definitions.
 */
export function TableOrCards({ caption, captionClassName = "sr-only", columns, loading = false, tableRef, testId, foot, children }: TableFrame & { columns: TableColumn[]; foot?: ReactNode; children: ReactNode }) {
  return (
    <div className={`${STACKED.frame} ${loading ? "opacity-75" : ""}`} aria-busy={loading || undefined}>
      <table ref={tableRef} className={STACKED.table} data-testid={testId}>
        {caption ? <caption className={captionClassName}>{caption}</caption> : null}
        <thead className={STACKED.head}>
          <tr>
            {columns.map((c) => (
              <th key={c.label} scope="col" className={`px-3 py-2 ${c.className ?? ""}`} aria-sort={c.sort}>
                {c.header ?? c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={STACKED.body}>{children}</tbody>
        {foot ? <tfoot className="border-t-2 border-stone-300 font-bold max-lg:mt-3 max-lg:block">{foot}</tfoot> : null}
      </table>
    </div>
  );
}

/** A row of a TableOrCards: a card of its own below `lg`; `className` gives it another background (a greyed row). */
export function Row({ className = "max-lg:bg-white lg:hover:bg-stone-50", children, ...rest }: { className?: string; id?: string; "data-testid"?: string; children: ReactNode }) {
  return (
    <tr className={`${STACKED.row} ${className}`} {...rest}>
      {children}
    </tr>
  );
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

/** A column of a DataTable: its name (the header, and each card's label for the cell) and what a row shows in it. */
export interface DataColumn<T> extends TableColumn {
  /** What the row shows in this column: one element (or text), as a card's cell holds one; `index` is the row's place in `rows`. */
  cell: (row: T, index: number) => ReactNode;
  /** The row's own name (a header cell for screen readers); one column of a table. */
  head?: boolean;
  /** Figures, money, counts: right-aligned on a desktop. */
  numeric?: boolean;
  /** Classes of each of its cells. */
  cellClassName?: string;
}

/**
 * A list as a table on a desktop and as cards on a phone or tablet, from
 * column definitions: each card's cell carries its column's name. A column
 * given as `false` (one the member may not see) is left out.
 */
export function DataTable<T>({
  columns,
  rows,
  rowKey,
  rowProps,
  totals,
  empty,
  ...frame
}: TableFrame & {
  columns: (DataColumn<T> | false | null | undefined)[];
  rows: readonly T[];
  /** A row's key; `index` (its place) where nothing in the row is unique. */
  rowKey: (row: T, index: number) => string | number;
  /** A row's own classes (a greyed row) and attributes (an id, a test id). */
  rowProps?: (row: T) => { className?: string; id?: string; "data-testid"?: string };
  /** A last row of totals, by column label; the first column's cell names it. */
  totals?: Partial<Record<string, ReactNode>>;
  /** What stands instead of the table when there are no rows (an EmptyState). */
  empty?: ReactNode;
}) {
  if (empty !== undefined && rows.length === 0) return <>{empty}</>;
  const shown = columns.filter((c): c is DataColumn<T> => !!c).map((c) => (c.numeric ? { ...c, className: `lg:text-right ${c.className ?? ""}`, cellClassName: `lg:text-right ${c.cellClassName ?? ""}` } : c));
  return (
    <TableOrCards
      {...frame}
      columns={shown}
      foot={
        totals ? (
          <Row className="max-lg:bg-stone-50">
            {shown.map((c, i) => (
              <Cell key={c.label} label={i === 0 ? "" : c.label} head={i === 0} className={i === 0 ? "" : c.cellClassName}>
                {totals[c.label] ?? null}
              </Cell>
            ))}
          </Row>
        ) : undefined
      }
    >
      {rows.map((row, index) => (
        <Row key={rowKey(row, index)} {...rowProps?.(row)}>
          {shown.map((c) => (
            <Cell key={c.label} label={c.label} head={c.head} className={c.cellClassName}>
              {c.cell(row, index)}
            </Cell>
          ))}
        </Row>
      ))}
    </TableOrCards>
  );
}

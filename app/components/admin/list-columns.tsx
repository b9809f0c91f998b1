import { type ReactNode, type RefObject, useRef } from "react";
import { Link } from "react-router";
import type { DataColumn } from "./table-or-cards.tsx";

// Columns that many back-office lists share, for a DataTable's `columns`.

/**
 * The column that names each row: a link to the row's own screen, read out
 * as the row's header. `more` gives the column's sort, classes or header;
 * `linkClassName` adds to the link's look (a long name that wraps).
 */
export function linkColumn<T>(label: string, to: (row: T) => string, text: (row: T) => ReactNode, { linkClassName = "", ...more }: Omit<DataColumn<T>, "label" | "cell"> & { linkClassName?: string } = {}): DataColumn<T> {
  return {
    head: true,
    ...more,
    label,
    cell: (row) => (
      <Link to={to(row)} className={`link font-semibold ${linkClassName}`.trim()}>
        {text(row)}
      </Link>
    ),
  };
}

/** A small photo of each row (a product, a hire item), or a dashed square where there is none; `hideOnCards` leaves it off a phone's cards. */
export function photoColumn<T>(photo: (row: T) => string | null | undefined, { hideOnCards = false, noPhotoTitle }: { hideOnCards?: boolean; noPhotoTitle?: string } = {}): DataColumn<T> {
  return {
    label: "Photo",
    className: "w-14",
    header: <span className="sr-only">Photo</span>,
    cellClassName: hideOnCards ? "max-lg:hidden" : undefined,
    cell: (row) => {
      const src = photo(row);
      return src ? <img src={src} alt="" width={40} height={40} loading="lazy" className="size-10 rounded border border-stone-200 object-cover" /> : <span className="block size-10 rounded border border-dashed border-stone-300" title={noPhotoTitle} />;
    },
  };
}

/**
 * The first column of a list whose rows can be chosen for a bulk action: a
 * box a row, posted as `name` with the row's `value`, and one in the header
 * that ticks or clears every box on the page (it needs the page's script;
 * each row's box works without). Give the table `tableRef`.
 */
export function useChooseColumn<T>({ name, value, rowLabel, everyLabel }: { name: string; value: (row: T) => string; rowLabel: (row: T) => string; everyLabel: string }): { tableRef: RefObject<HTMLTableElement | null>; column: DataColumn<T> } {
  const tableRef = useRef<HTMLTableElement>(null);
  const chooseAll = (checked: boolean) => tableRef.current?.querySelectorAll<HTMLInputElement>(`input[name="${name}"]`).forEach((box) => (box.checked = checked));
  return {
    tableRef,
    column: {
      label: "Choose",
      className: "w-10",
      header: <input type="checkbox" aria-label={everyLabel} className="size-4" onChange={(event) => chooseAll(event.currentTarget.checked)} />,
      cell: (row) => <input type="checkbox" name={name} value={value(row)} aria-label={rowLabel(row)} className="size-4" />,
    },
  };
}

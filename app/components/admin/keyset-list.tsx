import type { ComponentProps } from "react";
import { EmptyState } from "./empty-state.tsx";
import { KeysetPager, useListAddress } from "./pager.tsx";
import { DataTable } from "./table-or-cards.tsx";

/**
 * A keyset list screen's list: this page's rows as a DataTable (cards on a
 * phone), dimmed while another page of it loads, or the EmptyState
 * (`empty`: why, and the way out) when there are none; then the pager.
 * `empty` null shows nothing (the screen says why above, an ErrorState).
 */
export function KeysetList<T>({ empty, cursor, nextCursor, ...table }: Omit<ComponentProps<typeof DataTable<T>>, "loading" | "empty"> & { empty: ComponentProps<typeof EmptyState> | null; cursor: string | number | undefined; nextCursor: string | number | null }) {
  const { search, loading } = useListAddress();
  return (
    <>
      {table.rows.length > 0 ? <DataTable {...table} loading={loading} /> : empty ? <EmptyState {...empty} /> : null}
      <KeysetPager search={search} cursor={cursor ? String(cursor) : undefined} nextCursor={nextCursor === null ? null : String(nextCursor)} />
    </>
  );
}

import { Link } from "react-router";
import { withParam } from "../../lib/admin/format.ts";

/** A tab: the status it filters by ("" for every one), its name and how many are in it (left out where the list is not counted). */
export type StatusTab = readonly [status: string, label: string, count?: number];

/**
 * A list's status tabs with their counts: each a link that keeps the other
 * filters and starts again from the first page; the current one marked for
 * screen readers. A row that scrolls on its own on a phone or tablet; on a
 * desktop the tabs wrap, so none is cut at the edge (issue 34).
 */
export function StatusTabs({ label, tabs, current, search, param = "status" }: { label: string; tabs: readonly StatusTab[]; current: string; search: URLSearchParams; param?: string }) {
  return (
    <nav aria-label={label} className="mb-4 max-lg:overflow-x-auto">
      <ul className="flex gap-1 border-b border-stone-300 max-lg:min-w-max lg:flex-wrap">
        {tabs.map(([status, name, count]) => {
          const here = current === status;
          return (
            <li key={status || "all"}>
              <Link
                to={withParam(search, { [param]: status, cursor: null }) || "?"}
                aria-current={here ? "page" : undefined}
                className={`-mb-px block border-b-2 px-3 py-2 text-sm font-semibold ${here ? "border-brand-700 text-brand-900" : "border-transparent text-stone-700 hover:border-stone-400"}`}
              >
                {name} {count === undefined ? null : <span className="ml-1 rounded-full bg-stone-200 px-2 py-0.5 text-xs text-stone-800">{count}</span>}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/**
 * The tabs of a list counted by status: "All" (with the sum, or `allCount`)
 * first, then each status with its label and count (0 where none).
 */
export function countedTabs<S extends string>(statuses: readonly S[], labels: Record<S, string>, counts: Partial<Record<S, number>>, allCount?: number): StatusTab[] {
  const all = allCount ?? statuses.reduce((sum, s) => sum + (counts[s] ?? 0), 0);
  return [["", "All", all], ...statuses.map((s): StatusTab => [s, labels[s], counts[s] ?? 0])];
}

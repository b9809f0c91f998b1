/**
 * A table that is a table on a desktop and a list of cards below `lg` (a
 * tablet, a phone), where its columns would not fit: each cell shows its
 * column's name from `data-label` (so a cell holds one element), and the
 * header row is left to screen readers.
 */
export const STACKED = {
  table: "w-full text-left text-sm max-lg:block",
  frame: "lg:overflow-x-auto lg:rounded-lg lg:border lg:border-stone-200 lg:bg-white",
  head: "border-b border-stone-200 bg-stone-50 text-stone-700 max-lg:sr-only",
  body: "lg:divide-y lg:divide-stone-100 max-lg:grid max-lg:gap-3 md:max-lg:grid-cols-2",
  /** Give it a background too: `max-lg:bg-white`, or a greyed row's own. */
  row: "max-lg:block max-lg:rounded-lg max-lg:border max-lg:border-stone-200 max-lg:p-4",
  cell: "px-3 py-2 align-top max-lg:grid max-lg:grid-cols-[6.5rem_minmax(0,1fr)] max-lg:gap-2 max-lg:px-0 max-lg:py-1.5 max-lg:before:font-semibold max-lg:before:text-stone-700 max-lg:before:content-[attr(data-label)]",
} as const;

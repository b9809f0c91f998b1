/** A blocked customer, in words: the colour only helps. */
export function BlockedBadge() {
  return <span className="inline-block whitespace-nowrap rounded bg-red-100 px-2 py-0.5 text-sm font-semibold text-red-900">Blocked</span>;
}

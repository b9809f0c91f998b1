/**
 * "Which branch" on a back-office list or figure (issue 30): every branch, or
 * one. Shown only where the shop has more than one; `all` is the value for
 * every branch ("" on the stock desk, "all" where a member's own is the default).
 */
export function BranchFilter({ branches, chosen, all = "all", allLabel = "All branches", label = "Branch", className = "min-h-10 w-full min-w-0 rounded-md border border-stone-400 bg-white px-2 font-normal" }: {
  branches: readonly { id: number; name: string }[];
  chosen: number | string | null | undefined;
  all?: string;
  allLabel?: string;
  label?: string;
  className?: string;
}) {
  if (branches.length < 2) return null;
  return (
    <label className="grid min-w-0 gap-1 text-sm font-semibold">
      {label}
      <select name="branch" defaultValue={chosen ?? all} className={className}>
        <option value={all}>{allLabel}</option>
        {branches.map((b) => (
          <option key={b.id} value={b.id}>
            {b.name}
          </option>
        ))}
      </select>
    </label>
  );
}

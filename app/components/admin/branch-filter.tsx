import { FILTER_CONTROL, FilterSelect } from "./filter-form.tsx";

/**
 * "Which branch" on a back-office list or figure (issue 30): every branch, or
 * one. Shown only where the shop has more than one; `all` is the value for
 * every branch ("" on the stock desk, "all" where a member's own is the default).
 */
export function BranchFilter({ branches, chosen, all = "all", allLabel = "All branches", label = "Branch", className = FILTER_CONTROL }: {
  branches: readonly { id: number; name: string }[];
  chosen: number | string | null | undefined;
  all?: string;
  allLabel?: string;
  label?: string;
  className?: string;
}) {
  if (branches.length < 2) return null;
  return <FilterSelect name="branch" label={label} value={chosen} any={allLabel} anyValue={all} controlClassName={className} options={branches.map((b) => [b.id, b.name] as const)} />;
}

import type { BranchService } from "../../../server/modules/branches/schema.ts";

/** Day 1 … 7 of a branch's hours (as server/modules/branches/hours.ts numbers them), kept here so pages need none of its rules. */
export const WEEKDAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;

/** What each service is called on the storefront. */
export const SERVICE_LABELS: Record<BranchService, string> = {
  collect: "Click & collect",
  trade_counter: "Trade counter",
  hire: "Hire depot",
  showroom: "Kitchen and bathroom showroom",
};

/** "4.2 miles", "0.3 miles", "1 mile". */
export const milesLabel = (miles: number) => `${miles === 1 ? "1 mile" : `${miles.toLocaleString("en-GB", { maximumFractionDigits: 1 })} miles`}`;

/** A branch's services as small labels. */
export function ServiceChips({ services, label }: { services: readonly BranchService[]; label?: string }) {
  return (
    <ul className="flex flex-wrap gap-2" aria-label={label}>
      {services.map((s) => (
        <li key={s} className="rounded-full bg-stone-100 px-3 py-1 text-sm text-stone-800">
          {SERVICE_LABELS[s]}
        </li>
      ))}
    </ul>
  );
}

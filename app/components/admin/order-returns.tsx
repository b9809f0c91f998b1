import { Link } from "react-router";
import type { ReturnSummary } from "../../../server/modules/returns/desk.ts";
import { formatDate } from "../../lib/admin/format.ts";
import { returnHref } from "../../lib/admin/returns.ts";
import { RefundDue } from "./refund-due.tsx";
import { StatusBadge } from "./status-badge.tsx";

/** An order's returns on its page on the orders desk, each a link to the returns desk. */
export function OrderReturns({ returns }: { returns: ReturnSummary[] }) {
  return (
    <section aria-labelledby="returns-heading" className="rounded-lg border border-stone-200 bg-white p-4 text-sm" data-testid="order-returns">
      <h2 id="returns-heading" className="mb-2 text-lg font-bold">
        Returns
      </h2>
      {returns.length === 0 ? (
        <p className="text-stone-600">Nothing from this order has been asked back.</p>
      ) : (
        <ul className="divide-y divide-stone-100">
          {returns.map((r) => (
            <li key={r.number} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
              <Link to={returnHref(r.number)} className="link font-semibold">
                {r.number}
              </Link>
              <StatusBadge status={r.status} label={r.status_label} />
              <span className="text-stone-700">
                {r.units} {r.units === 1 ? "unit" : "units"}, asked on {formatDate(r.created_at)}
              </span>
              <RefundDue days={r.refund_days_left} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

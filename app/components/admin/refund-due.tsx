import { refundDue } from "../../lib/admin/returns.ts";

/**
 * A received return's days left to refund (14 from receipt, by law), or how
 * long overdue, in red; nothing for a return not waiting on a refund.
 */
export function RefundDue({ days, className = "" }: { days: number | null; className?: string }) {
  if (days === null) return null;
  const due = refundDue(days);
  return <span className={`font-semibold ${due.overdue ? "text-red-700" : days <= 3 ? "text-amber-800" : "text-stone-800"} ${className}`}>{due.text}</span>;
}

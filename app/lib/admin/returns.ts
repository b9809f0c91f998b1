// The returns desk's plain logic (no React, no database): where its lists
// are, how the days left to refund read, how a refund goes back, and the
// pounds the refund form takes. Unit-tested in returns.test.ts beside it.
import type { ReturnStatus } from "../../../server/modules/returns/statuses.ts";

/** The returns list with these filters: the dashboard's figures and the order page's links open it. */
export function returnsHref(filters: { status?: ReturnStatus; overdue?: boolean; q?: string } = {}): string {
  const query = new URLSearchParams();
  if (filters.status) query.set("status", filters.status);
  if (filters.overdue) query.set("overdue", "1");
  if (filters.q) query.set("q", filters.q);
  const text = query.toString();
  return text ? `/admin/returns?${text}` : "/admin/returns";
}

export const returnHref = (number: string) => `/admin/returns/${number}`;

const days = (n: number) => `${n} ${n === 1 ? "day" : "days"}`;

/**
 * The 14 days the law gives to refund after the goods are back (Consumer
 * Contracts Regulations reg. 34(6)), as the desk says them: days left, due
 * today, or overdue (shown in red).
 */
export function refundDue(daysLeft: number): { text: string; overdue: boolean } {
  if (daysLeft < 0) return { text: `Overdue by ${days(-daysLeft)}`, overdue: true };
  if (daysLeft === 0) return { text: "Refund due today", overdue: false };
  return { text: `${days(daysLeft)} left to refund`, overdue: false };
}

/** How a return's refund goes back, from how the order was paid: the desk's refund form says it before the member presses. */
export function refundRoute(paymentMethod: string, paymentLabel: string): string {
  if (paymentMethod === "card") return "To the card the customer paid with, through the payment service.";
  if (paymentMethod === "pay_on_account") return "As a credit note on the company's trade account, for the goods back as invoiced.";
  return `By hand: the customer paid by ${paymentLabel.toLowerCase()}, so pay it back the same way, then record it here.`;
}

/**
 * Pounds as typed (`12.50`, `£1,012.5`, blank) to whole pence, or null when
 * blank, or NaN when it is not an amount of pounds and pence.
 */
export function penceOf(typed: string): number | null {
  const clean = typed.replace(/[£,\s]/g, "");
  if (clean === "") return null;
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(clean)) return Number.NaN;
  const [whole, fraction = ""] = clean.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}

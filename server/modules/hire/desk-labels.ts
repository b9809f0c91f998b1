/**
 * The hire desk's words for hire request states and planner bars: a plain
 * module (no database, no zod), so the back office's screens may import it.
 */
import { labelledList } from "../../lib/labelled.ts";

export const { values: HIRE_REQUEST_STATUSES, labels: HIRE_STATUS_LABELS, is: isHireRequestState, label: hireStatusLabel } = labelledList({
  pending: "Waiting",
  confirmed: "Approved",
  declined: "Declined",
  lapsed: "Lapsed",
  out: "Out on hire",
  off_hired: "Off-hired",
  returned: "Returned",
  completed: "Completed",
});
export type HireRequestState = (typeof HIRE_REQUEST_STATUSES)[number];

/** The request's page, built by the hire desk's operations. */
export const hireRequestHref = (number: string): string => `/admin/hire/requests/${encodeURIComponent(number)}`;

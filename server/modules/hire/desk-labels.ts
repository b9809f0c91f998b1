/**
 * The hire desk's words for hire request states and planner bars: a plain
 * module (no database, no zod), so the back office's screens may import it.
 */
export const HIRE_REQUEST_STATUSES = ["pending", "confirmed", "declined", "lapsed", "out", "off_hired", "returned", "completed"] as const;
export type HireRequestState = (typeof HIRE_REQUEST_STATUSES)[number];

export const HIRE_STATUS_LABELS: Record<HireRequestState, string> = {
  pending: "Waiting",
  confirmed: "Approved",
  declined: "Declined",
  lapsed: "Lapsed",
  out: "Out on hire",
  off_hired: "Off-hired",
  returned: "Returned",
  completed: "Completed",
};

export const isHireRequestState = (value: unknown): value is HireRequestState => typeof value === "string" && (HIRE_REQUEST_STATUSES as readonly string[]).includes(value);

export const hireStatusLabel = (status: string): string => (isHireRequestState(status) ? HIRE_STATUS_LABELS[status] : status);

/** The request's page, built by the hire desk's operations. */
export const hireRequestHref = (number: string): string => `/admin/hire/requests/${encodeURIComponent(number)}`;

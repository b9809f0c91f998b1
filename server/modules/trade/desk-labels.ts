/**
 * The trade desk's words and choices: a plain module (no database, no zod),
 * so the back office's screens may import it.
 */
export const ACCOUNT_SORTS = ["overdue", "name", "balance"] as const;
export type AccountSort = (typeof ACCOUNT_SORTS)[number];
export const ACCOUNT_SORT_LABELS: Record<AccountSort, string> = { overdue: "Most overdue", name: "Name", balance: "Balance" };

export const ACCOUNT_STATE_LABELS = { pending: "Application waiting", approved: "Approved", declined: "Declined", suspended: "Suspended" } as const;
export const HOLD_LABELS = { "": "", overdue: "On hold: overdue", manual: "On hold" } as const;
export const PAYMENT_METHOD_LABELS = { bacs: "Bank transfer (BACS)", cheque: "Cheque", card: "Card", cash: "Cash" } as const;
export const INVOICE_STATUS_LABELS = { unpaid: "Unpaid", payment_pending: "Payment on its way", paid: "Paid" } as const;

export const isAccountSort = (value: unknown): value is AccountSort => typeof value === "string" && (ACCOUNT_SORTS as readonly string[]).includes(value);

/** An account's page in the back office. */
export const tradeAccountHref = (id: number): string => `/admin/trade/accounts/${id}`;

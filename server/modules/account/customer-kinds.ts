// The customers desk's sorts and kinds of customer (issue 34): plain data, so
// the back office's screens import them without the database schema.
export const CUSTOMER_SORTS = ["newest", "spent", "last_order"] as const;
export type CustomerSort = (typeof CUSTOMER_SORTS)[number];
export type CustomerKind = "guest" | "registered" | "trade";

export const CUSTOMER_SORT_LABELS: Record<CustomerSort, string> = { newest: "Newest account", spent: "Most spent", last_order: "Latest order" };
export const CUSTOMER_KIND_LABELS: Record<CustomerKind, string> = { guest: "Guest", registered: "Account", trade: "Trade" };

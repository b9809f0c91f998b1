/**
 * Who on the staff may do what: the one table every admin route, screen and
 * service reads (ADR 0029). A role is a fixed set of permissions; nothing else
 * grants one. To change what a role may do, change this table and its test.
 */
export const STAFF_ROLES = ["owner", "manager", "sales", "warehouse", "hire", "accounts"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const PERMISSIONS = [
  /** The dashboard's figures. */
  "dashboard.view",
  /** Orders: the list and an order's page. Without `orders.prices` and `customers.view` both are redacted to what picking needs. */
  "orders.view",
  /** An order's prices, totals and payment. */
  "orders.prices",
  /** Bank transfer received: awaiting payment → paid. */
  "orders.mark_paid",
  /** Picking, dispatch and collection: processing, dispatched, ready for collection, completed. */
  "orders.fulfil",
  "orders.cancel",
  /** A note on an order's timeline. */
  "orders.note",
  /** CSV of the filtered order list. */
  "orders.export",
  /** Take an order for a phone or walk-in customer, and keep drafts of them; a price change only within the role's limit (PRICE_CHANGE_LIMITS). */
  "orders.create",
  /** Customers' names, emails, phones, billing addresses and accounts. */
  "customers.view",
  /** Send a password reset link, block and unblock a customer. */
  "customers.manage",
  /** Edit a registered customer's name, phone, email, address book and the staff note (issue 34). */
  "customers.edit",
  /** Returns: the desk's list and a return's page. */
  "returns.view",
  /** Approve or reject a return, send a replacement, close one. */
  "returns.approve",
  /** Book a return's goods in: back in stock, or written off as damaged. */
  "returns.receive",
  /** Refunds; a `sales` member only up to the limit an owner sets. */
  "refunds.create",
  "trade.manage",
  "invoices.manage",
  "hire.desk",
  /** Stock: receive deliveries, count, adjust with a reason, and set a product's reorder level. */
  "stock.count",
  /** The catalogue in the back office, read only: products, their stock and history, the CSV export. */
  "catalogue.view",
  /** Create and edit products, categories, brands, hire items, photos and prices; import CSV. */
  "catalogue.manage",
  "audit.view",
  /** The branches: add one, edit its details, hours and services, make it the default, close it. */
  "branches.manage",
  /** Showroom appointments: the day's list per showroom, and cancelling one for the customer. */
  "appointments.manage",
  /** Promotions: the list, a promotion's page, its preview and its report of uses. */
  "promotions.view",
  /** Create, edit, pause and end discount codes and multi-buys. */
  "promotions.manage",
  /** Quotes: the desk's list, a quote's page and its PDF. */
  "quotes.view",
  /** Start, price, change, send and decline quotes, down to the floor (quotes/price-floor.ts). */
  "quotes.manage",
  /** Price a quote's line below the floor: a manager's say. */
  "quotes.below_floor",
  "staff.manage",
  "tokens.manage",
  "settings.manage",
  /** The shop's backups: the list, and the latest one downloaded (every customer's data in one file: the owner's alone). */
  "backups.download",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const EVERYTHING = PERMISSIONS;
const STAFF_AND_SETTINGS: Permission[] = ["staff.manage", "tokens.manage", "settings.manage", "backups.download"];

export const ROLE_PERMISSIONS: Record<StaffRole, readonly Permission[]> = {
  owner: EVERYTHING,
  manager: EVERYTHING.filter((p) => !STAFF_AND_SETTINGS.includes(p)),
  sales: ["dashboard.view", "orders.view", "orders.prices", "orders.mark_paid", "orders.create", "orders.fulfil", "orders.cancel", "orders.note", "orders.export", "customers.view", "customers.manage", "customers.edit", "returns.view", "returns.approve", "returns.receive", "refunds.create", "catalogue.view", "appointments.manage", "promotions.view", "quotes.view", "quotes.manage"],
  warehouse: ["dashboard.view", "orders.view", "orders.fulfil", "orders.note", "returns.view", "returns.receive", "stock.count", "catalogue.view"],
  hire: ["dashboard.view", "hire.desk"],
  accounts: ["dashboard.view", "orders.view", "orders.prices", "orders.mark_paid", "orders.note", "orders.export", "customers.view", "customers.edit", "returns.view", "returns.approve", "refunds.create", "trade.manage", "invoices.manage", "catalogue.view", "promotions.view", "quotes.view"],
};

/**
 * How far below the customer's own price (list, or their trade price) a member
 * may sell a line at the counter, in percent off; null: no limit. Counter
 * staff (sales) a small goodwill discount; roles that do not sell, none.
 */
export const PRICE_CHANGE_LIMITS: Record<StaffRole, number | null> = {
  owner: null,
  manager: null,
  sales: 10,
  warehouse: 0,
  hire: 0,
  accounts: 0,
};

export const ROLE_LABELS: Record<StaffRole, string> = {
  owner: "Owner",
  manager: "Manager",
  sales: "Sales",
  warehouse: "Warehouse",
  hire: "Hire desk",
  accounts: "Accounts",
};

export function can(role: StaffRole, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === "string" && (STAFF_ROLES as readonly string[]).includes(value);
}

import type { Permission, StaffRole } from "../../../server/modules/staff/permissions.ts";
import { can } from "../../../server/modules/staff/permissions.ts";

export interface NavItem {
  to: string;
  label: string;
  permission: Permission;
  /** Another permission that also opens it (the hire catalogue: the hire desk reads it too). */
  orPermission?: Permission;
}

/** The back office's menu: each item shows only to the roles that may open it. */
export const ADMIN_NAV: readonly NavItem[] = [
  { to: "/admin", label: "Dashboard", permission: "dashboard.view" },
  { to: "/admin/orders", label: "Orders", permission: "orders.view" },
  { to: "/admin/returns", label: "Returns", permission: "returns.view" },
  { to: "/admin/promotions", label: "Promotions", permission: "promotions.view" },
  { to: "/admin/quotes", label: "Quotes", permission: "quotes.view" },
  { to: "/admin/customers", label: "Customers", permission: "customers.view" },
  { to: "/admin/products", label: "Products", permission: "catalogue.view" },
  { to: "/admin/categories", label: "Categories and brands", permission: "catalogue.view" },
  { to: "/admin/redirects", label: "Redirects", permission: "catalogue.view" },
  { to: "/admin/hire", label: "Hire desk", permission: "hire.desk" },
  { to: "/admin/trade", label: "Trade accounts", permission: "trade.manage", orPermission: "invoices.manage" },
  { to: "/admin/hire/items", label: "Hire catalogue", permission: "catalogue.view", orPermission: "hire.desk" },
  { to: "/admin/trade/aged-debt", label: "Aged debt", permission: "invoices.manage" },
  { to: "/admin/stock", label: "Stock", permission: "stock.count" },
  { to: "/admin/branches", label: "Branches", permission: "branches.manage" },
  { to: "/admin/appointments", label: "Showroom appointments", permission: "appointments.manage" },
  { to: "/admin/audit", label: "Audit log", permission: "audit.view" },
  { to: "/admin/staff", label: "Staff", permission: "staff.manage" },
  { to: "/admin/staff/tokens", label: "API tokens", permission: "tokens.manage" },
  { to: "/admin/backups", label: "Backups", permission: "backups.download" },
];

export function navFor(role: StaffRole): NavItem[] {
  return ADMIN_NAV.filter((item) => can(role, item.permission) || (item.orPermission !== undefined && can(role, item.orPermission)));
}

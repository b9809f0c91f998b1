/** The back office's pages: everything under /admin (ADR 0029). */
export function isBackOffice(pathname: string): boolean {
  return pathname === "/admin" || pathname.startsWith("/admin/") || pathname.startsWith("/admin.");
}

/** Pages drawn without the storefront's frame: the back office, and the test payment page (a stand-in for Stripe's own). */
export function isFramelessPage(pathname: string): boolean {
  return isBackOffice(pathname) || pathname.startsWith("/payments/test/");
}

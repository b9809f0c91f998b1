/** The back office's pages: everything under /admin (ADR 0029). */
export function isBackOffice(pathname: string): boolean {
  return pathname === "/admin" || pathname.startsWith("/admin/") || pathname.startsWith("/admin.");
}

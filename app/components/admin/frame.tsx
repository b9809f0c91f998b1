import type { ReactNode } from "react";
import { Form, NavLink, useLocation } from "react-router";
import type { NavItem } from "../../lib/admin/nav.ts";

export interface FrameStaff {
  name: string;
  email: string;
  role_label: string;
}

/**
 * The back office's frame: a bar with the shop's name and who is signed in,
 * the menu of what this role may open (a column on a desktop, behind a Menu
 * button on a tablet or phone), and the page.
 */
export function AdminFrame({ appName, staff, nav, children }: { appName: string; staff: FrameStaff; nav: NavItem[]; children: ReactNode }) {
  const { pathname } = useLocation();
  // The screen the member is on, named on the phone's menu button: the longest menu entry its address starts with.
  const current = [...nav].sort((a, b) => b.to.length - a.to.length).find((item) => pathname === item.to || pathname.startsWith(`${item.to}/`));
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="bg-brand-900 text-white">
        <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-2 sm:px-6">
          <p className="font-bold">
            {appName} <span className="font-normal text-brand-100">back office</span>
          </p>
          <div className="flex items-center gap-3 text-sm">
            <NavLink to="/admin/account" className="underline-offset-2 hover:underline" data-testid="admin-signed-in-as">
              {staff.name} <span className="text-brand-100">({staff.role_label})</span>
            </NavLink>
            <Form method="post" action="/admin/logout">
              <button type="submit" className="min-h-9 rounded border border-white/50 px-3 py-1 font-semibold hover:bg-white/10">
                Sign out
              </button>
            </Form>
          </div>
        </div>
      </header>
      <div className="flex flex-1 flex-col lg:flex-row">
        {/* A phone or tablet: the menu behind a button, so the page starts at the top (issue 34); a desktop: a column. */}
        <details className="group border-b border-stone-200 bg-white lg:hidden">
          <summary className="flex min-h-11 cursor-pointer list-none items-center gap-2 px-4 font-semibold text-stone-800 [&::-webkit-details-marker]:hidden">
            <span aria-hidden="true" className="text-lg leading-none">
              ☰
            </span>
            Menu
            {current ? <span className="font-normal text-stone-600">· {current.label}</span> : null}
          </summary>
          <nav aria-label="Back office" className="border-t border-stone-100">
            <NavList nav={nav} className="grid grid-cols-2 gap-1 px-2 py-2 sm:grid-cols-3" />
          </nav>
        </details>
        <nav aria-label="Back office" className="hidden border-r border-stone-200 bg-white lg:block lg:w-56 lg:shrink-0">
          <NavList nav={nav} className="flex flex-col gap-1 px-3 py-4" />
        </nav>
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 px-4 py-5 sm:px-6 lg:py-6">
          {children}
        </main>
      </div>
    </div>
  );
}

/** The menu's links; choosing one closes the phone's menu. */
function NavList({ nav, className }: { nav: NavItem[]; className: string }) {
  return (
    <ul className={className} onClick={(e) => (e.target as HTMLElement).closest("a") && e.currentTarget.closest("details")?.removeAttribute("open")}>
      {nav.map((item) => (
        <li key={item.to}>
          <NavLink
            to={item.to}
            end={item.to === "/admin" || item.to === "/admin/staff" || item.to === "/admin/hire"}
            className={({ isActive }) => `block rounded px-3 py-2 font-semibold ${isActive ? "bg-brand-50 text-brand-900" : "text-stone-700 hover:bg-stone-100 hover:text-stone-900"}`}
          >
            {item.label}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

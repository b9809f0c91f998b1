import { useEffect } from "react";
import { Link } from "react-router";
import { ChevronDownIcon, UserIcon } from "./icons.tsx";
import { SignOutButton } from "./sign-out-button.tsx";
import { LinkItems } from "./link-items.tsx";
import { useMenuDetails } from "./menu-details.ts";

export const accountLinks = [
  { to: "/account", label: "Your account" },
  { to: "/account/orders/history", label: "Orders" },
  { to: "/account/quotes", label: "Quotes" },
  { to: "/account/wishlist", label: "Wishlist" },
  { to: "/account/addresses", label: "Addresses" },
  { to: "/account/manage", label: "Your details" },
];

/**
 * The header's account entry for a signed-in user: a link to the account that
 * shows the first name, and a menu (a native disclosure: touch, keyboard, no
 * scripts needed to open it) with the account's pages and "Sign out".
 */
export function AccountMenu({ firstname }: { firstname: string }) {
  const details = useMenuDetails();
  const menu = details.ref;

  // Closes on a click elsewhere too.
  useEffect(() => {
    function onPointerDown(event: PointerEvent) {
      if (menu.current?.open && !menu.current.contains(event.target as Node)) menu.current.open = false;
    }
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [menu]); // the ref itself never changes: this runs once

  return (
    <div className="flex items-center">
      {/* Phones: the name sits under the icon; the menu's entries live in the page's Menu instead. */}
      <Link
        to="/account"
        aria-label={`Your account: ${firstname}`}
        className="inline-flex min-h-11 min-w-11 flex-col items-center justify-center rounded-md px-1 hover:bg-white/10 sm:flex-row sm:gap-1 sm:px-2"
      >
        <UserIcon />
        <span className="max-w-16 truncate text-xs font-medium leading-tight sm:max-w-32 sm:text-sm">{firstname}</span>
      </Link>
      <details {...details} className="relative hidden sm:block">
        <summary aria-label="Account menu" className="flex min-h-11 min-w-11 cursor-pointer list-none items-center justify-center rounded-md hover:bg-white/10">
          <ChevronDownIcon className="size-5" />
        </summary>
        <div className="absolute right-0 top-full z-40 mt-2 w-60 rounded-md bg-white py-2 text-stone-900 shadow-lg ring-1 ring-black/10">
          <nav aria-label="Account">
            <ul>
              <LinkItems links={accountLinks} className="flex min-h-11 items-center px-4 hover:bg-stone-100" />
            </ul>
          </nav>
          <div className="mt-2 border-t border-stone-200 px-4 pt-3 pb-1">
            <SignOutButton className="btn-secondary w-full" />
          </div>
        </div>
      </details>
    </div>
  );
}

import { memo } from "react";
import { Form, Link, NavLink } from "react-router";
import type { RootData } from "../lib/root-data.ts";
import { AccountMenu, accountLinks } from "./account-menu.tsx";
import { TradeBar } from "./trade/trade-bar.tsx";
import { MiniBasket } from "./basket/mini-basket.tsx";
import { CountButton } from "./count-button.tsx";
import { CompareLink } from "./compare/compare-link.tsx";
import { SignOutButton } from "./sign-out-button.tsx";
import { useBasket } from "../lib/basket.ts";
import { useHireBasket } from "../lib/hire-basket.ts";
import { usePageUser } from "../lib/use-session.ts";
import { ChevronDownIcon, HireIcon, MenuIcon, SearchIcon, UserIcon } from "./icons.tsx";
import { LinkItems, categoryLink } from "./link-items.tsx";
import { useMenuDetails } from "./menu-details.ts";

const sectionLinks = [
  { to: "/hire", label: "Hire" },
  { to: "/trade/dashboard", label: "Trade" },
  { to: "/kitchens-and-bathrooms", label: "Kitchens & Bathrooms" },
];

function SearchBox({ id, placeholder }: { id: string; placeholder: string }) {
  return (
    <Form method="get" action="/search" role="search" className="flex w-full">
      <label htmlFor={id} className="sr-only">
        Search products
      </label>
      <input
        id={id}
        name="q"
        type="search"
        placeholder={placeholder}
        autoComplete="off"
        maxLength={200}
        className="min-h-11 w-full min-w-0 rounded-l-md border-0 bg-white px-3 text-stone-900 placeholder:text-stone-500"
      />
      <button type="submit" className="inline-flex min-h-11 items-center rounded-r-md bg-accent-400 px-4 text-stone-900 hover:bg-accent-500">
        <SearchIcon />
        <span className="sr-only">Search</span>
      </button>
    </Form>
  );
}

type HeaderCategory = RootData["categories"][number];
type HeaderUser = RootData["user"];

export function SiteHeader({ data }: { data: RootData | undefined }) {
  const appName = data?.config.appName ?? "Tradecounter";
  const categories = data?.categories ?? NO_CATEGORIES;
  const user = usePageUser();

  // The header holds some fifty links. What changes after the page loads (the
  // basket counts, the location) lives in the small parts below, so a basket
  // arriving re-renders a count, not every link.
  return (
    <header className="bg-brand-800 text-white">
      <div className="container-page flex items-center gap-3 py-3 sm:gap-6">
        <Link to="/" className="shrink-0 text-xl font-extrabold tracking-tight sm:text-2xl">
          {appName}
        </Link>
        <div className="hidden flex-1 md:block">
          <SearchBox id="search-desktop" placeholder="Search products, brands and codes" />
        </div>
        <nav aria-label="Your shop" className="ml-auto flex items-center gap-1 sm:gap-2">
          <CompareLink />
          {user ? (
            <AccountMenu firstname={user.firstname || user.name} />
          ) : (
            <Link to="/auth/login" className="inline-flex min-h-11 min-w-11 items-center justify-center gap-1 rounded-md px-2 hover:bg-white/10">
              <UserIcon />
              <span className="hidden text-sm font-medium lg:inline">Sign in</span>
              <span className="sr-only lg:hidden">Sign in</span>
            </Link>
          )}
          {data ? <HeaderBaskets data={data} /> : null}
        </nav>
      </div>
      <div className="container-page pb-3 md:hidden">
        <SearchBox id="search-mobile" placeholder="Search products and brands" />
      </div>
      {data?.priceDisplay.trade ? <TradeBar display={data.priceDisplay} /> : null}
      <div className="border-t border-white/10 bg-brand-900">
        <div className="container-page">
          <MobileMenu categories={categories} user={user} />
          <CategoryNav categories={categories} />
        </div>
      </div>
    </header>
  );
}

const NO_CATEGORIES: HeaderCategory[] = [];

/** The hire basket and basket counts, filled in the browser from the API: the server's HTML shows 0. */
function HeaderBaskets({ data }: { data: RootData }) {
  const userId = usePageUser()?.id ?? null;
  const hireCount = useHireBasket(Boolean(data.config.hireBasketEnabled), userId).cart?.itemCount ?? 0;
  // Fetched again on sign-in and sign-out; the mini-basket lists it.
  const basket = useBasket(Boolean(data.config.basketEnabled), userId);
  return (
    <>
      {data.config.hireBasketEnabled ? <CountButton to="/hire-basket" label="Hire basket" count={hireCount} icon={<HireIcon />} /> : null}
      {data.config.basketEnabled ? <MiniBasket cart={basket.cart} error={basket.error} /> : null}
    </>
  );
}

/** Phones: a native disclosure works by touch, keyboard and without scripts. */
const MobileMenu = memo(function MobileMenu({ categories, user }: { categories: HeaderCategory[]; user: HeaderUser }) {
  // The menu closes after a navigation and on Escape.
  const menu = useMenuDetails();

  return (
    <details {...menu} className="group md:hidden">
      <summary className="flex min-h-11 cursor-pointer list-none items-center gap-2 font-semibold">
        <MenuIcon /> Menu
        <ChevronDownIcon className="size-5 group-open:rotate-180" />
      </summary>
      <nav aria-label="Main" className="pb-4">
        <ul className="grid gap-1">
          <LinkItems links={sectionLinks} className="block rounded px-2 py-2.5 font-semibold hover:bg-white/10" />
          <li className="mt-2 border-t border-white/10 px-2 pt-3 text-sm uppercase tracking-wide text-white/70">Shop by category</li>
          <LinkItems links={categories.map(categoryLink)} className="block rounded px-2 py-2.5 hover:bg-white/10" />
          <li>
            <Link to="/category" className="block rounded px-2 py-2.5 underline hover:bg-white/10">
              All categories
            </Link>
          </li>
          {user ? (
            <>
              <li className="mt-2 border-t border-white/10 px-2 pt-3 text-sm uppercase tracking-wide text-white/70">Signed in as {user.firstname || user.name}</li>
              <LinkItems links={accountLinks} className="block rounded px-2 py-2.5 hover:bg-white/10" />
              <li className="px-2 pt-2">
                <SignOutButton className="btn border border-white/40 text-white hover:bg-white/10" />
              </li>
            </>
          ) : null}
        </ul>
      </nav>
    </details>
  );
});

/**
 * Tablets and desktops: the sections and top-level categories in a row that
 * scrolls, its right edge fading so it shows there is more rather than
 * cutting a name (issue 34), with room at the end so the last name scrolls
 * clear of the fade. One row: a second would sit under the account menu.
 */
const CategoryNav = memo(function CategoryNav({ categories }: { categories: HeaderCategory[] }) {
  return (
    <nav aria-label="Categories" className="hidden md:block">
      <ul className="flex items-center overflow-x-auto whitespace-nowrap pr-12 text-sm font-medium [mask-image:linear-gradient(to_right,black_calc(100%-3rem),transparent)] [scrollbar-width:thin]">
        {sectionLinks.map((l) => (
          <li key={l.to}>
            <NavLink to={l.to} className="block rounded px-2.5 py-3 font-semibold text-accent-400 hover:bg-white/10">
              {l.label}
            </NavLink>
          </li>
        ))}
        <li aria-hidden="true" className="mx-1 h-5 w-px bg-white/20" />
        {categories.map((c) => (
          <li key={c.path}>
            <NavLink to={`/category/${c.path}`} className={({ isActive }) => `block rounded px-2.5 py-3 xl:px-3 hover:bg-white/10 ${isActive ? "bg-white/10" : ""}`}>
              {c.name}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
});

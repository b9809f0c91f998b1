import { Outlet, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/storefront";
import { CompareMessages } from "../components/compare/compare-messages.tsx";
import { ErrorPage } from "../components/error-page.tsx";
import { SiteFooter } from "../components/site-footer.tsx";
import { SiteHeader } from "../components/site-header.tsx";
// Registers the wishlist with the session: it is fetched whenever a user comes back (section 4).
import "../components/wishlist/use-wishlist.ts";
import type { RootData } from "../lib/root-data.ts";

/**
 * The storefront's frame: header, main, footer and the compare bar, around
 * every page but the back office's and the test payment page. A layout route
 * of its own (not the root's), so the back office never loads the header's
 * menus, search and basket (ADR 0066); it changes no URL.
 */
function StorefrontFrame({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<RootData>("root");
  return (
    <>
      <SiteHeader data={data} />
      <main id="main" className="container-page flex-1 py-6 sm:py-10" tabIndex={-1}>
        {children}
      </main>
      <SiteFooter data={data} />
      <CompareMessages />
    </>
  );
}

export default function Storefront() {
  return (
    <StorefrontFrame>
      <Outlet />
    </StorefrontFrame>
  );
}

/** A storefront page's error (a 404, a failed loader) keeps the shop's header and footer around it. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <StorefrontFrame>
      <ErrorPage error={error} />
    </StorefrontFrame>
  );
}

import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  redirect,
  Scripts,
  ScrollRestoration,
  type ShouldRevalidateFunctionArgs,
  useLocation,
  useRouteLoaderData,
} from "react-router";
import { appContext } from "#app-context";
import type { Route } from "./+types/root";
import appCss from "./app.css?url";
import { ErrorPage } from "./components/error-page.tsx";
import { RouteFocus } from "./components/route-focus.tsx";
import { browserApi, rememberApiBaseUrl } from "./lib/browser-api.ts";
import { appNameFrom } from "./lib/meta.ts";
import { useNewBuildReload } from "./lib/new-build.ts";
import type { RootData } from "./lib/root-data.ts";
import { useSessionSync } from "./lib/use-session.ts";
import { isBackOffice, isFramelessPage } from "./lib/back-office.ts";

/**
 * The stylesheet as a React resource (`precedence`): React then writes it
 * first in the head, ahead of the scripts' modulepreload links. As a plain
 * link it came after some thirty of them, and over HTTP/1.1's six connections
 * per host the one file the first paint waits for queued behind them.
 */
export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: appCss, precedence: "high" }];

export async function loader({ context, request }: Route.LoaderArgs): Promise<RootData> {
  const app = context.get(appContext);
  // The back office has no storefront header: its pages skip the category tree.
  const pathname = new URL(request.url).pathname;
  const admin = isBackOffice(pathname);
  const tree = isFramelessPage(pathname) ? [] : await app.categoryTree();
  return {
    config: app.config,
    nonce: app.nonce,
    buildId: app.buildId,
    // A shared page (ADR 0043) is the same for everyone with its price view: the browser fills in who is signed in.
    shared: app.sharedPage,
    // A personal page's frame (ADR 0061) is for a signed-in customer it does not name.
    signedIn: app.signedIn,
    // Only what the header and greetings need: the page stays lean.
    user: app.user ? { id: app.user.id, firstname: app.user.firstname, lastname: app.user.lastname, name: app.user.name, email: app.user.email } : null,
    // Trade members see trade prices, ex VAT unless they chose inc VAT.
    priceDisplay: app.priceDisplay,
    // The header shows the top two levels; deeper levels live on category pages.
    categories: tree.map((c) => ({ name: c.name, path: c.path, children: c.children.map((s) => ({ name: s.name, path: s.path })) })),
    admin,
  };
}

// The header's data barely changes: don't fetch it again on every navigation.
// It is fetched again after a write (sign-in, sign-out, a changed name) and when
// the page asks for it (revalidate(): the session found the page stale).
export function shouldRevalidate({ formMethod, currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formMethod !== undefined && formMethod.toUpperCase() !== "GET") return defaultShouldRevalidate;
  if (formMethod === undefined && currentUrl.href === nextUrl.href) return defaultShouldRevalidate;
  return false;
}

/**
 * Sign out, from any page: a form posted to "/" lands here (the root route).
 * The API revokes the token and clears its cookie; the redirect reloads every
 * loader, so the user disappears from the whole page.
 */
export async function clientAction({ request }: Route.ClientActionArgs) {
  const form = await request.formData();
  if (form.get("intent") !== "sign-out") throw new Response("Unknown action", { status: 400 });
  try {
    await browserApi().post("/api/auth/logout");
  } catch {
    // Already signed out (401) or unreachable: the reload below shows which.
  }
  return redirect("/");
}

export function meta({ error, matches }: Route.MetaArgs) {
  const appName = appNameFrom(matches);
  if (error) {
    const status = isRouteErrorResponse(error) ? error.status : 500;
    return [{ title: `Error ${status} | ${appName}` }];
  }
  return [{ title: appName }];
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<RootData>("root");
  const nonce = data?.nonce;
  // The storefront's frame is its layout route's (routes/storefront.tsx, ADR 0066); the back office
  // (ADR 0029) draws its own, and so does the test payment page, a stand-in for Stripe's own page.
  const admin = isFramelessPage(useLocation().pathname);
  return (
    <html lang="en-GB">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {admin ? <meta name="robots" content="noindex, nofollow" /> : <meta name="theme-color" content="#17326f" />}
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <Links />
      </head>
      <body className={admin ? "min-h-dvh bg-stone-100" : "flex min-h-dvh flex-col"}>
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2">
          Skip to content
        </a>
        {children}
        <RouteFocus />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  rememberApiBaseUrl(loaderData.config.apiBaseUrl);
  useNewBuildReload(loaderData.buildId, loaderData.config.apiBaseUrl);
  useSessionSync(loaderData, loaderData.config.apiBaseUrl);
  return <Outlet />;
}

/**
 * An error no frame caught: in the back office, on the test payment page, or in
 * the storefront's frame itself (its own errors it draws inside it).
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <main id="main" tabIndex={-1} className="container-page">
      <ErrorPage error={error} />
    </main>
  );
}

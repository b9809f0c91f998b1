import { useEffect } from "react";
import { isRouteErrorResponse, useLocation, useNavigate } from "react-router";
import { isBackOffice } from "../lib/back-office.ts";
import { browserReloadDeps, isChunkLoadError, reloadOnce } from "../lib/new-build.ts";

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  410: "Gone",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

/**
 * The error page of the specification: status code, status message, message,
 * and "Go back home" (in the back office, back to its dashboard). Drawn by the
 * storefront's frame for its pages and by the root for the rest.
 */
export function ErrorPage({ error }: { error: unknown }) {
  const location = useLocation();
  const navigate = useNavigate();
  let status = 500;
  let statusText = STATUS_TEXT[500]!;
  let message = "Something went wrong on our side. Please try again in a moment.";
  if (isRouteErrorResponse(error)) {
    status = error.status;
    statusText = error.statusText || STATUS_TEXT[status] || "Error";
    message = status === 404 ? `Page Not Found: ${location.pathname}` : typeof error.data === "string" && error.data ? error.data : statusText;
  }

  // A page of an older build asked for a chunk the new build no longer has: load the new build once.
  useEffect(() => {
    if (isChunkLoadError(error)) reloadOnce(browserReloadDeps());
  }, [error]);

  const admin = isBackOffice(location.pathname);
  const home = admin ? "/admin" : "/";
  return (
    <section aria-labelledby="error-title" className="mx-auto max-w-xl py-10 text-center">
      <p className="text-7xl font-black tracking-tight text-brand-700" aria-hidden="true">
        {status}
      </p>
      <h1 id="error-title" className="mt-2 text-2xl font-bold">
        <span className="sr-only">Error {status}: </span>
        {statusText}
      </h1>
      <p className="mt-4 break-words text-stone-700" data-testid="error-message">
        {message}
      </p>
      {/* A real form so the button works before the page's scripts load. */}
      <form
        action={home}
        method="get"
        className="mt-8"
        onSubmit={(event) => {
          event.preventDefault();
          navigate(home);
        }}
      >
        <button type="submit" className="btn-primary">
          {admin ? "Back to the back office" : "Go back home"}
        </button>
      </form>
    </section>
  );
}

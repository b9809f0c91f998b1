import { isRouteErrorResponse, useLocation, useRevalidator } from "react-router";
import { withoutScriptsHref } from "../lib/personal-data.ts";

/**
 * What a personal page's frame shows until its data arrives (ADR 0061): grey
 * blocks the size of what comes, so nothing below moves when it does, and a
 * status that a screen reader announces once.
 */
export function LoadingBlocks({ label, blocks, height = "h-24", withoutScripts }: { label: string; blocks: number; height?: string; withoutScripts: string }) {
  const { search } = useLocation();
  return (
    <div aria-busy="true">
      <p role="status" className="sr-only">
        {label}
      </p>
      {/* Nothing fills the frame in without scripts: the same page, rendered on the server for this customer. */}
      <noscript>
        <p className="mb-4">
          <a href={withoutScriptsHref(search)} className="link">
            {withoutScripts}
          </a>
        </p>
      </noscript>
      <ul className="grid gap-3" aria-hidden="true">
        {Array.from({ length: blocks }, (_, i) => (
          <li key={i} className={`${height} animate-pulse rounded-lg border border-stone-200 bg-stone-100 motion-reduce:animate-none`} />
        ))}
      </ul>
    </div>
  );
}

/** A personal page whose data could not be read: said plainly, with a way to try again that keeps the page. */
export function PersonalDataError({ error, what }: { error: unknown; what: string }) {
  const revalidator = useRevalidator();
  const busy = revalidator.state === "loading";
  const status = isRouteErrorResponse(error) ? error.status : error instanceof Error && "status" in error ? Number(error.status) : 0;
  return (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-6 py-8 text-center">
      <p className="text-lg font-semibold text-red-900">We could not load {what}.</p>
      <p className="mx-auto mt-2 max-w-prose text-stone-700">
        {status === 429 ? "Too many requests at once: wait a moment, then try again." : "Check your connection, then try again."}
      </p>
      <button type="button" className="btn-secondary mt-6" onClick={() => void revalidator.revalidate()} disabled={busy}>
        {busy ? "Trying again…" : "Try again"}
      </button>
    </div>
  );
}

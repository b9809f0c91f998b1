import { type ReactNode, useEffect, useRef } from "react";

/**
 * A list's filters behind a "Filters" button on a phone or tablet, so the
 * first rows show without scrolling past them (issue 34); open on a desktop.
 * A details element, so the button works before (or without) JavaScript;
 * open from the start when a filter is on, so what narrows the list shows.
 * On a desktop the content shows at once where the browser styles
 * `::details-content` (no jump), and the effect opens it everywhere else.
 */
export function FilterDisclosure({ active, children }: { active: number; children: ReactNode }) {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    if (ref.current && window.matchMedia("(min-width: 1024px)").matches) ref.current.open = true;
  }, []);
  return (
    <details ref={ref} open={active > 0 || undefined} className="group mb-4 lg:[&::details-content]:[content-visibility:visible] lg:[&::details-content]:block" data-testid="filters">
      <summary className="btn-secondary min-h-10 w-fit cursor-pointer list-none lg:group-open:hidden [&::-webkit-details-marker]:hidden">
        Filters{active > 0 ? ` (${active} on)` : ""}
        <span aria-hidden="true" className="ml-1 inline-block transition-transform group-open:rotate-180">
          ▾
        </span>
      </summary>
      <div className="mt-2 lg:mt-0">{children}</div>
    </details>
  );
}

/** How many of a list's filters are on: the ones in `names` with a value in the address. */
export function activeFilters(search: URLSearchParams, names: readonly string[]): number {
  return names.filter((n) => (search.get(n) ?? "").trim() !== "").length;
}

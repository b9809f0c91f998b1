import { Link } from "react-router";

/** Page numbers to show: the first, the last, and the current page's neighbours, with gaps. */
export function pageWindow(page: number, lastPage: number, spread = 1): (number | "gap")[] {
  const pages = new Set<number>([1, lastPage]);
  for (let p = page - spread; p <= page + spread; p++) if (p >= 1 && p <= lastPage) pages.add(p);
  const sorted = [...pages].sort((a, b) => a - b);
  const out: (number | "gap")[] = [];
  for (const [i, p] of sorted.entries()) {
    const prev = sorted[i - 1];
    if (prev !== undefined && p - prev === 2) out.push(prev + 1);
    else if (prev !== undefined && p - prev > 2) out.push("gap");
    out.push(p);
  }
  return out;
}

const itemClass = "inline-flex min-h-11 min-w-11 items-center justify-center gap-1 rounded-md border px-3 text-sm font-semibold";

/**
 * Previous / next and page numbers, as plain links (rel=prev/next) so every
 * page of a listing has its own address. Phones show "Page 2 of 9" between
 * previous and next instead of the numbers.
 */
export function Pagination({ page, lastPage, hrefFor, label = "Pages" }: { page: number; lastPage: number; hrefFor: (page: number) => string; label?: string }) {
  if (lastPage <= 1) return null;
  const current = Math.min(page, lastPage);
  return (
    <nav aria-label={label} className="mt-8 flex items-center justify-between gap-2 sm:justify-center" data-testid="pagination">
      {page > 1 ? (
        <Link to={hrefFor(Math.min(page - 1, lastPage))} rel="prev" className={`${itemClass} border-stone-300 bg-white hover:bg-stone-100`}>
          <span aria-hidden="true">←</span> Previous
        </Link>
      ) : (
        <span className={`${itemClass} border-stone-200 text-stone-500`} aria-disabled="true">
          <span aria-hidden="true">←</span> Previous
        </span>
      )}
      <p className="text-sm text-stone-700 sm:hidden">
        Page {current} of {lastPage}
      </p>
      <ol className="hidden items-center gap-1 sm:flex">
        {pageWindow(current, lastPage).map((p, i) =>
          p === "gap" ? (
            <li key={`gap-${i}`} aria-hidden="true" className="px-1 text-stone-600">
              …
            </li>
          ) : (
            <li key={p}>
              {p === page ? (
                <span aria-current="page" className={`${itemClass} border-brand-700 bg-brand-700 text-white`}>
                  <span className="sr-only">Page </span>
                  {p}
                </span>
              ) : (
                <Link to={hrefFor(p)} className={`${itemClass} border-stone-300 bg-white hover:bg-stone-100`}>
                  <span className="sr-only">Page </span>
                  {p}
                </Link>
              )}
            </li>
          ),
        )}
      </ol>
      {page < lastPage ? (
        <Link to={hrefFor(page + 1)} rel="next" className={`${itemClass} border-stone-300 bg-white hover:bg-stone-100`}>
          Next <span aria-hidden="true">→</span>
        </Link>
      ) : (
        <span className={`${itemClass} border-stone-200 text-stone-500`} aria-disabled="true">
          Next <span aria-hidden="true">→</span>
        </span>
      )}
    </nav>
  );
}

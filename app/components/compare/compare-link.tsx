import { Link } from "react-router";
import { CompareIcon } from "./compare-button.tsx";
import { useCompareList } from "./use-compare.ts";

/** "Compare (n)" in the header once the browser's list holds something; the server's HTML never shows it. */
export function CompareLink() {
  const count = useCompareList().length;
  if (count === 0) return null;
  return (
    <Link
      to="/compare"
      className="inline-flex min-h-11 items-center gap-1 whitespace-nowrap rounded-md px-1.5 text-sm font-medium hover:bg-white/10 sm:px-2"
      aria-label={`Compare, ${count} ${count === 1 ? "product" : "products"}`}
      data-testid="compare-link"
    >
      {/* Phones: the icon and the count, so the header stays one line. */}
      <CompareIcon className="size-5 sm:hidden" />
      <span className="hidden sm:inline">Compare</span> ({count})
    </Link>
  );
}

import { Link } from "react-router";
import { useCompareList } from "./use-compare.ts";

/** "Compare (n)" in the header once the browser's list holds something; the server's HTML never shows it. */
export function CompareLink() {
  const count = useCompareList().length;
  if (count === 0) return null;
  return (
    <Link
      to="/compare"
      className="inline-flex min-h-11 items-center rounded-md px-2 text-sm font-medium hover:bg-white/10"
      aria-label={`Compare, ${count} ${count === 1 ? "product" : "products"}`}
      data-testid="compare-link"
    >
      Compare ({count})
    </Link>
  );
}

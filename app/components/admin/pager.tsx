import { Link, useLocation, useNavigation } from "react-router";
import { withParam } from "../../lib/admin/format.ts";

/**
 * Keyset pages: back to the first page, and on to the next (a cursor, never a
 * page number, so a list of any length pages in constant time), in `param`
 * of the address. Nothing when the list fits on one page.
 */
export function KeysetPager({ search, cursor, nextCursor, first = "First page", next = "Next page", param = "cursor" }: { search: URLSearchParams; cursor: string | undefined; nextCursor: string | null; first?: string; next?: string; param?: string }) {
  if (!cursor && !nextCursor) return null;
  return (
    <nav aria-label="Pages" className="mt-4 flex gap-2">
      {cursor ? (
        <Link to={withParam(search, { [param]: null }) || "?"} className="btn-secondary">
          {first}
        </Link>
      ) : null}
      {nextCursor ? (
        <Link to={withParam(search, { [param]: nextCursor })} className="btn-secondary">
          {next}
        </Link>
      ) : null}
    </nav>
  );
}

/**
 * What a keyset list screen reads from its address: the query (its filters and
 * cursor, for the pager and the filter links), and whether a new page of this
 * same list is loading (the table dims; a move to another screen does not).
 */
export function useListAddress(): { search: URLSearchParams; loading: boolean } {
  const location = useLocation();
  const navigation = useNavigation();
  return {
    search: new URLSearchParams(location.search),
    loading: navigation.state === "loading" && navigation.location.pathname === location.pathname,
  };
}

const LONDON_DATE_TIME = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" });
const LONDON_DATE = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", day: "numeric", month: "short", year: "numeric" });

/** `25 Nov 2026, 10:43` in London time, whatever the server's or browser's zone. */
export function formatDateTime(iso: string): string {
  return LONDON_DATE_TIME.format(new Date(iso));
}

/** `25 Nov 2026` in London time. */
export function formatDate(iso: string): string {
  return LONDON_DATE.format(new Date(iso));
}

/** A calendar day (`2026-11-25`, as the API gives due dates) the same way: `25 Nov 2026`. */
export function formatDay(day: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(day) ? formatDate(`${day}T12:00:00Z`) : day;
}

/** A query string with one value changed (or removed when empty): the tables keep their state in the URL. */
export function withParam(search: URLSearchParams, changes: Record<string, string | null | undefined>): string {
  const next = new URLSearchParams(search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null || value === undefined || value === "") next.delete(key);
    else next.set(key, value);
  }
  const query = next.toString();
  return query ? `?${query}` : "";
}

/**
 * A list's status tab and keyset page from its address: "all", one of
 * `statuses`, else `fallback` (no tab, or one that is none); the cursor a
 * row id (a positive 32-bit integer), else none.
 */
export function tabAndCursorFrom<S extends string>(url: URL, statuses: readonly S[], fallback: S): { status: S | "all"; cursor: number | undefined } {
  const status = url.searchParams.get("status") ?? fallback;
  const cursor = Number(url.searchParams.get("cursor"));
  return {
    status: status === "all" ? "all" : statuses.includes(status as S) ? (status as S) : fallback,
    cursor: Number.isInteger(cursor) && cursor > 0 && cursor <= 2_147_483_647 ? cursor : undefined,
  };
}

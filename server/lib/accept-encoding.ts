/**
 * Whether a client's Accept-Encoding takes `coding`: its own quality when it is
 * named, else `*`'s, else not (RFC 9110 12.5.3; identity needs no asking).
 * Shared by the static files (ADR 0042) and the page cache's gzip (ADR 0025).
 */
export function accepts(header: string | string[] | undefined, coding: string): boolean {
  const value = typeof header === "string" ? header : Array.isArray(header) ? header.join(",") : "";
  let star: number | undefined;
  for (const part of value.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    const quality = q === undefined ? 1 : Number(q);
    if (name === coding) return !Number.isNaN(quality) && quality > 0;
    if (name === "*") star = Number.isNaN(quality) ? 0 : quality;
  }
  return (star ?? 0) > 0;
}

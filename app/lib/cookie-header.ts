/** A cookie's value, as sent (not decoded), from a request's Cookie header; undefined when it is not there. */
export function cookieValue(header: string | null | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(/;\s*/)) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1);
  }
  return undefined;
}

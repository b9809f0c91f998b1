/**
 * `attr=Voltage:18V&attr=Voltage:12V&attr=Chuck size:13mm` → `{Voltage: [18V, 12V], "Chuck size": [13mm]}`.
 * The API's filter format, read by its listing route and by the storefront's
 * listing (in the browser too), so this module imports nothing.
 */
export function attributeFilters(list: readonly string[] | undefined): Record<string, string[]> {
  // No prototype: a name such as `__proto__` or `constructor` is just a name (it found Object's own and answered 500).
  const out = Object.create(null) as Record<string, string[]>;
  for (const pair of list ?? []) {
    const i = pair.indexOf(":");
    (out[pair.slice(0, i)] ??= []).push(pair.slice(i + 1));
  }
  return out;
}

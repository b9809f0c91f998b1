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

/** At most this many option names and values in one listing's filter, as for attributes. */
export const MAX_OPTION_FILTERS = 20;

/**
 * `option[Length]=3.0 m&option[Length]=3.6 m&option[Colour]=Grey` from a
 * query string → `{Length: [3.0 m, 3.6 m], Colour: [Grey]}`; names and values
 * at most 80 characters, at most 20 in all (the rest ignored).
 */
export function optionFilters(search: URLSearchParams): Record<string, string[]> {
  const out = Object.create(null) as Record<string, string[]>;
  let taken = 0;
  for (const [key, raw] of search) {
    const match = /^option\[(.{1,80})\]$/.exec(key);
    const value = raw.trim();
    if (!match || !value || value.length > 80 || taken >= MAX_OPTION_FILTERS) continue;
    (out[match[1]!] ??= []).push(value);
    taken += 1;
  }
  return out;
}

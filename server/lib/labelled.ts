// Plain code (no database, no zod): the back office's screens import the lists made with it.

/**
 * A closed list of values with the shop's name for each, declared once, in
 * order: `values` (for a zod or table enum, a select's options), `labels`,
 * `is` (a value of the list?) and `label`, which names any stored string: the
 * string itself when it is not in the list (an old value kept in the data).
 */
export function labelledList<const K extends string>(labels: Record<K, string>) {
  const has = (value: unknown): value is K => typeof value === "string" && Object.hasOwn(labels, value);
  return {
    values: Object.keys(labels) as readonly string[] as readonly [K, ...K[]],
    labels: labels as Readonly<Record<K, string>>,
    is: has,
    label: (value: string): string => (has(value) ? labels[value] : value),
  };
}

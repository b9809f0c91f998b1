// The variant rules' plain limits, in a module with no validation library, so
// a back-office screen's bundle can show them (zod's eval check would break
// the page's Content Security Policy).

export const OPTIONS_MAX = 3;
export const OPTION_VALUES_MAX = 50;
export const VARIANTS_MAX = 200;
export const OPTION_NAME_MAX = 40;
export const OPTION_VALUE_MAX = 40;
export const WEIGHT_MAX_GRAMS = 10_000_000;

/** An option's values as typed in a box: one per line (or, all on one line, separated by commas), blanks dropped. */
export function parseOptionValues(typed: string): string[] {
  const lines = typed.split(/\r?\n/).map((v) => v.trim()).filter(Boolean);
  return lines.length === 1 && lines[0]!.includes(",") ? lines[0]!.split(",").map((v) => v.trim()).filter(Boolean) : lines;
}

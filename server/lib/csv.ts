import { type ColumnOption, type Stringifier, stringify } from "csv-stringify";

/**
 * The shop's CSV files (ADR 0032, ADR 0036): UTF-8 with a byte order mark so
 * spreadsheets read £ and accents right, a header row, and formulas escaped.
 */

/** A cell a spreadsheet would run as a formula (CSV injection): `=`, `+`, `-`, `@`, tab or carriage return first. */
export const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A CSV writer for these columns: quoting by csv-stringify, and every cell that
 * starts like a formula written with a `'` before it, so a spreadsheet shows it
 * as text (`=cmd|' /c calc'!A1` becomes `'=cmd|' /c calc'!A1`).
 */
export function csvWriter(columns: ColumnOption[]): Stringifier {
  return stringify({ header: true, columns, bom: true, escape_formulas: true });
}

/** The same escaping for one cell, where the cells are not written by csvWriter. */
export function escapeFormula(cell: string): string {
  return FORMULA_START.test(cell) ? `'${cell}` : cell;
}

/**
 * Undoes that escaping on import, so an exported file reads back unchanged: a
 * `'` followed by a formula's first character is dropped. A cell that starts
 * with `'` followed by anything else is left as it is.
 */
export function unescapeFormula(cell: string): string {
  return cell.length > 1 && cell[0] === "'" && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;
}

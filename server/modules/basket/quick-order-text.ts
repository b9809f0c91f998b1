// Pasted quick-order text to lines of SKU and quantity (issue 32). Plain code
// with no imports, so the storefront's quick-order screen parses in the
// browser with exactly what the tests run here (ADR 0051).

/** The most lines one quick order takes, pasted or posted. */
export const QUICK_ORDER_MAX_LINES = 1000;

export interface PastedLine {
  /** Its line in the text, from 1, so the screen can say "line 7". */
  row: number;
  /** The SKU cell as typed, trimmed (matched case-insensitively by the server). */
  sku: string;
  /** A whole number when it reads as one; otherwise the cell as typed, for the server to refuse by name. 1 when left out. */
  quantity: number | string;
  /** The line as it was, to put back in the box when it is refused. */
  text: string;
}

export type PasteResult = { ok: true; lines: PastedLine[]; header: boolean } | { ok: false; message: string; lines: [] };

const SKU_HEADING = /^(sku|skus|code|product ?code|item|item ?code|part|part ?(no\.?|number)|stock ?code|product)$/i;
const QUANTITY_HEADING = /^(qty\.?|quantity|quantities|amount|count|units?|no\.?|number)$/i;

/**
 * Splits one line into cells: quoted cells as CSV has them (`"A,1"`, `""` for a
 * quote), on a tab when there is one (a spreadsheet's columns), else on commas,
 * else semicolons (a European spreadsheet's CSV), else on runs of spaces. A
 * quote left open runs to the end of the line: a cell never spans lines.
 */
export function cellsOf(line: string): string[] {
  if (line.includes("\t")) return splitOn(line, "\t");
  for (const delimiter of [",", ";"]) {
    const cells = splitOn(line, delimiter);
    if (cells.length > 1) return cells;
  }
  return splitOn(line, " ");
}

/** The line's cells between `delimiter`s outside quotes; " " stands for any run of white space. */
function splitOn(line: string, delimiter: string): string[] {
  const spaces = delimiter === " ";
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  const push = () => {
    cells.push(cell.trim());
    cell = "";
  };
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell.trim() === "") {
      // A quote opens a cell only at its start; elsewhere it is part of it (12" tile).
      cell = "";
      quoted = true;
    } else if (spaces ? /\s/.test(c) : c === delimiter) {
      // Runs of spaces are one separator; a comma or tab between two is an empty cell.
      if (!spaces || cell !== "") push();
    } else cell += c;
  }
  if (cell !== "" || !spaces) push();
  return cells;
}

/** The quantity cell: 1 when empty, a number when it is a whole number, else the cell for the server to refuse. */
function quantityOf(cell: string | undefined): number | string {
  const text = (cell ?? "").trim();
  if (text === "") return 1;
  return /^\d{1,9}$/.test(text) ? Number(text) : text;
}

const plural = (n: number) => `${n.toLocaleString("en-GB")} line${n === 1 ? "" : "s"}`;

/**
 * Reads pasted text or a CSV file's text: one product a line, its SKU then
 * its quantity (left out means 1), further columns ignored; blank lines are
 * skipped and a first line of headings ("SKU, Qty") too. Any line ending.
 */
export function parseQuickOrder(text: string): PasteResult {
  const lines: PastedLine[] = [];
  let header = false;
  const rows = text.replace(/^\ufeff/, "").split(/\r\n|\r|\n/);
  for (const [index, raw] of rows.entries()) {
    if (raw.trim() === "") continue;
    const [sku = "", quantity] = cellsOf(raw);
    // Only the first line with anything on it may be headings, and never one whose quantity is a number ("Code 5").
    if (lines.length === 0 && !header && !/^\d+$/.test((quantity ?? "").trim()) && (SKU_HEADING.test(sku) || QUANTITY_HEADING.test(quantity ?? ""))) {
      header = true;
      continue;
    }
    if (sku === "" && (quantity ?? "") === "") continue;
    lines.push({ row: index + 1, sku, quantity: quantityOf(quantity), text: raw });
  }
  if (lines.length > QUICK_ORDER_MAX_LINES) {
    return {
      ok: false,
      message: `That is ${plural(lines.length)}: a quick order takes at most ${plural(QUICK_ORDER_MAX_LINES)} at a time. Add the first ${QUICK_ORDER_MAX_LINES.toLocaleString("en-GB")}, then the rest.`,
      lines: [],
    };
  }
  return { ok: true, lines, header };
}

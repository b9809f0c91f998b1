/**
 * The catalogue CSV's columns (issue 20, ADR 0036): one table, read by the
 * export (which writes them in this order), the import (which matches a
 * file's headers to them, case-insensitively and trimmed), docs/features.md and the
 * import screen. Each column but `sku` may be left out of a file, and an empty
 * cell leaves that field as it is.
 */
export interface CsvColumn {
  /** The header, as the export writes it. */
  header: string;
  /** What the cell holds, for docs/features.md and the screen. */
  help: string;
  /** Needed to create a product (with `sku`). */
  requiredOnCreate?: true;
}

export const CSV_COLUMNS = [
  { header: "sku", help: "The variant's SKU (a product without options has one variant, under the product's SKU): the variant with this SKU and its product are updated, otherwise a product (or, on a row with options, a variant) is created. Letters, digits, dots, dashes, slashes, underscores; at most 64.", requiredOnCreate: true },
  { header: "name", help: "The product's name, at most 200 characters.", requiredOnCreate: true },
  { header: "slug", help: "The web address after /product/ (lower-case letters, digits, single dashes), and the handle that joins a product's variant rows: a new SKU with options and the slug of a product in the shop is a new variant of it. On create, made from the name when empty; a changed slug leaves a 301 redirect from the old one." },
  { header: "status", help: "draft, published or archived. A new product is a draft unless this says otherwise." },
  { header: "price_ex_vat", help: "The variant's price in pounds ex VAT, at most 2 decimals (12.50; a £ sign and thousands commas are allowed).", requiredOnCreate: true },
  { header: "was_price_ex_vat", help: "The variant's earlier price shown crossed out, in pounds ex VAT." },
  { header: "vat_rate", help: "20, 5 or 0 (a % sign is allowed). 20 for a new product when empty." },
  { header: "stock", help: "The variant's stock on hand (its total over every branch), a whole number: recorded in the stock ledger as a count of the difference at the default branch, or as opening stock for a new product. Not read when the file has stock@ columns: the total then follows from the branches." },
  { header: "reorder_level", help: "At or below this the back office calls the variant's stock low. 5 for a new product when empty." },
  { header: "brand", help: "The brand's name or slug; the brand must exist." },
  { header: "categories", help: "Category paths separated by |, such as power-tools/cordless-drills|power-tools; each must exist. Replaces the product's categories." },
  { header: "summary", help: "One or two lines under the name, at most 500 characters." },
  { header: "description_html", help: "The description as HTML; only plain formatting is kept (sanitised, no scripts)." },
  { header: "heavy", help: "yes or no: heavy or bulky goods add the delivery surcharge." },
  { header: "featured", help: "yes or no: shown first in listings and on the home page." },
  { header: "seo_title", help: "The page title for search engines, at most 70 characters." },
  { header: "seo_description", help: "The page description for search engines, at most 160 characters." },
  { header: "unit", help: "How the product is sold and priced: each, m, m2, pack, kg, tonne or litre. each for a new product when empty." },
  { header: "coverage_per_unit", help: "What one unit covers, such as 1.44 for a pack of tiles covering 1.44 m²; with coverage_unit." },
  { header: "coverage_unit", help: "m2 or m: what coverage_per_unit is measured in." },
  { header: "option1_name", help: "The product's first option, such as Length; with option1_value. Every row of a product with options names them (the export writes them); a product's rows go one after another, its columns given once or the same on each, and its variants are created, changed or refused together." },
  { header: "option1_value", help: "This variant's value of the first option, such as 3.0 m." },
  { header: "option2_name", help: "The second option, such as Colour." },
  { header: "option2_value", help: "This variant's value of the second option." },
  { header: "option3_name", help: "The third option." },
  { header: "option3_value", help: "This variant's value of the third option." },
  { header: "barcode", help: "The variant's EAN or GTIN (8, 12, 13 or 14 digits, check digit checked)." },
  { header: "weight_grams", help: "The variant's weight in whole grams." },
  { header: "variant_status", help: "active or archived: archived takes the variant off sale (its stock counted to 0 first), kept for orders and the ledger. A product keeps one variant on sale." },
  { header: "bin_location", help: "Where it is kept: aisle, bay and shelf as the warehouse writes them (such as A3-B2-S1), at most 30 characters; the picking list sorts by it." },
] as const satisfies readonly CsvColumn[];

/** The option columns by position: option1_name and option1_value … option3. */
export const OPTION_COLUMNS = [
  ["option1_name", "option1_value"],
  ["option2_name", "option2_value"],
  ["option3_name", "option3_value"],
] as const;

export type FieldColumn = (typeof CSV_COLUMNS)[number]["header"];

/** `attribute:Colour`: one column per attribute name; the cell is the value. */
export const ATTRIBUTE_PREFIX = "attribute:";
export const ATTRIBUTE_HELP = "One column per attribute, such as attribute:Colour or attribute:Voltage; the cell is the value. A product keeps attributes whose cells are empty or absent.";

/** `stock@leeds`: the variant's stock at one branch, by the branch's slug (issue 30). */
export const STOCK_AT_PREFIX = "stock@";
export const STOCK_AT_HELP =
  "One column per branch, such as stock@leeds: the variant's stock at that branch, counted to the figure in the stock ledger (opening stock for a new variant). With any stock@ column the stock column is not read (the total is the branches' sum). The export writes one per open branch when the shop has more than one.";

/** A file's header, matched: a field, an attribute, a branch's stock, or nothing (reported). */
export type MatchedColumn = { kind: "field"; field: FieldColumn } | { kind: "attribute"; name: string } | { kind: "stock_at"; slug: string } | null;

export interface HeaderProblem {
  column: string;
  message: string;
  /** The file cannot be read as a catalogue at all (no sku column, a column twice): nothing is applied, not even valid rows. */
  fatal: boolean;
}

const BY_HEADER = new Map<string, FieldColumn>(CSV_COLUMNS.map((c) => [c.header, c.header]));

/**
 * The file's headers against the columns: case-insensitive and trimmed, so
 * `SKU`, ` Price_Ex_VAT ` and `Attribute:Colour` match. An unknown column is
 * reported, never silently ignored; a column given twice, or no sku column, is
 * fatal.
 */
export function matchHeaders(headers: string[]): { columns: MatchedColumn[]; problems: HeaderProblem[] } {
  const problems: HeaderProblem[] = [];
  const seen = new Set<string>();
  const columns = headers.map((raw): MatchedColumn => {
    const header = raw.trim();
    const key = header.toLowerCase();
    if (!header) {
      problems.push({ column: `column ${headers.indexOf(raw) + 1}`, message: "This column has no header; name it or remove it.", fatal: false });
      return null;
    }
    let matched: MatchedColumn;
    if (key.startsWith(ATTRIBUTE_PREFIX)) {
      const name = header.slice(ATTRIBUTE_PREFIX.length).trim();
      if (!name) {
        problems.push({ column: header, message: "Name the attribute after attribute:, such as attribute:Colour.", fatal: false });
        return null;
      }
      matched = { kind: "attribute", name };
    } else if (key.startsWith(STOCK_AT_PREFIX)) {
      const slug = key.slice(STOCK_AT_PREFIX.length).trim();
      if (!slug) {
        problems.push({ column: header, message: "Name the branch after stock@, such as stock@leeds.", fatal: true });
        return null;
      }
      matched = { kind: "stock_at", slug };
    } else {
      const field = BY_HEADER.get(key);
      if (!field) {
        problems.push({ column: header, message: `Unknown column "${header}": it is not a product field (see the column list), so nothing in it would be imported.`, fatal: false });
        return null;
      }
      matched = { kind: "field", field };
    }
    const identity = matched.kind === "field" ? matched.field : matched.kind === "stock_at" ? `${STOCK_AT_PREFIX}${matched.slug}` : `${ATTRIBUTE_PREFIX}${matched.name.toLowerCase()}`;
    if (seen.has(identity)) {
      problems.push({ column: header, message: `The column "${header}" appears twice; keep one.`, fatal: true });
      return null;
    }
    seen.add(identity);
    return matched;
  });
  if (!seen.has("sku")) problems.push({ column: "sku", message: "The file needs a sku column: each row is matched to a product by its SKU.", fatal: true });
  return { columns, problems };
}

/**
 * Each stock@ column names an open branch: stock counted at a branch that is
 * not there (a typo, a closed branch) would be lost, so the file is refused
 * (fatal), naming the column.
 */
export function branchColumnProblems(headers: string[], columns: MatchedColumn[], branches: ReadonlyMap<string, { status: "open" | "closed" }>): HeaderProblem[] {
  const problems: HeaderProblem[] = [];
  columns.forEach((column, i) => {
    if (column?.kind !== "stock_at") return;
    const branch = branches.get(column.slug);
    const header = headers[i]!.trim();
    if (!branch) problems.push({ column: header, message: `No branch has the web address "${column.slug}": name a branch by its slug (${[...branches.keys()].join(", ")}).`, fatal: true });
    else if (branch.status === "closed") problems.push({ column: header, message: `The branch "${column.slug}" is closed: its stock cannot be counted from a file.`, fatal: true });
  });
  return problems;
}

/** yes/no as a spreadsheet holds it; null when it is neither. */
export function parseYesNo(cell: string): boolean | null {
  const v = cell.trim().toLowerCase();
  if (["yes", "y", "true", "1"].includes(v)) return true;
  if (["no", "n", "false", "0"].includes(v)) return false;
  return null;
}

/** Pence as the export writes them: 1250 → "12.50". */
export function poundsCell(pence: number | null): string {
  return pence === null ? "" : (pence / 100).toFixed(2);
}

export const yesNoCell = (value: boolean) => (value ? "yes" : "no");

/** Category paths as a cell: sorted, separated by `|`. */
export const categoriesCell = (paths: string[]) => [...paths].sort().join("|");

/** A categories cell's paths: trimmed, lower-case, without slashes at either end; empty parts dropped. */
export function parseCategories(cell: string): string[] {
  return cell
    .split("|")
    .map((p) => p.trim().toLowerCase().replace(/^\/+|\/+$/g, ""))
    .filter(Boolean);
}

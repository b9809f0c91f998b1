import PDFDocument from "pdfkit";

/**
 * The layout shared by every PDF the shop prints (invoices, picking lists,
 * delivery notes), on pdfkit (ADR 0031): A4, pdfkit's built-in Helvetica (no
 * font files), one table routine that repeats its header row and never splits
 * a row across pages, and "Page n of m" in every footer.
 */

export type Pdf = PDFKit.PDFDocument;

export const REGULAR = "Helvetica";
export const BOLD = "Helvetica-Bold";
export const INK = "#111111";
export const MUTED = "#555555";
const RULE = "#b8b8b8";
const SHADE = "#ececec";

/** Points. The bottom margin leaves room for the footer, which is written inside it. */
const MARGINS = { top: 50, right: 50, bottom: 64, left: 50 };
const FOOTER_FROM_BOTTOM = 40;

/**
 * Characters Helvetica can show: pdfkit writes the standard fonts in WinAnsi,
 * which is Latin-1 plus these (curly quotes, dashes, €, …). pdfkit does not
 * check: a character outside it is written as garbage bytes, so it becomes "?".
 */
const WIN_ANSI_EXTRA = new Set([0x152, 0x153, 0x160, 0x161, 0x178, 0x17d, 0x17e, 0x192, 0x2c6, 0x2dc, 0x2013, 0x2014, 0x2018, 0x2019, 0x201a, 0x201c, 0x201d, 0x201e, 0x2020, 0x2021, 0x2022, 0x2026, 0x2030, 0x2039, 0x203a, 0x20ac, 0x2122]);

/** `s` in what WinAnsi has; line breaks become spaces unless `multiline`. */
export function winAnsi(s: string, multiline = false): string {
  return [...s.normalize("NFC")]
    .map((c) => {
      if (c === "\n") return multiline ? c : " ";
      if (c === "\r") return multiline ? "" : " ";
      if (c === "\t") return " ";
      const code = c.codePointAt(0)!;
      if (code >= 0x20 && code < 0x7f) return c;
      if (code >= 0xa0 && code <= 0xff) return c;
      return WIN_ANSI_EXTRA.has(code) ? c : "?";
    })
    .join("");
}

export function left(doc: Pdf): number {
  return doc.page.margins.left;
}

export function contentWidth(doc: Pdf): number {
  return doc.page.width - doc.page.margins.left - doc.page.margins.right;
}

export interface TextStyle {
  size?: number;
  bold?: boolean;
  color?: string;
  align?: "left" | "right" | "center";
  /** Wrap within this width; by default up to the right margin. */
  width?: number;
  /** Keep the text's own line breaks (notes); otherwise they become spaces. */
  multiline?: boolean;
}

function style(doc: Pdf, s: TextStyle): void {
  doc
    .font(s.bold ? BOLD : REGULAR)
    .fontSize(s.size ?? 10)
    .fillColor(s.color ?? INK);
}

/** The height `s` takes when written with `s`'s style (for keeping blocks together). */
export function measure(doc: Pdf, text: string, s: TextStyle & { width: number }): number {
  style(doc, s);
  return doc.heightOfString(winAnsi(text, s.multiline) || " ", { width: s.width });
}

/** Writes `text` at (x, y), wrapping within its width; leaves doc.y below it. */
export function write(doc: Pdf, text: string, x: number, y: number, s: TextStyle = {}): void {
  style(doc, s);
  const width = s.width ?? doc.page.width - doc.page.margins.right - x;
  doc.text(winAnsi(text, s.multiline), x, y, { width, align: s.align ?? "left" });
  doc.x = left(doc);
}

export function rule(doc: Pdf, y: number, x = left(doc), width = contentWidth(doc), color = RULE): void {
  doc
    .save()
    .moveTo(x, y)
    .lineTo(x + width, y)
    .lineWidth(0.6)
    .strokeColor(color)
    .stroke()
    .restore();
}

/**
 * A new page unless `height` points still fit above the bottom margin, headed
 * by `continued` when given (a page of totals alone says whose they are).
 */
export function ensureSpace(doc: Pdf, height: number, continued?: string): void {
  if (doc.y + height > doc.page.maxY()) newPage(doc, continued);
}

function newPage(doc: Pdf, continued?: string): void {
  doc.addPage();
  doc.y = doc.page.margins.top;
  if (continued) {
    write(doc, continued, left(doc), doc.y, { size: 8, bold: true, color: MUTED });
    doc.y += 5;
  }
}

/** The document's title on the left, its reference (a number) on the right, a rule under both. */
export function header(doc: Pdf, title: string, reference?: string): void {
  const y = doc.page.margins.top;
  write(doc, title, left(doc), y, { size: 20, bold: true });
  if (reference) write(doc, reference, left(doc), y + 4, { size: 14, bold: true, align: "right", width: contentWidth(doc) });
  rule(doc, y + 28, left(doc), contentWidth(doc), INK);
  doc.y = y + 40;
}

/** A caption (small, muted) over a section. */
export function caption(doc: Pdf, text: string): void {
  write(doc, text.toUpperCase(), left(doc), doc.y, { size: 8, bold: true, color: MUTED });
  doc.y += 2;
}

export type BlockLine = string | { text: string; bold?: boolean; size?: number };

export interface Block {
  /** From the left margin. */
  x: number;
  width: number;
  caption?: string;
  lines: BlockLine[];
}

/**
 * Blocks of lines side by side from the same height (the seller and the
 * buyer, the order and the address), kept on one page; doc.y ends below the
 * tallest. Empty lines are left out.
 */
export function blocks(doc: Pdf, list: Block[], size = 10): void {
  const lineStyle = (l: BlockLine, width: number) => (typeof l === "string" ? { size, width } : { size: l.size ?? size, bold: l.bold, width });
  const lineText = (l: BlockLine) => (typeof l === "string" ? l : l.text);
  const heights = list.map((b) => (b.caption ? 13 : 0) + b.lines.filter((l) => lineText(l) !== "").reduce((h, l) => h + measure(doc, lineText(l), lineStyle(l, b.width)), 0));
  ensureSpace(doc, Math.max(0, ...heights));
  const top = doc.y;
  let bottom = top;
  for (const b of list) {
    doc.y = top;
    if (b.caption) {
      write(doc, b.caption.toUpperCase(), left(doc) + b.x, doc.y, { size: 8, bold: true, color: MUTED, width: b.width });
      doc.y += 3;
    }
    for (const l of b.lines) {
      if (lineText(l) === "") continue;
      write(doc, lineText(l), left(doc) + b.x, doc.y, lineStyle(l, b.width));
    }
    bottom = Math.max(bottom, doc.y);
  }
  doc.y = bottom;
}

export interface Column {
  header: string;
  /** Points; columns without one share what is left of the content width. */
  width?: number;
  align?: "left" | "right" | "center";
  /** An empty box to tick by hand; the row's cell text is ignored. */
  tickBox?: boolean;
}

export interface TableOptions {
  size?: number;
  /** Printed over the repeated header on each later page, e.g. "TC-000123 (continued)". */
  continued?: string;
  /** Points to keep free under the last row (a count, the totals), so they never go to a page alone. */
  keepAfter?: number;
}

const PAD_X = 4;
const PAD_Y = 3.5;
const TICK = 9;

/**
 * A table from doc.y down: a shaded header row, rows whose cells wrap within
 * their column. A row that does not fit goes to a new page whole, under the
 * header row again, so every row is printed exactly once.
 */
export function table(doc: Pdf, columns: Column[], rows: string[][], options: TableOptions = {}): void {
  const size = options.size ?? 9;
  const x0 = left(doc);
  const fixed = columns.reduce((w, c) => w + (c.width ?? 0), 0);
  const flexible = columns.filter((c) => c.width === undefined).length;
  const widths = columns.map((c) => c.width ?? Math.max(40, (contentWidth(doc) - fixed) / Math.max(1, flexible)));
  const xs = widths.map((_, i) => x0 + widths.slice(0, i).reduce((a, b) => a + b, 0));
  const tableWidth = widths.reduce((a, b) => a + b, 0);
  // A row taller than a page is cut (with an ellipsis) rather than left to run off it.
  const maxRow = doc.page.maxY() - doc.page.margins.top - 60;

  const rowHeight = (cells: string[], bold: boolean) =>
    Math.min(maxRow, Math.max(size + 2 * PAD_Y, ...columns.map((c, i) => (c.tickBox ? TICK + 2 * PAD_Y : measure(doc, cells[i] ?? "", { size, bold, width: widths[i]! - 2 * PAD_X }) + 2 * PAD_Y))));

  const drawRow = (cells: string[], y: number, height: number, bold: boolean) => {
    columns.forEach((c, i) => {
      const x = xs[i]!;
      const w = widths[i]!;
      if (c.tickBox) {
        const bx = c.align === "left" ? x + PAD_X : x + (w - TICK) / 2;
        doc
          .save()
          .lineWidth(0.8)
          .strokeColor(INK)
          .rect(bx, y + PAD_Y, TICK, TICK)
          .stroke()
          .restore();
        return;
      }
      style(doc, { size, bold });
      doc.text(winAnsi(cells[i] ?? ""), x + PAD_X, y + PAD_Y, { width: w - 2 * PAD_X, align: c.align ?? "left", height: height - 2 * PAD_Y + 1, ellipsis: true });
    });
  };

  const headerCells = columns.map((c) => c.header);
  const headerHeight = rowHeight(headerCells, true);
  const drawHeader = (y: number) => {
    doc.save().rect(x0, y, tableWidth, headerHeight).fill(SHADE).restore();
    // The tick-box column's header is text, not a box.
    columns.forEach((c, i) => {
      style(doc, { size, bold: true });
      doc.text(winAnsi(c.header), xs[i]! + PAD_X, y + PAD_Y, { width: widths[i]! - 2 * PAD_X, align: c.tickBox ? "center" : (c.align ?? "left"), lineBreak: false });
    });
    return y + headerHeight;
  };

  // Never a header alone at the foot of a page.
  ensureSpace(doc, headerHeight + rowHeight(rows[0] ?? headerCells, false), options.continued);
  let y = drawHeader(doc.y);
  rows.forEach((cells, i) => {
    const h = rowHeight(cells, false);
    const after = i === rows.length - 1 ? (options.keepAfter ?? 0) : 0;
    if (y + h + after > doc.page.maxY()) {
      newPage(doc, options.continued);
      y = drawHeader(doc.y);
    }
    drawRow(cells, y, h, false);
    y += h;
    rule(doc, y, x0, tableWidth);
  });
  doc.x = x0;
  doc.y = y + 10;
}

/** A box with a caption, to fill in by hand (received by, signature, date). */
export function signatureBox(doc: Pdf, title: string, fields: string[], continued?: string): void {
  const height = 26 + fields.length * 30;
  ensureSpace(doc, height + 4, continued);
  const x = left(doc);
  const y = doc.y;
  doc.save().lineWidth(0.8).strokeColor(INK).rect(x, y, contentWidth(doc), height).stroke().restore();
  write(doc, title, x + 10, y + 9, { size: 10, bold: true });
  fields.forEach((f, i) => {
    const fy = y + 26 + i * 30 + 14;
    write(doc, f, x + 10, fy - 9, { size: 9, color: MUTED, width: 130 });
    rule(doc, fy + 2, x + 140, contentWidth(doc) - 160, INK);
  });
  doc.y = y + height + 10;
}

/** `left` and "Page n of m" at the foot of every page; once everything else is written. */
function footer(doc: Pdf, text: string): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i += 1) {
    doc.switchToPage(i);
    // Writing inside the bottom margin would make pdfkit start a new page.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = doc.page.height - FOOTER_FROM_BOTTOM;
    rule(doc, y - 6);
    style(doc, { size: 8, color: MUTED });
    doc.text(winAnsi(text), left(doc), y, { width: contentWidth(doc) - 90, lineBreak: false });
    doc.text(`Page ${i - range.start + 1} of ${range.count}`, left(doc) + contentWidth(doc) - 90, y, { width: 90, align: "right", lineBreak: false });
    doc.page.margins.bottom = bottom;
  }
}

/**
 * Makes a document: `draw` writes it (doc.y starts at the top margin), the
 * footer is added to every page, and the bytes come back once pdfkit has
 * written them all.
 */
export function renderPdf(meta: { title: string; footer?: string }, draw: (doc: Pdf) => void): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: "A4",
      margins: MARGINS,
      // Page numbers need the page count, known only at the end.
      bufferPages: true,
      // The header the trade journey's browser test expects of an invoice.
      pdfVersion: "1.4",
      lang: "en-GB",
      displayTitle: true,
      info: { Title: meta.title, Creator: "Tradecounter" },
    });
    const chunks: Uint8Array[] = [];
    doc.on("data", (chunk: Uint8Array) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
    try {
      style(doc, {});
      draw(doc);
      footer(doc, meta.footer ?? meta.title);
      doc.end();
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}

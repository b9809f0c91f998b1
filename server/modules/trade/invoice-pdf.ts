import type { InvoiceDetailJson } from "./invoices.ts";

/**
 * A minimal hand-written PDF 1.4 writer: one A4 page per 40 lines, Helvetica
 * (a standard font, nothing embedded), WinAnsi text, uncompressed content
 * streams, a correct xref table. Enough for an invoice; no dependency.
 */

const PAGE_W = 595;
const PAGE_H = 842;

export interface PdfText {
  x: number;
  y: number;
  size: number;
  bold?: boolean;
  text: string;
}

/** Characters outside Latin-1 that WinAnsi still has, at their WinAnsi codes. */
const WIN_ANSI: Record<string, number> = { "\u20ac": 0x80, "\u2018": 0x91, "\u2019": 0x92, "\u201c": 0x93, "\u201d": 0x94, "\u2022": 0x95, "\u2013": 0x96, "\u2014": 0x97, "\u2026": 0x85 };

/** A PDF string literal in WinAnsi: escapes \, ( and ); what WinAnsi lacks becomes "?". */
function pdfString(s: string): string {
  const safe = [...s]
    .map((c) => {
      const code = c.codePointAt(0)!;
      if (WIN_ANSI[c] !== undefined) return String.fromCharCode(WIN_ANSI[c]);
      return code <= 0xff && (code < 0x80 || code >= 0xa0) ? c : "?";
    })
    .join("");
  return `(${safe.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[\r\n]/g, " ")})`;
}

export function pdfDocument(pages: PdfText[][], title: string): Buffer {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body) - 1 + 1; // 1-based object number
  const catalog = add("");
  const pagesObj = add("");
  const font = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  const bold = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>");
  const info = add(`<< /Title ${pdfString(title)} /Producer (Tradecounter) >>`);
  const kids: number[] = [];
  for (const texts of pages) {
    const content = texts.map((t) => `BT /${t.bold ? "F2" : "F1"} ${t.size} Tf ${t.x} ${t.y} Td ${pdfString(t.text)} Tj ET`).join("\n");
    const stream = add(`<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`);
    kids.push(add(`<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 ${PAGE_W} ${PAGE_H}] /Resources << /Font << /F1 ${font} 0 R /F2 ${bold} 0 R >> >> /Contents ${stream} 0 R >>`));
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R >>`;
  objects[pagesObj - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(" ")}] /Count ${kids.length} >>`;

  let out = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R /Info ${info} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

export function money(pence: number): string {
  const sign = pence < 0 ? "-" : "";
  const abs = Math.abs(pence);
  return `${sign}\u00a3${Math.floor(abs / 100).toLocaleString("en-GB")}.${String(abs % 100).padStart(2, "0")}`;
}

const STATUS_LABEL = { unpaid: "Unpaid", payment_pending: "Payment pending", paid: "Paid" } as const;

/** The invoice as a PDF: shop and company details with VAT numbers, lines, VAT breakdown, totals, due date, status. */
export function invoicePdf(inv: InvoiceDetailJson): Buffer {
  const LINES_PER_PAGE = 40;
  const pages: PdfText[][] = [];
  let page: PdfText[] = [];
  let y = PAGE_H - 50;
  const text = (x: number, s: string, size = 10, isBold = false) => page.push({ x, y, size, bold: isBold, text: s });
  const next = (dy = 14) => {
    y -= dy;
    if (y < 60) {
      pages.push(page);
      page = [];
      y = PAGE_H - 50;
    }
  };

  text(50, "INVOICE", 20, true);
  text(380, inv.number, 14, true);
  next(26);
  text(50, inv.shop.name, 11, true);
  text(330, inv.company.name, 11, true);
  next();
  const left = [...inv.shop.address, inv.shop.email, inv.shop.vat_number ? `VAT number: ${inv.shop.vat_number}` : ""].filter(Boolean);
  const right = [...inv.company.address, inv.company.company_number ? `Company number: ${inv.company.company_number}` : "", inv.company.vat_number ? `VAT number: ${inv.company.vat_number}` : ""].filter(Boolean);
  for (let i = 0; i < Math.max(left.length, right.length); i += 1) {
    if (left[i]) text(50, left[i]!);
    if (right[i]) text(330, right[i]!);
    next();
  }
  next(8);
  text(50, `Invoice date: ${inv.invoice_date}`);
  text(330, `Order: ${inv.order_number}`);
  next();
  text(50, `Due date: ${inv.due_date}`);
  text(330, `PO reference: ${inv.po_reference || "-"}`);
  next();
  text(50, `Status: ${inv.overdue ? "Overdue" : STATUS_LABEL[inv.status]}`, 10, true);
  next(24);

  text(50, "Item", 10, true);
  text(300, "Qty", 10, true);
  text(340, "Unit ex VAT", 10, true);
  text(420, "VAT", 10, true);
  text(470, "Total ex VAT", 10, true);
  next();
  let count = 0;
  for (const l of inv.lines) {
    text(50, `${l.name} (${l.sku})`.slice(0, 48), 9);
    text(300, String(l.quantity), 9);
    text(340, money(l.unit_price), 9);
    text(420, `${l.vat_rate}%`, 9);
    text(470, money(l.line_total), 9);
    next(13);
    count += 1;
    if (count % LINES_PER_PAGE === 0) next(1000);
  }
  next(10);
  text(50, "VAT breakdown", 10, true);
  next();
  for (const b of inv.vat_breakdown) {
    text(50, `VAT at ${b.rate}%: net ${money(b.net)}, VAT ${money(b.vat)}`, 9);
    next(13);
  }
  next(10);
  const totals: [string, number][] = [
    ["Goods ex VAT", inv.subtotal],
    ["VAT", inv.vat],
    ["Delivery inc VAT", inv.delivery],
    ["Total", inv.total],
  ];
  for (const [label, pence] of totals) {
    text(340, `${label}:`, 10, label === "Total");
    text(470, money(pence), 10, label === "Total");
    next();
  }
  next(10);
  text(50, `Please pay by ${inv.due_date} quoting ${inv.number}.`, 9);
  pages.push(page);
  return pdfDocument(pages, `Invoice ${inv.number}`);
}

import { quantityIn } from "../../catalog/products/units.ts";
import { blocks, caption, contentWidth, ensureSpace, header, left, measure, renderPdf, rule, table, write, type Pdf } from "../../../lib/pdf.ts";
import { money, shopAndCompany } from "./document-pdf.ts";
import type { InvoiceDetailJson } from "./invoices.ts";

export { money };

const STATUS_LABEL = { unpaid: "Unpaid", payment_pending: "Payment pending", paid: "Paid" } as const;

/** Goods ex VAT, VAT, delivery and the total, right-aligned under the lines' last column. */
const TOTALS_HEIGHT = 4 * 15 + 4;

function totals(doc: Pdf, inv: InvoiceDetailJson, continued: string): void {
  const rows: [string, number][] = [
    ["Goods ex VAT", inv.subtotal],
    ["VAT", inv.vat],
    ["Delivery inc VAT", inv.delivery],
    ["Total", inv.total],
  ];
  ensureSpace(doc, TOTALS_HEIGHT, continued);
  const valueWidth = 90;
  const labelWidth = 140;
  const right = left(doc) + contentWidth(doc);
  for (const [label, pence] of rows) {
    const isTotal = label === "Total";
    if (isTotal) {
      rule(doc, doc.y, right - labelWidth - valueWidth, labelWidth + valueWidth);
      doc.y += 4;
    }
    const y = doc.y;
    const size = isTotal ? 11 : 10;
    write(doc, `${label}:`, right - labelWidth - valueWidth, y, { size, bold: isTotal, align: "right", width: labelWidth });
    write(doc, money(pence), right - valueWidth, y, { size, bold: isTotal, align: "right", width: valueWidth - 4 });
    doc.y = Math.max(doc.y, y + 15);
  }
}

/**
 * The invoice as a PDF: shop and company details with VAT numbers, dates,
 * order and PO reference, status, lines, VAT breakdown, totals, how to pay.
 */
export function invoicePdf(inv: InvoiceDetailJson): Promise<Buffer> {
  return renderPdf({ title: `Invoice ${inv.number}`, footer: `${inv.shop.name} \u00b7 Invoice ${inv.number}` }, (doc) => {
    const continued = `Invoice ${inv.number} (continued)`;
    header(doc, "INVOICE", inv.number);
    const half = contentWidth(doc) / 2;
    shopAndCompany(doc, inv.shop, inv.company, "Invoice to");
    doc.y += 12;
    blocks(doc, [
      { x: 0, width: half - 10, lines: [`Invoice date: ${inv.invoice_date}`, `Due date: ${inv.due_date}`, { text: `Status: ${inv.overdue ? "Overdue" : STATUS_LABEL[inv.status]}`, bold: true }] },
      { x: half, width: half, lines: [`${inv.order_id === null ? "Hire request" : "Order"}: ${inv.order_number}`, `PO reference: ${inv.po_reference || "-"}`, ...(inv.site ? [`Site: ${inv.site.name}`] : [])] },
    ]);
    doc.y += 16;

    // A discount column only when a promotion took something off a line: what it took, ex VAT, before the line's total after it.
    const discounted = inv.lines.some((l) => l.discount > 0);
    table(
      doc,
      [
        { header: "Item" },
        { header: "SKU", width: discounted ? 75 : 85 },
        { header: "Qty", width: 35, align: "right" },
        { header: "Unit ex VAT", width: 65, align: "right" },
        ...(discounted ? [{ header: "Discount", width: 60, align: "right" as const }] : []),
        { header: "VAT", width: 35, align: "right" },
        { header: "Total ex VAT", width: 75, align: "right" },
      ],
      inv.lines.map((l) => [l.name, l.sku, quantityIn(l.quantity, l.unit), money(l.unit_price), ...(discounted ? [l.discount > 0 ? `-${money(l.discount)}` : ""] : []), `${l.vat_rate}%`, money(l.line_total)]),
      // The last line goes over with the totals rather than leave them on a page alone.
      { continued, keepAfter: TOTALS_HEIGHT },
    );
    totals(doc, inv, continued);
    doc.y += 14;

    // The breakdown's caption stays with its table.
    ensureSpace(doc, 16 + 18 * (inv.vat_breakdown.length + 1), continued);
    caption(doc, "VAT breakdown");
    table(
      doc,
      [
        { header: "VAT rate", width: 70, align: "right" },
        { header: "Net", width: 90, align: "right" },
        { header: "VAT", width: 90, align: "right" },
      ],
      inv.vat_breakdown.map((b) => [`${b.rate}%`, money(b.net), money(b.vat)]),
    );

    const payBy = `Please pay by ${inv.due_date} quoting ${inv.number}.`;
    ensureSpace(doc, measure(doc, payBy, { size: 10, width: contentWidth(doc) }) + 4);
    write(doc, payBy, left(doc), doc.y + 4, { size: 10, bold: true });
  });
}

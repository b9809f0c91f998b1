import { quantityIn } from "../catalog/products/units.ts";
import { dayLabel } from "../trade/calendar.ts";
import { type DocumentCompany, money, shopAndCompany } from "../trade/invoices/document-pdf.ts";
import type { ShopDetails } from "../trade/invoices/invoices.ts";
import { blocks, caption, contentWidth, ensureSpace, header, left, measure, renderPdf, table, write } from "../../lib/pdf.ts";
import type { QuoteSnapshot } from "./statuses.ts";
import { discountPercent, quoteTotals } from "./totals.ts";

/** What the PDF prints: one version of a quote (the current one, or a revision as it was sent). */
export interface QuoteDocument {
  number: string;
  revision: number;
  /** A draft is marked so: only staff see one before it is sent. */
  draft: boolean;
  issued_on: string;
  needed_by: string | null;
  notes: string;
  customer: { name: string; email: string };
  company: string | null;
  version: QuoteSnapshot;
  shop: ShopDetails;
}

/**
 * A quote as a PDF, laid out as the invoices are (trade/invoices/document-pdf.ts):
 * the shop and the customer, the dates, each line at its quoted price with
 * any discount off the customer's own price, the totals, and the terms.
 */
export function quotePdf(quote: QuoteDocument): Promise<Buffer> {
  const title = `Quote ${quote.number}${quote.revision > 1 ? ` (revision ${quote.revision})` : ""}`;
  return renderPdf({ title, footer: `${quote.shop.name} \u00b7 ${title}` }, (doc) => {
    const continued = `${title} (continued)`;
    header(doc, quote.draft ? "QUOTE (DRAFT)" : "QUOTE", quote.number);
    const company: DocumentCompany = { name: quote.company ?? quote.customer.name, address: quote.company ? [quote.customer.name, quote.customer.email] : [quote.customer.email], company_number: null, vat_number: null };
    shopAndCompany(doc, { name: quote.shop.name, email: quote.shop.email, address: quote.shop.address, vat_number: quote.shop.vatNumber }, company, "Quote for");
    doc.y += 12;
    const half = contentWidth(doc) / 2;
    blocks(doc, [
      { x: 0, width: half - 10, lines: [`Date: ${dayLabel(quote.issued_on)}`, { text: `Valid until: ${quote.version.valid_until ? dayLabel(quote.version.valid_until) : "to be set"}`, bold: true }, `Revision: ${quote.revision}`] },
      { x: half, width: half, lines: [quote.needed_by ? `Needed by: ${dayLabel(quote.needed_by)}` : "", quote.notes ? `Your notes: ${quote.notes}` : ""] },
    ]);
    doc.y += 16;
    const v = quote.version;
    const totals = quoteTotals(
      v.lines.map((l) => ({ quantity: l.quantity, unitPrice: l.unit_price, vatRate: l.vat_rate })),
      v.delivery_ex_vat,
    );
    const rowsHeight = 5 * 18 + 16;
    table(
      doc,
      [
        { header: "Item" },
        { header: "SKU", width: 80 },
        { header: "Qty", width: 45, align: "right" },
        { header: "Unit ex VAT", width: 68, align: "right" },
        { header: "Discount", width: 52, align: "right" },
        { header: "VAT", width: 34, align: "right" },
        { header: "Total ex VAT", width: 72, align: "right" },
      ],
      v.lines.map((l, i) => {
        const off = discountPercent(l.base_price, l.unit_price);
        return [l.name, l.sku, quantityIn(l.quantity, l.unit), money(l.unit_price), off > 0 ? `${off}%` : "", `${l.vat_rate}%`, money(totals.lines[i]!.net)];
      }),
      { continued, keepAfter: rowsHeight },
    );
    doc.y += 10;
    ensureSpace(doc, rowsHeight, continued);
    caption(doc, "Totals");
    table(
      doc,
      [{ header: "" }, { header: "Amount", width: 110, align: "right" }],
      [
        ["Goods ex VAT", money(totals.subtotal)],
        ["VAT", money(totals.vat)],
        ["Delivery inc VAT", totals.delivery === null ? "At our usual rates" : totals.delivery === 0 ? "Free" : money(totals.delivery)],
        ["Total", money(totals.total)],
      ],
    );
    const terms = [v.terms, "Prices are fixed until the date above. Accept this quote from your account to place the order at these prices; stock is reserved when you accept."].filter(Boolean).join("\n\n");
    doc.y += 8;
    ensureSpace(doc, 16 + measure(doc, terms, { size: 10, width: contentWidth(doc) }), continued);
    caption(doc, "Terms");
    write(doc, terms, left(doc), doc.y, { size: 10, width: contentWidth(doc) });
  });
}

import { blocks, caption, contentWidth, ensureSpace, header, left, measure, renderPdf, table, write } from "../../../lib/pdf.ts";
import { money, shopAndCompany } from "./document-pdf.ts";
import type { CreditNoteDocument } from "./documents.ts";

/** Pounds (as the desk's JSON carries them) to the documents' money. */
const fromPounds = (p: number) => money(Math.round(p * 100));

/**
 * A credit note as a PDF, laid out as the invoice is (document-pdf.ts): the
 * shop and the company, the invoice it credits and why, its lines, totals,
 * and how much was set against the invoice or left as credit on account.
 */
export function creditNotePdf(note: CreditNoteDocument): Promise<Buffer> {
  return renderPdf({ title: `Credit note ${note.number}`, footer: `${note.shop.name} \u00b7 Credit note ${note.number}` }, (doc) => {
    const continued = `Credit note ${note.number} (continued)`;
    header(doc, "CREDIT NOTE", note.number);
    shopAndCompany(doc, note.shop, note.company, "Credit to");
    doc.y += 12;
    const half = contentWidth(doc) / 2;
    blocks(doc, [
      { x: 0, width: half - 10, lines: [`Date: ${note.issued_on}`, { text: `Against invoice ${note.invoice_number}`, bold: true }] },
      { x: half, width: half, lines: [`Reason: ${note.reason}`] },
    ]);
    doc.y += 16;
    // A Discount column only when promotions took something off a line credited, as on the invoice.
    const discounted = note.lines.some((l) => l.discount > 0);
    table(
      doc,
      [
        { header: "Item" },
        { header: "Qty", width: 35, align: "right" },
        ...(discounted ? [{ header: "Discount", width: 70, align: "right" as const }] : []),
        { header: "Net", width: 80, align: "right" },
        { header: "VAT", width: 70, align: "right" },
      ],
      note.lines.map((l) => [l.description, String(l.quantity), ...(discounted ? [l.discount > 0 ? `-${fromPounds(l.discount)}` : ""] : []), fromPounds(l.net), fromPounds(l.vat)]),
      { continued },
    );
    doc.y += 10;
    ensureSpace(doc, 16 + 18 * 7, continued);
    caption(doc, "Totals");
    table(
      doc,
      [{ header: "" }, { header: "Amount", width: 110, align: "right" }],
      [
        ["Goods ex VAT", fromPounds(note.subtotal)],
        ["VAT", fromPounds(note.vat)],
        ["Delivery inc VAT", fromPounds(note.delivery)],
        ["Total credited", fromPounds(note.total)],
        [`Set against ${note.invoice_number}`, fromPounds(note.applied)],
        ["Credit on account", fromPounds(note.on_account)],
      ],
    );
    const closing = note.on_account > 0 ? `${fromPounds(note.on_account)} stays as credit on your account, set against what you owe.` : `This credit reduces what is left to pay on ${note.invoice_number}.`;
    ensureSpace(doc, measure(doc, closing, { size: 10, width: contentWidth(doc) }) + 4);
    write(doc, closing, left(doc), doc.y + 4, { size: 10, bold: true });
  });
}

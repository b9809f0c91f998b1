import { blocks, contentWidth, type Pdf } from "../../../lib/pdf.ts";

/**
 * What the trade desk's documents (invoice, credit note, statement) print
 * alike: pounds from pence, and the shop beside the company it writes to.
 */

/** Pence as pounds with a sign and thousands: `-£1,234.50`. */
export function money(pence: number): string {
  const sign = pence < 0 ? "-" : "";
  const abs = Math.abs(pence);
  return `${sign}\u00a3${Math.floor(abs / 100).toLocaleString("en-GB")}.${String(abs % 100).padStart(2, "0")}`;
}

export interface DocumentShop {
  name: string;
  email: string;
  address: string[];
  vat_number: string;
}

export interface DocumentCompany {
  name: string;
  address: string[];
  company_number: string | null;
  vat_number: string | null;
}

/** "From" the shop on the left, "{toCaption}" the company on the right, with their VAT (and company) numbers. */
export function shopAndCompany(doc: Pdf, shop: DocumentShop, company: DocumentCompany, toCaption: string): void {
  const half = contentWidth(doc) / 2;
  blocks(doc, [
    {
      x: 0,
      width: half - 10,
      caption: "From",
      lines: [{ text: shop.name, bold: true, size: 11 }, ...shop.address, shop.email, shop.vat_number ? `VAT number: ${shop.vat_number}` : ""],
    },
    {
      x: half,
      width: half,
      caption: toCaption,
      lines: [
        { text: company.name, bold: true, size: 11 },
        ...company.address,
        company.company_number ? `Company number: ${company.company_number}` : "",
        company.vat_number ? `VAT number: ${company.vat_number}` : "",
      ],
    },
  ]);
}

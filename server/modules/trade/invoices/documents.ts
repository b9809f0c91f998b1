import type { DocumentCompany, DocumentShop } from "./document-pdf.ts";
import type { ShopDetails } from "./invoices.ts";

/**
 * The documents the shop sends a trade account, as data: a credit note and a
 * monthly statement. Their services (credit-notes.ts, statements.ts) make them
 * and their PDF modules (credit-note-pdf.ts, statement-pdf.ts) print them; both
 * take the shapes from here, so neither module imports the other (no circle).
 */

export interface CreditNoteJson {
  number: string;
  invoice_number: string;
  company_name: string;
  reason: string;
  issued_on: string;
  subtotal: number;
  vat: number;
  delivery: number;
  total: number;
  /** Set against the invoice; the rest is credit on account. */
  applied: number;
  on_account: number;
  /** Pounds; `discount` is what promotions took off the quantity credited (ex VAT), `net` is after it. */
  lines: { source: string; description: string; quantity: number; net: number; vat: number; discount: number }[];
}

/** A credit note and what its PDF prints: the shop, the company, the lines. */
export interface CreditNoteDocument extends CreditNoteJson {
  account_id: number;
  shop: DocumentShop;
  company: DocumentCompany;
}

export type StatementLineKind = "invoice" | "credit_note" | "payment";

export interface StatementLine {
  date: string;
  kind: StatementLineKind;
  reference: string;
  /** The PO reference, the invoice credited, or the payment's method and reference. */
  details: string;
  /** Pence owed more (an invoice) or less (a credit note or payment). */
  debit: number;
  credit: number;
  /** The balance after this line. */
  balance: number;
}

export interface AgedDebt {
  days0to30: number;
  days31to60: number;
  days61to90: number;
  over90: number;
  /** Payments and credit not set against an invoice at the month's end (0 or less). */
  unallocated: number;
}

export interface Statement {
  month: string;
  periodStart: string;
  periodEnd: string;
  account: { id: number; companyName: string; address: string[]; companyNumber: string | null; vatNumber: string | null; accountsEmail: string; termsDays: number };
  /** A site's statement: only its invoices, their credit notes and the payments set against them. */
  site: { id: number; name: string } | null;
  shop: ShopDetails;
  openingBalance: number;
  lines: StatementLine[];
  closingBalance: number;
  aged: AgedDebt;
}

import { blocks, caption, contentWidth, ensureSpace, header, left, measure, renderPdf, table, write } from "../../../lib/pdf.ts";
import { dayLabel, monthLabel } from "../calendar.ts";
import { money, shopAndCompany } from "./document-pdf.ts";
import type { Statement, StatementLineKind } from "./documents.ts";

const KIND_LABEL: Record<StatementLineKind, string> = { invoice: "Invoice", credit_note: "Credit note", payment: "Payment" };

/**
 * The monthly statement as a PDF, in the invoice's layout: the shop and the
 * company, the period, the balance brought forward, each invoice, credit note
 * and payment with the running balance, the balance carried forward, and the
 * aged debt by invoice date.
 */
export function statementPdf(s: Statement): Promise<Buffer> {
  const label = monthLabel(s.month);
  // A site's statement says so wherever the company's name is printed.
  const whose = s.site ? `${s.account.companyName}, site ${s.site.name}` : s.account.companyName;
  return renderPdf({ title: `Statement ${label}: ${whose}`, footer: `${s.shop.name} \u00b7 Statement ${label} \u00b7 ${whose}` }, (doc) => {
    const continued = `Statement ${label} (continued)`;
    header(doc, "STATEMENT", label);
    shopAndCompany(doc, { name: s.shop.name, email: s.shop.email, address: s.shop.address, vat_number: s.shop.vatNumber }, { name: s.account.companyName, address: s.account.address, company_number: s.account.companyNumber, vat_number: s.account.vatNumber }, "Statement to");
    doc.y += 12;
    const half = contentWidth(doc) / 2;
    blocks(doc, [
      { x: 0, width: half - 10, lines: [`Period: ${dayLabel(s.periodStart)} to ${dayLabel(s.periodEnd)}`, `Account: ${s.account.id}`, ...(s.site ? [`Site: ${s.site.name}`] : []), `Terms: ${s.account.termsDays} days from the invoice date`] },
      { x: half, width: half, lines: [{ text: `Balance at ${dayLabel(s.periodEnd)}: ${money(s.closingBalance)}`, bold: true, size: 11 }] },
    ]);
    doc.y += 16;

    const rows = [
      [s.periodStart, "", "", "Brought forward", "", "", money(s.openingBalance)],
      ...s.lines.map((l) => [l.date, KIND_LABEL[l.kind], l.reference, l.details, l.debit ? money(l.debit) : "", l.credit ? money(l.credit) : "", money(l.balance)]),
      [s.periodEnd, "", "", "Carried forward", "", "", money(s.closingBalance)],
    ];
    table(
      doc,
      [
        { header: "Date", width: 58 },
        { header: "Type", width: 58 },
        { header: "Reference", width: 72 },
        { header: "Details" },
        { header: "Debit", width: 62, align: "right" },
        { header: "Credit", width: 62, align: "right" },
        { header: "Balance", width: 66, align: "right" },
      ],
      rows,
      { continued },
    );
    doc.y += 6;

    ensureSpace(doc, 16 + 18 * 2, continued);
    caption(doc, "Aged debt at the end of the month, by invoice date");
    const agedRows = [[money(s.aged.days0to30), money(s.aged.days31to60), money(s.aged.days61to90), money(s.aged.over90), money(s.aged.unallocated), money(s.closingBalance)]];
    table(
      doc,
      [
        { header: "0-30 days", align: "right" },
        { header: "31-60 days", align: "right" },
        { header: "61-90 days", align: "right" },
        { header: "Over 90 days", align: "right" },
        { header: "Unallocated", align: "right" },
        { header: "Balance", align: "right" },
      ],
      agedRows,
      { continued },
    );

    const note =
      s.closingBalance > 0
        ? `Please pay any invoice past its due date now, quoting its number. ${s.shop.email}`
        : s.closingBalance < 0
          ? `Your account is in credit: we set it against your next invoices. ${s.shop.email}`
          : `Thank you: nothing is owed. ${s.shop.email}`;
    ensureSpace(doc, measure(doc, note, { size: 10, width: contentWidth(doc) }) + 4);
    write(doc, note, left(doc), doc.y + 4, { size: 10, bold: true });
  });
}

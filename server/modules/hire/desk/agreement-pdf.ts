import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { HttpError } from "../../../http-errors.ts";
import { blocks, caption, contentWidth, ensureSpace, header, left, measure, renderPdf, signatureBox, table, write } from "../../../lib/pdf.ts";
import { money } from "../../trade/invoices/invoice-pdf.ts";
import type { ShopDetails } from "../../trade/invoices/invoices.ts";
import { hireItems, hireRequestLines, hireRequests, hireUnits } from "../schema.ts";
import { hireHandovers } from "./schema.ts";

const TERMS = [
  "The equipment stays the shop's property. The hirer looks after it, uses it as its maker intends and returns it clean, with every accessory listed.",
  "To end the hire, call the shop: charging stops on the day you off-hire, and you are given an off-hire reference. Keep it.",
  "Equipment not off-hired by the return date is charged for each extra day at the rate card's prices.",
  "Damage beyond fair wear, loss, and cleaning that is needed are charged, each with its reason. The refundable deposit is set against the charges.",
];

/** One hand-over with what its agreement prints: the request, the item and unit, and the shop. */
export async function agreementData(db: Db, where: { handoverId: number; requestNumber: string } | { tokenHash: string }) {
  const [row] = await db
    .select({ handover: hireHandovers, request: hireRequests, line: hireRequestLines, item: hireItems, unit: hireUnits })
    .from(hireHandovers)
    .innerJoin(hireRequests, eq(hireRequests.id, hireHandovers.requestId))
    .innerJoin(hireRequestLines, eq(hireRequestLines.id, hireHandovers.requestLineId))
    .innerJoin(hireItems, eq(hireItems.id, hireRequestLines.hireItemId))
    .innerJoin(hireUnits, eq(hireUnits.id, hireHandovers.unitId))
    .where("tokenHash" in where ? eq(hireHandovers.agreementTokenHash, where.tokenHash) : and(eq(hireHandovers.id, where.handoverId), eq(hireRequests.number, where.requestNumber)))
    .limit(1);
  if (!row) throw new HttpError(404, "No such hire agreement.");
  return row;
}

/** The hire agreement to sign at hand-over: who hires what (asset and serial), when, at what rates, its condition out, the ID seen, and the terms. */
export function agreementPdf(shop: ShopDetails, data: Awaited<ReturnType<typeof agreementData>>): Promise<Buffer> {
  const { handover: h, request: r, line, item, unit } = data;
  const title = `Hire agreement ${h.agreementNumber}`;
  return renderPdf({ title, footer: `${shop.name} \u00b7 ${title} \u00b7 ${r.number}` }, (doc) => {
    header(doc, "HIRE AGREEMENT", h.agreementNumber);
    const half = contentWidth(doc) / 2;
    blocks(doc, [
      { x: 0, width: half - 10, caption: "Hired from", lines: [{ text: shop.name, bold: true, size: 11 }, ...shop.address, shop.email, shop.vatNumber ? `VAT number: ${shop.vatNumber}` : ""] },
      { x: half, width: half, caption: "Hirer", lines: [{ text: r.name, bold: true, size: 11 }, r.company, r.email, r.phone, ...[r.addressLine1, r.addressLine2, r.town, r.postcode].filter(Boolean)] },
    ]);
    doc.y += 12;
    blocks(doc, [
      { x: 0, width: half - 10, lines: [`Hire request: ${r.number}`, `Handed over: ${h.handedOverOn}`, { text: `Booked until: ${line.endDate}`, bold: true }] },
      { x: half, width: half, lines: [`ID checked: ${h.idChecked ? `yes, ${h.idType}` : "no"}`, `Collection or delivery: ${r.fulfilment}`] },
    ]);
    doc.y += 16;
    table(
      doc,
      [{ header: "Equipment" }, { header: "Asset", width: 80 }, { header: "Serial", width: 90 }, { header: "Deposit", width: 70, align: "right" }],
      [[item.name, unit.assetNumber, unit.serialNumber || "-", money(Math.round(line.deposit / line.quantity))]],
    );
    caption(doc, "Rates, ex VAT");
    table(
      doc,
      [{ header: "Day", align: "right" }, { header: "Weekend", align: "right" }, { header: "Week", align: "right" }, { header: "VAT", align: "right" }],
      [[money(item.dayRate), money(item.weekendRate), money(item.weekRate), `${item.vatRate}%`]],
    );
    caption(doc, "Condition on hand-over");
    const lines = [h.conditionOut, h.accessories ? `Accessories: ${h.accessories}` : "Accessories: none"];
    for (const text of lines) {
      const height = measure(doc, text, { size: 10, width: contentWidth(doc) });
      ensureSpace(doc, height + 4);
      write(doc, text, left(doc), doc.y, { size: 10, width: contentWidth(doc) });
      doc.y += 4;
    }
    doc.y += 8;
    caption(doc, "Terms");
    TERMS.forEach((text, i) => {
      const line = `${i + 1}. ${text}`;
      ensureSpace(doc, measure(doc, line, { size: 9, width: contentWidth(doc) }) + 3);
      write(doc, line, left(doc), doc.y, { size: 9, width: contentWidth(doc) });
      doc.y += 3;
    });
    doc.y += 10;
    signatureBox(doc, "Signed for the hirer", ["Name", "Signature", "Date"]);
    signatureBox(doc, "Handed over for the shop", ["Name", "Signature"]);
  });
}

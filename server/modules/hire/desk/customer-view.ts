import { asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { pounds } from "../../catalog/products/products.ts";
import { tradeInvoices } from "../../trade/invoices/invoice-schema.ts";
import { hireUnits } from "../schema.ts";
import { hireCharges, hireHandovers } from "./schema.ts";

/**
 * What the customer sees of the hire desk's work on their requests (issue
 * 21): each unit handed over with its agreement, off-hire date and reference
 * and return; the charge lines; the invoice a trade hire went on. Pounds.
 */
export async function hireProgress(db: Db, requestIds: number[]) {
  if (requestIds.length === 0) return new Map<number, never>();
  const [handovers, charges, invoices] = await Promise.all([
    db
      .select({ h: hireHandovers, asset: hireUnits.assetNumber })
      .from(hireHandovers)
      .innerJoin(hireUnits, eq(hireUnits.id, hireHandovers.unitId))
      .where(inArray(hireHandovers.requestId, requestIds))
      .orderBy(asc(hireHandovers.id)),
    db.select().from(hireCharges).where(inArray(hireCharges.requestId, requestIds)).orderBy(asc(hireCharges.id)),
    db.select({ requestId: tradeInvoices.hireRequestId, number: tradeInvoices.number, id: tradeInvoices.id }).from(tradeInvoices).where(inArray(tradeInvoices.hireRequestId, requestIds)),
  ]);
  return new Map(
    requestIds.map((id) => [
      id,
      {
        units: handovers
          .filter((r) => r.h.requestId === id)
          .map(({ h, asset }) => ({
            request_line_id: h.requestLineId,
            asset_number: asset,
            agreement_number: h.agreementNumber,
            handed_over_on: h.handedOverOn,
            off_hire_on: h.offHireOn,
            off_hire_reference: h.offHireReference,
            returned_on: h.returnedOn,
          })),
        charges: charges
          .filter((c) => c.requestId === id)
          .map((c) => ({ kind: c.kind, description: c.description, reason: c.reason, net: pounds(c.net), vat: pounds(c.vat), total: pounds(c.net + c.vat) })),
        invoice: invoices.find((i) => i.requestId === id) ?? null,
      },
    ]),
  );
}

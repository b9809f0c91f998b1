import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../../../db/client.ts";
import { HttpError } from "../../../http-errors.ts";
import { pounds } from "../../catalog/products/products.ts";
import { staff } from "../../staff/schema.ts";
import { branches } from "../../branches/schema.ts";
import { tradeInvoices } from "../../trade/invoices/invoice-schema.ts";
import { hireAllocations, hireItems, hireRequestLines, hireRequests, hireUnits } from "../schema.ts";
import { settlementOf } from "./charges.ts";
import { tradeAccountOf } from "./common.ts";
import { hireCharges, hireHandovers } from "./schema.ts";
import { HIRE_DESK_MOVES, type HireDeskMove, type HireRequestStatus, mayMove } from "./states.ts";
import { hireStatusLabel } from "../desk-labels.ts";

type HandoverRow = typeof hireHandovers.$inferSelect;

function handoverJson(h: HandoverRow, names: Map<number, string>) {
  const who = (id: number | null) => (id === null ? null : (names.get(id) ?? null));
  return {
    id: h.id,
    agreement_number: h.agreementNumber,
    handed_over_on: h.handedOverOn,
    handed_over_at: h.handedOverAt.toISOString(),
    handed_over_by: who(h.handedOverBy),
    condition_out: h.conditionOut,
    accessories: h.accessories,
    id_checked: h.idChecked,
    id_type: h.idType,
    off_hire_on: h.offHireOn,
    off_hire_reference: h.offHireReference,
    off_hire_note: h.offHireNote,
    off_hired_by: who(h.offHiredBy),
    returned_on: h.returnedOn,
    returned_by: who(h.returnedBy),
    condition_in: h.conditionIn,
  };
}

/** The hire request as the hire desk sees it: lines, units and their hand-overs, charges and settlement, and the moves open to it now. Money in pounds. */
export async function requestDetail(db: Db, number: string, cardPayments: boolean) {
  const [request] = await db.select().from(hireRequests).where(eq(hireRequests.number, number)).limit(1);
  if (!request) throw new HttpError(404, `No hire request ${number}.`);
  const lines = await db
    .select({ line: hireRequestLines, slug: hireItems.slug })
    .from(hireRequestLines)
    .innerJoin(hireItems, eq(hireItems.id, hireRequestLines.hireItemId))
    .where(eq(hireRequestLines.requestId, request.id))
    .orderBy(asc(hireRequestLines.id));
  const lineIds = lines.map((l) => l.line.id);
  const allocations = lineIds.length
    ? await db
        .select({ allocation: hireAllocations, asset: hireUnits.assetNumber, unitDepot: { id: branches.id, slug: branches.slug, name: branches.name }, handover: hireHandovers, start: sql<string>`lower(${hireAllocations.period})::text`, end: sql<string>`upper(${hireAllocations.period})::text` })
        .from(hireAllocations)
        .innerJoin(hireUnits, eq(hireUnits.id, hireAllocations.unitId))
        .innerJoin(branches, eq(branches.id, hireUnits.branchId))
        .leftJoin(hireHandovers, eq(hireHandovers.allocationId, hireAllocations.id))
        .where(and(inArray(hireAllocations.requestLineId, lineIds), sql`(${hireAllocations.releasedAt} is null or ${hireHandovers.id} is not null)`))
        .orderBy(asc(hireAllocations.id))
    : [];
  const staffIds = allocations.flatMap((a) => (a.handover ? [a.handover.handedOverBy, a.handover.offHiredBy, a.handover.returnedBy] : [])).filter((x): x is number => x !== null);
  const creator = alias(staff, "creator");
  const charges = await db
    .select({ charge: hireCharges, by: creator.name })
    .from(hireCharges)
    .leftJoin(creator, eq(creator.id, hireCharges.createdBy))
    .where(eq(hireCharges.requestId, request.id))
    .orderBy(asc(hireCharges.id));
  const names = new Map((staffIds.length ? await db.select({ id: staff.id, name: staff.name }).from(staff).where(inArray(staff.id, staffIds)) : []).map((s) => [s.id, s.name]));
  // Free units of each line's item over its dates: the choice at hand-over.
  const free = new Map<number, { id: number; asset_number: string }[]>();
  for (const { line } of lines) {
    const rows = await db
      .select({ id: hireUnits.id, asset_number: hireUnits.assetNumber })
      .from(hireUnits)
      .where(
        and(
          eq(hireUnits.hireItemId, line.hireItemId),
          eq(hireUnits.active, true),
          sql`not exists (select 1 from ${hireAllocations} a where a.unit_id = ${hireUnits.id} and a.released_at is null
            and (a.kind <> 'hold' or a.expires_at > now()) and a.period && daterange(${line.startDate}::date, greatest(${line.endDate}::date, ${line.startDate}::date + 1)))`,
        ),
      )
      .orderBy(asc(hireUnits.assetNumber));
    free.set(line.id, rows);
  }
  const trade = await tradeAccountOf(db, request.userId);
  const [depot] = request.branchId === null ? [] : await db.select({ slug: branches.slug, name: branches.name, id: branches.id }).from(branches).where(eq(branches.id, request.branchId));
  const [invoice] = await db.select({ number: tradeInvoices.number, id: tradeInvoices.id }).from(tradeInvoices).where(eq(tradeInvoices.hireRequestId, request.id)).limit(1);
  const s = charges.length ? settlementOf(charges.map((c) => c.charge), request.paidAmount ?? 0) : null;
  const status = request.status as HireRequestStatus;
  const moves = Object.fromEntries((Object.keys(HIRE_DESK_MOVES) as HireDeskMove[]).map((m) => [m, mayMove(status, m)])) as Record<HireDeskMove, boolean>;
  return {
    number: request.number,
    status,
    status_label: hireStatusLabel(status),
    created_at: request.createdAt.toISOString(),
    hold_expires_at: request.holdExpiresAt.toISOString(),
    customer: { name: request.name, email: request.email, phone: request.phone, company: request.company, user_id: request.userId, trade_account: trade ? { id: trade.id, company_name: trade.companyName } : null },
    fulfilment: request.fulfilment,
    /** The depot the hire goes out from (issue 30). */
    depot: depot ? { slug: depot.slug, name: depot.name } : null,
    /** Delivery and collection priced by the distance band from the depot, pounds ex VAT; null when not priced. */
    delivery: request.deliveryCharge === null ? null : { price: pounds(request.deliveryCharge), vat: pounds(request.deliveryVat), miles: request.deliveryMiles },
    address: [request.addressLine1, request.addressLine2, request.town, request.postcode].filter(Boolean),
    notes: request.notes,
    hire_cost: pounds(request.hireCost),
    vat: pounds(request.vat),
    deposit: pounds(request.deposit),
    paid: request.paidAmount === null ? null : pounds(request.paidAmount),
    paid_at: request.paidAt?.toISOString() ?? null,
    decision_reason: request.decisionReason,
    proposed: request.proposedStartDate ? { start_date: request.proposedStartDate, end_date: request.proposedEndDate! } : null,
    lines: lines.map(({ line, slug }) => ({
      id: line.id,
      hire_item: slug,
      name: line.name,
      quantity: line.quantity,
      start_date: line.startDate,
      end_date: line.endDate,
      days: line.days,
      hire_cost: pounds(line.hireCost),
      vat: pounds(line.vat),
      deposit: pounds(line.deposit),
      units: allocations
        .filter((a) => a.allocation.requestLineId === line.id)
        .map((a) => ({
          allocation_id: a.allocation.id,
          unit_id: a.allocation.unitId,
          asset_number: a.asset,
          /** Where the unit is based now; `transfer_from` when it is at another depot than the request's and still to go out: the desk moves it. */
          unit_depot: { slug: a.unitDepot.slug, name: a.unitDepot.name },
          transfer_from: depot && a.unitDepot.id !== depot.id && !a.handover && !a.allocation.releasedAt ? { slug: a.unitDepot.slug, name: a.unitDepot.name } : null,
          kind: a.allocation.kind,
          start_date: a.start,
          end_date: a.end,
          state: a.handover?.returnedOn ? "returned" : a.handover?.offHireOn ? "off_hired" : a.allocation.kind === "out" ? "out" : a.allocation.releasedAt ? "released" : "booked",
          handover: a.handover ? handoverJson(a.handover, names) : null,
        })),
      free_units: free.get(line.id) ?? [],
    })),
    charges: charges.map(({ charge: c, by }) => ({
      id: c.id,
      kind: c.kind,
      description: c.description,
      reason: c.reason,
      net: pounds(c.net),
      vat_rate: c.vatRate,
      vat: pounds(c.vat),
      total: pounds(c.net + c.vat),
      created_by: by,
      created_at: c.createdAt.toISOString(),
    })),
    /** The charges so far inc VAT, the deposit held, what was paid up front and what is left (negative: to give back). */
    summary: s ? { charges: pounds(s.charges), net: pounds(s.net), vat: pounds(s.vat), deposit: pounds(s.deposit), paid: pounds(request.paidAmount ?? 0), due: pounds(s.due) } : null,
    settlement: request.settlement
      ? { method: request.settlement, final_total: request.finalTotal === null ? null : pounds(request.finalTotal), due: request.settlementDue === null ? null : pounds(request.settlementDue), note: request.settlementNote, settled_at: request.settledAt?.toISOString() ?? null, invoice_number: invoice?.number ?? null }
      : null,
    final_total: request.finalTotal === null ? null : pounds(request.finalTotal),
    /** How the final charges may be settled: a trade customer's on an account invoice; others by card (when offered) or as arranged. */
    settle_methods: trade ? ["account"] : cardPayments ? ["card", "arranged"] : ["arranged"],
    moves,
  };
}

export type HireRequestDetail = Awaited<ReturnType<typeof requestDetail>>;

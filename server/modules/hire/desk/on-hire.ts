import { randomBytes } from "node:crypto";
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { HttpError, ValidationError } from "../../../http-errors.ts";
import { recordAudit } from "../../audit/service.ts";
import { sha256 } from "../../auth/tokens.ts";
import type { StaffActor } from "../../staff/actor.ts";
import { DEFAULT_PRICING, addDays, dayNumber, londonDate } from "../pricing.ts";
import { hireAllocations, hireItems, hireRequestLines, hireRequests, hireUnits } from "../schema.ts";
import { lockFreeUnits } from "../requests.ts";
import { agreementData, agreementPdf } from "./agreement-pdf.ts";
import { chargeVat, unitCharge } from "./charges.ts";
import { type HireOperationsOptions, type HireRequestRow, emailCustomer, lockRequest, reference } from "./common.ts";
import { hireCharges, hireHandovers } from "./schema.ts";
import { type UnitState, checkMove, statusFromUnits } from "./states.ts";

export interface HandOverInput {
  allocation_id: number;
  /** The unit going out: the one booked, or another free unit of the same item. */
  asset_number: string;
  condition: string;
  accessories?: string;
  id_checked: boolean;
  id_type?: string;
}

export interface ExtraCharge {
  kind: "damage" | "cleaning" | "other";
  description?: string;
  reason: string;
  /** Pence ex VAT. */
  amount: number;
}

export interface ReturnInput {
  returned_on?: string;
  condition: string;
  charges?: ExtraCharge[];
  service_days?: number;
  service_reason?: string;
}

export const CHARGE_LABELS = { damage: "Damage", cleaning: "Cleaning", other: "Other charge" } as const;
const SHOP_VAT_RATE = 20;

/** Where each allocation of the request stands: booked, out, off-hired or returned. */
async function unitStates(tx: Db, requestId: number): Promise<UnitState[]> {
  const rows = await tx
    .select({ kind: hireAllocations.kind, released: hireAllocations.releasedAt, offHire: hireHandovers.offHireOn, returned: hireHandovers.returnedOn })
    .from(hireAllocations)
    .innerJoin(hireRequestLines, eq(hireRequestLines.id, hireAllocations.requestLineId))
    .leftJoin(hireHandovers, eq(hireHandovers.allocationId, hireAllocations.id))
    .where(and(eq(hireRequestLines.requestId, requestId), sql`(${hireAllocations.releasedAt} is null or ${hireHandovers.id} is not null)`));
  return rows.map((r) => (r.returned ? "returned" : r.offHire ? "off_hired" : r.kind === "out" ? "out" : "booked"));
}

/**
 * The hire desk at the counter (issue 21): a unit handed over, off-hired by
 * the customer, returned and charged, or sent to service. Each move is
 * checked against the transition table under the request's row lock, and
 * the request's state follows its units.
 */
export function createOnHire(db: Db, options: HireOperationsOptions) {
  const settings = options.settings ?? DEFAULT_PRICING;
  const agreementUrl = (token: string) => `${options.publicUrl}/api/hire-agreements/${token}`;

  async function restate(tx: Db, request: HireRequestRow): Promise<string> {
    const status = statusFromUnits(await unitStates(tx, request.id));
    if (status !== request.status) await tx.update(hireRequests).set({ status, updatedAt: sql`now()` }).where(eq(hireRequests.id, request.id));
    else await tx.update(hireRequests).set({ updatedAt: sql`now()` }).where(eq(hireRequests.id, request.id));
    return status;
  }

  async function handoverOf(tx: Db, request: HireRequestRow, id: number) {
    const [row] = await tx
      .select({ handover: hireHandovers, asset: hireUnits.assetNumber, line: hireRequestLines, item: hireItems })
      .from(hireHandovers)
      .innerJoin(hireUnits, eq(hireUnits.id, hireHandovers.unitId))
      .innerJoin(hireRequestLines, eq(hireRequestLines.id, hireHandovers.requestLineId))
      .innerJoin(hireItems, eq(hireItems.id, hireRequestLines.hireItemId))
      .where(and(eq(hireHandovers.id, id), eq(hireHandovers.requestId, request.id)))
      .for("update", { of: hireHandovers });
    if (!row) throw new HttpError(404, `No such hand-over on ${request.number}.`);
    return row;
  }

  async function insertCharge(tx: Db, actor: StaffActor, requestId: number, handoverId: number | null, c: { kind: (typeof hireCharges.$inferInsert)["kind"]; description: string; reason?: string; net: number; vatRate: number }) {
    await tx.insert(hireCharges).values({
      requestId,
      handoverId,
      kind: c.kind,
      description: c.description,
      reason: c.reason ?? "",
      net: c.net,
      vatRate: c.vatRate,
      vat: c.kind === "deposit" ? 0 : chargeVat(c.net, c.vatRate),
      createdBy: actor.staffId > 0 ? actor.staffId : null,
    });
  }

  function checkExtras(extras: ExtraCharge[]): void {
    const errors: Record<string, string[]> = {};
    extras.forEach((c, i) => {
      if (!c.reason.trim()) errors[`charges.${i}.reason`] = ["Give the reason for the charge: the customer sees it."];
      if (!(c.amount > 0)) errors[`charges.${i}.amount`] = ["Give an amount above £0."];
    });
    if (Object.keys(errors).length) throw new ValidationError(errors);
  }

  return {
    async handOver(actor: StaffActor, number: string, input: HandOverInput) {
      const condition = input.condition.trim();
      const errors: Record<string, string[]> = {};
      if (!condition) errors.condition = ["Record the unit's condition as it goes out."];
      if (input.id_checked && !input.id_type?.trim()) errors.id_type = ["Say which ID was checked."];
      if (Object.keys(errors).length) throw new ValidationError(errors);
      return db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const request = await lockRequest(tx, number);
        checkMove(number, request.status, "hand_over");
        const [found] = await tx
          .select({ allocation: hireAllocations, line: hireRequestLines, item: hireItems })
          .from(hireAllocations)
          .innerJoin(hireRequestLines, eq(hireRequestLines.id, hireAllocations.requestLineId))
          .innerJoin(hireItems, eq(hireItems.id, hireRequestLines.hireItemId))
          .where(and(eq(hireAllocations.id, input.allocation_id), eq(hireRequestLines.requestId, request.id), isNull(hireAllocations.releasedAt)))
          .for("update", { of: hireAllocations });
        if (!found) throw new HttpError(404, `That unit is not booked on ${number}.`);
        if (found.allocation.kind !== "booking") throw new HttpError(409, `That unit of ${found.item.name} has already been handed over.`);
        const [unit] = await tx
          .select()
          .from(hireUnits)
          .where(and(eq(sql`lower(${hireUnits.assetNumber})`, input.asset_number.trim().toLowerCase()), eq(hireUnits.hireItemId, found.item.id)))
          .limit(1);
        if (!unit || !unit.active) throw new ValidationError({ asset_number: [`${input.asset_number} is not an active unit of ${found.item.name}.`] });
        // Swapping the unit takes the item's allocation lock; the exclusion constraint refuses one already out or booked.
        await tx.execute(sql`select pg_advisory_xact_lock(7301, ${found.item.id})`);
        await tx.update(hireAllocations).set({ kind: "out", unitId: unit.id }).where(eq(hireAllocations.id, found.allocation.id));
        const token = randomBytes(24).toString("base64url");
        const [row] = await tx
          .insert(hireHandovers)
          .values({
            requestId: request.id,
            requestLineId: found.line.id,
            allocationId: found.allocation.id,
            unitId: unit.id,
            agreementNumber: `pending-${crypto.randomUUID()}`,
            agreementTokenHash: sha256(token),
            handedOverOn: londonDate(),
            handedOverBy: actor.staffId > 0 ? actor.staffId : null,
            conditionOut: condition,
            accessories: input.accessories?.trim() ?? "",
            idChecked: input.id_checked,
            idType: input.id_checked ? (input.id_type?.trim() ?? "") : "",
          })
          .returning({ id: hireHandovers.id });
        const agreement = reference("HA", row!.id);
        await tx.update(hireHandovers).set({ agreementNumber: agreement }).where(eq(hireHandovers.id, row!.id));
        const status = await restate(tx, request);
        await recordAudit(tx, actor, {
          action: "hire_request.handed_over",
          entity: "hire_request",
          entityId: number,
          before: { status: request.status },
          after: { status, asset_number: unit.assetNumber, agreement, condition, accessories: input.accessories?.trim() ?? "", id_checked: input.id_checked, id_type: input.id_type?.trim() ?? "" },
        });
        // The agreement as the desk prints it, from this transaction's rows, attached to sign and keep.
        const pdf = await agreementPdf(options.shop, await agreementData(tx, { handoverId: row!.id, requestNumber: number }));
        await emailCustomer(
          options,
          tx,
          request,
          `Hire agreement ${agreement} for ${number}`,
          `${found.item.name} is on hire`,
          [
            `${found.item.name} (unit ${unit.assetNumber}) went out on hire today under agreement ${agreement}, booked until ${found.line.endDate}.`,
            "Your hire agreement is attached as a PDF, and is also at the link below. To end the hire early, call us: charging stops on the day you off-hire, and we give you an off-hire reference.",
          ],
          { label: `Hire agreement ${agreement} (PDF)`, url: agreementUrl(token) },
          [{ filename: `${agreement}.pdf`, contentType: "application/pdf", content: pdf }],
        );
        return { number, status, handover_id: row!.id, agreement_number: agreement, asset_number: unit.assetNumber };
      });
    },

    /** The customer ends the hire (usually by phone): charging stops on `date`, and each unit gets an off-hire reference, emailed. */
    async offHire(actor: StaffActor, number: string, input: { date?: string; note?: string; handover_ids?: number[] }) {
      const date = input.date ?? londonDate();
      return db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const request = await lockRequest(tx, number);
        checkMove(number, request.status, "off_hire");
        const open = await tx
          .select({ handover: hireHandovers, asset: hireUnits.assetNumber, name: hireRequestLines.name })
          .from(hireHandovers)
          .innerJoin(hireUnits, eq(hireUnits.id, hireHandovers.unitId))
          .innerJoin(hireRequestLines, eq(hireRequestLines.id, hireHandovers.requestLineId))
          .where(and(eq(hireHandovers.requestId, request.id), isNull(hireHandovers.offHireOn), isNull(hireHandovers.returnedOn), ...(input.handover_ids?.length ? [inArray(hireHandovers.id, input.handover_ids)] : [])))
          .orderBy(asc(hireHandovers.id))
          .for("update", { of: hireHandovers });
        if (open.length === 0) throw new HttpError(409, `No unit on ${number} is still on hire to off-hire.`);
        const earliest = open.reduce((d, o) => (dayNumber(o.handover.handedOverOn)! > dayNumber(d)! ? o.handover.handedOverOn : d), open[0]!.handover.handedOverOn);
        if (dayNumber(date)! < dayNumber(earliest)!) throw new ValidationError({ date: [`The off-hire date cannot be before the unit went out (${earliest}).`] });
        const refs: string[] = [];
        for (const o of open) {
          const ref = reference("OH", o.handover.id);
          await tx
            .update(hireHandovers)
            .set({ offHireOn: date, offHireReference: ref, offHireNote: input.note?.trim() ?? "", offHiredAt: sql`now()`, offHiredBy: actor.staffId > 0 ? actor.staffId : null })
            .where(eq(hireHandovers.id, o.handover.id));
          refs.push(`${o.name} (unit ${o.asset}): off-hire reference ${ref}`);
        }
        const status = await restate(tx, request);
        await recordAudit(tx, actor, { action: "hire_request.off_hired", entity: "hire_request", entityId: number, before: { status: request.status }, after: { status, off_hire_on: date, references: refs, note: input.note?.trim() ?? "" } });
        await emailCustomer(options, tx, request, `Off-hire confirmed for ${number}`, `Off-hire confirmed for ${number}`, [
          `We have recorded the end of your hire on ${date}: charging stops on that day, whenever we collect or you bring it back.`,
          ...refs,
          "Please keep the reference: quote it if you call us about this hire.",
        ]);
        return { number, status, off_hire_on: date, references: open.map((o) => reference("OH", o.handover.id)) };
      });
    },

    /**
     * A unit back in: its condition, its hire charged by the rate card for the
     * days actually out (to the off-hire date, else the return date), late
     * days past the booked return, any damage, cleaning or other charges; and,
     * optionally, a stay in service. The last unit back releases the units
     * never collected, holds back the deposit as a line, and fixes the total.
     */
    async returnUnit(actor: StaffActor, number: string, handoverId: number, input: ReturnInput) {
      const returnedOn = input.returned_on ?? londonDate();
      const extras = input.charges ?? [];
      const condition = input.condition.trim();
      if (!condition) throw new ValidationError({ condition: ["Record the unit's condition as it comes back."] });
      checkExtras(extras);
      if (input.service_days && !input.service_reason?.trim()) throw new ValidationError({ service_reason: ["Say why the unit goes to service (cleaning, repair)."] });
      return db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const request = await lockRequest(tx, number);
        checkMove(number, request.status, "return");
        const { handover, asset, line, item } = await handoverOf(tx, request, handoverId);
        if (handover.returnedOn) throw new HttpError(409, `Unit ${asset} was already returned on ${handover.returnedOn}.`);
        if (dayNumber(returnedOn)! < dayNumber(handover.handedOverOn)!) throw new ValidationError({ returned_on: [`The return date cannot be before the unit went out (${handover.handedOverOn}).`] });
        const charge = unitCharge(
          {
            rates: item,
            bookedStart: line.startDate,
            bookedEnd: line.endDate,
            agreedUnitPrice: Math.round(line.hireCost / line.quantity),
            handedOverOn: handover.handedOverOn,
            offHireOn: handover.offHireOn,
            returnedOn,
          },
          settings,
        );
        await tx
          .update(hireHandovers)
          .set({ returnedOn, returnedAt: sql`now()`, returnedBy: actor.staffId > 0 ? actor.staffId : null, conditionIn: condition })
          .where(eq(hireHandovers.id, handover.id));
        // Released, its dates trimmed to when it was really out.
        await tx.execute(sql`update ${hireAllocations} set released_at = now(),
          period = daterange(lower(period), greatest(${returnedOn}::date, lower(period) + 1)) where id = ${handover.allocationId}`);
        const days = (n: number) => `${n} day${n === 1 ? "" : "s"}`;
        await insertCharge(tx, actor, request.id, handover.id, { kind: "hire", description: `Hire of ${item.name} (unit ${asset}), ${charge.from} to ${charge.to > line.endDate ? line.endDate : charge.to}: ${days(charge.hireDays)}`, net: charge.hire, vatRate: item.vatRate });
        if (charge.lateDays > 0) {
          await insertCharge(tx, actor, request.id, handover.id, {
            kind: "late",
            description: `Late return of ${item.name} (unit ${asset}): ${days(charge.lateDays)} past ${line.endDate}`,
            reason: handover.offHireOn ? `Off-hired on ${handover.offHireOn}, after the booked return.` : `Returned on ${returnedOn}, not off-hired by the booked return.`,
            net: charge.late,
            vatRate: item.vatRate,
          });
        }
        for (const c of extras) {
          await insertCharge(tx, actor, request.id, handover.id, { kind: c.kind, description: c.description?.trim() || `${CHARGE_LABELS[c.kind]}: ${item.name} (unit ${asset})`, reason: c.reason.trim(), net: c.amount, vatRate: SHOP_VAT_RATE });
        }
        if (input.service_days) await serviceIn(tx, actor, handover.unitId, asset, returnedOn, input.service_days, input.service_reason!.trim());
        const status = await restate(tx, request);
        if (status === "returned") {
          // Units never collected go back to the fleet.
          const lineIds = tx.select({ id: hireRequestLines.id }).from(hireRequestLines).where(eq(hireRequestLines.requestId, request.id));
          await tx.update(hireAllocations).set({ releasedAt: sql`now()` }).where(and(inArray(hireAllocations.requestLineId, lineIds), isNull(hireAllocations.releasedAt)));
          if (request.paidAmount !== null && request.deposit > 0) {
            await insertCharge(tx, actor, request.id, null, { kind: "deposit", description: "Less the refundable deposit paid", net: -request.deposit, vatRate: 0 });
          }
          await fixTotal(tx, request.id);
        }
        await recordAudit(tx, actor, {
          action: "hire_request.returned",
          entity: "hire_request",
          entityId: number,
          before: { status: request.status },
          after: { status, asset_number: asset, returned_on: returnedOn, condition, hire: charge.hire / 100, late_days: charge.lateDays, late: charge.late / 100, charges: extras.map((c) => ({ kind: c.kind, amount: c.amount / 100, reason: c.reason })), ...(input.service_days ? { service_days: input.service_days } : {}) },
        });
        await emailCustomer(options, tx, request, `${item.name} returned: ${number}`, `We have ${item.name} back`, [
          `Unit ${asset} came back on ${returnedOn}. Thank you.`,
          status === "returned" ? "We will send the final charges for your hire shortly." : "The rest of your hire continues.",
        ]);
        return { number, status, hire: charge.hire, hire_days: charge.hireDays, late: charge.late, late_days: charge.lateDays };
      });
    },

    async addCharge(actor: StaffActor, number: string, input: ExtraCharge) {
      checkExtras([input]);
      return db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const request = await lockRequest(tx, number);
        checkMove(number, request.status, "charge");
        await insertCharge(tx, actor, request.id, null, { kind: input.kind, description: input.description?.trim() || CHARGE_LABELS[input.kind], reason: input.reason.trim(), net: input.amount, vatRate: SHOP_VAT_RATE });
        if (request.status === "returned") await fixTotal(tx, request.id);
        await recordAudit(tx, actor, { action: "hire_request.charged", entity: "hire_request", entityId: number, before: null, after: { kind: input.kind, amount: input.amount / 100, reason: input.reason.trim() } });
        return { number, status: request.status };
      });
    },

    /** A unit out of the fleet for `days` from `from` (cleaning, repair): the planner shows it, and nobody can book it then. */
    async sendToService(actor: StaffActor, unitId: number, input: { days: number; reason: string; from?: string }) {
      if (!input.reason.trim()) throw new ValidationError({ reason: ["Say why the unit goes to service."] });
      return db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const [unit] = await tx.select().from(hireUnits).where(eq(hireUnits.id, unitId));
        if (!unit) throw new HttpError(404, "No such hire unit.");
        const from = input.from ?? londonDate();
        await serviceIn(tx, actor, unit.id, unit.assetNumber, from, input.days, input.reason.trim());
        return { unit_id: unit.id, asset_number: unit.assetNumber, from, to: addDays(from, input.days), reason: input.reason.trim() };
      });
    },
  };

  async function serviceIn(tx: Db, actor: StaffActor, unitId: number, asset: string, from: string, days: number, reason: string) {
    const [unit] = await tx.select({ itemId: hireUnits.hireItemId }).from(hireUnits).where(eq(hireUnits.id, unitId));
    const to = addDays(from, days);
    // The item's allocation lock, its lapsed holds freed (as every allocator does).
    await lockFreeUnits(tx, unit!.itemId, `[${from},${to})`, 0);
    const [clash] = await tx
      .select({ start: sql<string>`lower(${hireAllocations.period})::text`, kind: hireAllocations.kind })
      .from(hireAllocations)
      .where(and(eq(hireAllocations.unitId, unitId), isNull(hireAllocations.releasedAt), sql`${hireAllocations.period} && daterange(${from}::date, ${to}::date)`, sql`(${hireAllocations.kind} <> 'hold' or ${hireAllocations.expiresAt} > now())`))
      .limit(1);
    if (clash) throw new HttpError(409, `Unit ${asset} is ${clash.kind === "service" ? "already in service" : "booked"} from ${clash.start}: it cannot go to service from ${from} to ${to}.`);
    await tx.insert(hireAllocations).values({ unitId, kind: "service", note: reason, period: `[${from},${to})` });
    await recordAudit(tx, actor, { action: "hire_unit.service", entity: "hire_unit", entityId: asset, before: null, after: { from, to, days, reason } });
  }

  async function fixTotal(tx: Db, requestId: number) {
    await tx.execute(sql`update ${hireRequests} set final_total_pence =
      (select coalesce(sum(net_pence + vat_pence), 0) from ${hireCharges} where request_id = ${requestId} and kind <> 'deposit') where id = ${requestId}`);
  }
}

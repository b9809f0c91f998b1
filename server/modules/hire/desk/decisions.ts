import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { HttpError, ValidationError } from "../../../http-errors.ts";
import { recordAudit } from "../../audit/service.ts";
import type { StaffActor } from "../../staff/actor.ts";
import { checkHireDates } from "../dates.ts";
import { DEFAULT_PRICING, addDays, londonDate, quoteLine, vatOn } from "../pricing.ts";
import { HOLD_HOURS, lockDepotUnits, period } from "../requests.ts";
import { hireDefaultDepot } from "../depots/service.ts";
import { hireAllocations, hireItems, hireRequestLines, hireRequests, hireUnits } from "../schema.ts";
import { type HireOperationsOptions, type HireRequestRow, emailCustomer, lockRequest, money } from "./common.ts";
import { checkMove } from "./states.ts";

/** What approval may change on a line, each with the request's reason. */
export interface ApproveLine {
  line_id: number;
  start_date?: string;
  end_date?: string;
  /** The exact units, by asset number: as many as the line's quantity. */
  asset_numbers?: string[];
  /** The line's hire, pence ex VAT, instead of the rate card's. */
  hire_cost?: number;
}

export interface ApproveInput {
  reason?: string;
  lines?: ApproveLine[];
}

const liveOf = (lineId: number) => and(eq(hireAllocations.requestLineId, lineId), isNull(hireAllocations.releasedAt), sql`(${hireAllocations.kind} <> 'hold' or ${hireAllocations.expiresAt} > now())`);

/**
 * Approve, decline and propose other dates (issue 21). Approval may move a
 * line's dates, choose its units or change its price, with a reason; a line
 * whose holds lapsed is allocated again. Units are taken under the per-item
 * advisory lock the customer's request takes, so the two never race past
 * each other; the exclusion constraint stays the backstop.
 */
export function createHireDecisions(db: Db, options: HireOperationsOptions) {
  const settings = options.settings ?? DEFAULT_PRICING;

  /**
   * Gives the line units for `[start, end)`: the ones named, or the first free
   * ones at the request's depot, then from other depots with a transfer day
   * before (issue 30).
   */
  async function allocate(tx: Db, line: typeof hireRequestLines.$inferSelect, item: typeof hireItems.$inferSelect, start: string, end: string, assets: string[] | undefined, depotId: number) {
    const range = period(start, end);
    // The line's own units first, so they count as free for its new dates (no one else sees that before commit).
    await tx.update(hireAllocations).set({ releasedAt: sql`now()` }).where(and(eq(hireAllocations.requestLineId, line.id), isNull(hireAllocations.releasedAt)));
    const free = await lockDepotUnits(tx, item.id, start, end, line.quantity, depotId, londonDate());
    let units: { id: number; period: string }[] = free;
    if (assets?.length) {
      const wanted = [...new Set(assets.map((a) => a.trim().toLowerCase()))];
      if (wanted.length !== line.quantity) throw new ValidationError({ [`lines.${line.id}.asset_numbers`]: [`Choose ${line.quantity} unit${line.quantity === 1 ? "" : "s"} of ${item.name}.`] });
      const named = await tx
        .select({ id: hireUnits.id, branchId: hireUnits.branchId })
        .from(hireUnits)
        .where(and(eq(hireUnits.hireItemId, item.id), eq(hireUnits.active, true), inArray(sql`lower(${hireUnits.assetNumber})`, wanted)));
      // A unit named from another depot travels the day before, as one taken for it would.
      units = named.map((u) => ({ id: u.id, period: u.branchId === depotId ? range : period(addDays(start, -1), end === start ? addDays(start, 1) : end) }));
      if (units.length !== wanted.length) throw new ValidationError({ [`lines.${line.id}.asset_numbers`]: [`Not every asset number given is an active unit of ${item.name}.`] });
    } else if (free.length < line.quantity) {
      throw new HttpError(409, `${item.name}: only ${free.length} of ${line.quantity} free from ${start} to ${end}. Choose other dates or units.`);
    }
    // Named units already taken for those dates fail here, on the exclusion constraint.
    await tx.insert(hireAllocations).values(units.map((u) => ({ unitId: u.id, requestLineId: line.id, kind: "booking", period: u.period })));
  }

  return {
    async approve(actor: StaffActor, number: string, input: ApproveInput) {
      const reason = input.reason?.trim() ?? "";
      return db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const request = await lockRequest(tx, number);
        checkMove(number, request.status, "approve");
        const rows = await tx
          .select({ line: hireRequestLines, item: hireItems })
          .from(hireRequestLines)
          .innerJoin(hireItems, eq(hireItems.id, hireRequestLines.hireItemId))
          .where(eq(hireRequestLines.requestId, request.id))
          .orderBy(asc(hireItems.id), asc(hireRequestLines.id));
        const changes = new Map((input.lines ?? []).map((l) => [l.line_id, l]));
        for (const id of changes.keys()) if (!rows.some((r) => r.line.id === id)) throw new ValidationError({ lines: [`Line ${id} is not on ${number}.`] });
        const today = londonDate();
        const said: string[] = [];
        const before = rows.map(({ line }) => ({ id: line.id, start: line.startDate, end: line.endDate, hire_cost: line.hireCost / 100 }));
        let changed = false;
        // Items in a fixed order (as the customer's request takes them), so two allocators never wait on each other in a cycle.
        for (const { line, item } of rows) {
          const c = changes.get(line.id);
          const start = c?.start_date ?? line.startDate;
          const end = c?.end_date ?? line.endDate;
          const newDates = start !== line.startDate || end !== line.endDate;
          if (newDates) checkHireDates(start, end, today);
          const live = await tx.select({ id: hireAllocations.id }).from(hireAllocations).where(liveOf(line.id));
          if (newDates || c?.asset_numbers?.length || live.length < line.quantity) await allocate(tx, line, item, start, end, c?.asset_numbers, request.branchId ?? (await hireDefaultDepot(tx)));
          const q = quoteLine(item, { quantity: line.quantity, startDate: start, endDate: end }, settings);
          const hireCost = c?.hire_cost ?? (newDates ? q.hireCost : line.hireCost);
          if (newDates || hireCost !== line.hireCost || c?.asset_numbers?.length) {
            changed = true;
            await tx
              .update(hireRequestLines)
              .set({ startDate: start, endDate: end, days: q.days, hireCost, vat: vatOn(hireCost, item.vatRate), deposit: q.deposit })
              .where(eq(hireRequestLines.id, line.id));
            said.push(`${line.quantity} × ${line.name}: ${start} to ${end}, hire ${money(hireCost)} + VAT.`);
          }
        }
        if (changed && !reason) throw new ValidationError({ reason: ["Say why the dates, units or price changed: the customer is told."] });
        if (changed) {
          await tx.execute(sql`
            update ${hireRequests} set
              hire_cost = (select coalesce(sum(hire_cost), 0) from ${hireRequestLines} where request_id = ${request.id}),
              vat = (select coalesce(sum(vat), 0) from ${hireRequestLines} where request_id = ${request.id}),
              deposit = (select coalesce(sum(deposit), 0) from ${hireRequestLines} where request_id = ${request.id})
            where id = ${request.id}`);
          const after = await tx.select().from(hireRequestLines).where(eq(hireRequestLines.requestId, request.id)).orderBy(asc(hireRequestLines.id));
          await recordAudit(tx, actor, {
            action: "hire_request.changed",
            entity: "hire_request",
            entityId: number,
            before: { lines: before },
            after: { lines: after.map((l) => ({ id: l.id, start: l.startDate, end: l.endDate, hire_cost: l.hireCost / 100 })), reason },
          });
        }
        const [fresh] = await tx.select().from(hireRequests).where(eq(hireRequests.id, request.id));
        return options.requests.decideLocked(tx, fresh!, "confirm", actor, { reason, paragraphs: said.length ? ["We changed your hire:", ...said] : [] });
      });
    },

    async decline(actor: StaffActor, number: string, reasonInput: string) {
      const reason = reasonInput.trim();
      if (!reason) throw new ValidationError({ reason: ["Say why the request is declined: the customer is told."] });
      return db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const request = await lockRequest(tx, number);
        return options.requests.decideLocked(tx, request, "decline", actor, { reason });
      });
    },

    /**
     * Offers the customer other dates by email. The request keeps waiting and
     * its holds on the dates asked for are kept another 48 hours, so nothing
     * is lost while the customer answers; approving with the new dates moves it.
     */
    async propose(actor: StaffActor, number: string, input: { start_date: string; end_date: string; message?: string }) {
      checkHireDates(input.start_date, input.end_date, londonDate());
      return db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const request: HireRequestRow = await lockRequest(tx, number);
        checkMove(number, request.status, "propose");
        const holdUntil = new Date(Math.max(request.holdExpiresAt.getTime(), Date.now() + HOLD_HOURS * 3_600_000));
        const lineIds = tx.select({ id: hireRequestLines.id }).from(hireRequestLines).where(eq(hireRequestLines.requestId, request.id));
        await tx
          .update(hireAllocations)
          .set({ expiresAt: holdUntil })
          .where(and(inArray(hireAllocations.requestLineId, lineIds), isNull(hireAllocations.releasedAt), eq(hireAllocations.kind, "hold"), sql`${hireAllocations.expiresAt} > now()`));
        const message = input.message?.trim() ?? "";
        await tx
          .update(hireRequests)
          .set({ proposedStartDate: input.start_date, proposedEndDate: input.end_date, holdExpiresAt: holdUntil, decisionReason: message, updatedAt: sql`now()` })
          .where(eq(hireRequests.id, request.id));
        await recordAudit(tx, actor, {
          action: "hire_request.proposed",
          entity: "hire_request",
          entityId: number,
          before: { proposed: request.proposedStartDate ? `${request.proposedStartDate} to ${request.proposedEndDate}` : null },
          after: { proposed: `${input.start_date} to ${input.end_date}`, message },
        });
        await emailCustomer(options, tx, request, `Hire request ${number}: other dates`, `Other dates for ${number}`, [
          `We cannot confirm hire request ${number} for the dates you asked, but we can offer ${input.start_date} to ${input.end_date}.`,
          ...(message ? [message] : []),
          `Reply to this email or call us to take those dates. We keep your request until ${holdUntil.toISOString().slice(0, 16).replace("T", " ")} UTC.`,
        ]);
        return { number, status: request.status, proposed: { start_date: input.start_date, end_date: input.end_date } };
      });
    },
  };
}

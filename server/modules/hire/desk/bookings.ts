import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { HttpError, ValidationError } from "../../../http-errors.ts";
import { recordAudit } from "../../audit/service.ts";
import { users } from "../../auth/schema.ts";
import { pounds } from "../../catalog/products/products.ts";
import type { StaffActor } from "../../staff/actor.ts";
import { checkHireDates } from "../dates.ts";
import { DEFAULT_PRICING, londonDate, quoteLine } from "../pricing.ts";
import { HOLD_HOURS, insertHireRequest, lockFreeUnits, period } from "../requests.ts";
import { hireAllocations, hireItems, hireRequestLines, hireRequests, hireUnits } from "../schema.ts";
import { liveAllocation } from "../service.ts";
import type { HireOperationsOptions } from "./common.ts";
import type { BookingInput, BookingQuoteInput } from "./contract.ts";

/**
 * Hires taken by staff (issue 34): at the counter, by phone, or from a free
 * cell of the planner. The booking is a hire request like the customer's own
 * (the same row, line and allocation, under the same per-item lock and the
 * exclusion constraint), held and then confirmed at once through the desk's
 * own approval, so it emails, audits and asks for payment as an approved
 * request does. `created_by_staff_id` says who booked it.
 */
export function createHireBookings(db: Db, options: HireOperationsOptions) {
  const settings = options.settings ?? DEFAULT_PRICING;

  async function itemOf(q: Db, slug: string) {
    const [item] = await q.select().from(hireItems).where(eq(hireItems.slug, slug)).limit(1);
    if (!item) throw new ValidationError({ hire_item: ["Choose a hire item from the list."] });
    return item;
  }

  /** The price of one unit for those dates by the rate card, with VAT and the deposit; refuses dates the storefront would. */
  async function price(q: Db, input: BookingQuoteInput) {
    const item = await itemOf(q, input.hire_item);
    try {
      checkHireDates(input.starts_on, input.ends_on, londonDate());
    } catch (error) {
      // The storefront's rule, under this API's field names.
      if (!(error instanceof ValidationError)) throw error;
      const { start_date, end_date } = error.errors;
      throw new ValidationError({ ...(start_date ? { starts_on: start_date } : {}), ...(end_date ? { ends_on: end_date } : {}) });
    }
    const line = quoteLine(item, { quantity: 1, startDate: input.starts_on, endDate: input.ends_on }, settings);
    return { item, line };
  }

  /** Who is booking: a customer's account, or a walk-in's name and phone (and email when given). */
  async function customerOf(tx: Db, input: BookingInput) {
    if (input.customer_id !== undefined) {
      const [user] = await tx.select().from(users).where(eq(users.id, input.customer_id)).limit(1);
      if (!user) throw new ValidationError({ customer_id: [`No customer #${input.customer_id}.`] });
      if (user.blockedAt) throw new ValidationError({ customer_id: ["This customer is blocked: unblock them before booking a hire for them."] });
      return { userId: user.id, name: `${user.firstname} ${user.lastname}`.trim(), email: user.email, phone: user.phone };
    }
    const c = input.customer!;
    return { userId: null, name: c.name, email: c.email ?? "", phone: c.phone };
  }

  /** What holds the unit over those dates, in words: the clash the desk is told about. */
  async function clashOf(tx: Db, unitId: number, range: string): Promise<string> {
    const [row] = await tx
      .select({
        asset: hireUnits.assetNumber,
        kind: hireAllocations.kind,
        note: hireAllocations.note,
        start: sql<string>`lower(${hireAllocations.period})::text`,
        end: sql<string>`upper(${hireAllocations.period})::text`,
        number: hireRequests.number,
        name: hireRequests.name,
      })
      .from(hireAllocations)
      .innerJoin(hireUnits, eq(hireUnits.id, hireAllocations.unitId))
      .leftJoin(hireRequestLines, eq(hireRequestLines.id, hireAllocations.requestLineId))
      .leftJoin(hireRequests, eq(hireRequests.id, hireRequestLines.requestId))
      .where(and(eq(hireAllocations.unitId, unitId), liveAllocation, sql`${hireAllocations.period} && ${range}::daterange`))
      .orderBy(sql`lower(${hireAllocations.period})`)
      .limit(1);
    if (!row) return "That unit is retired or not free for those dates.";
    const what = row.kind === "service" ? `in service${row.note ? ` (${row.note})` : ""}` : `${row.kind === "hold" ? "held" : row.kind === "out" ? "out" : "booked"} for ${row.number} (${row.name})`;
    return `Unit ${row.asset} is ${what} from ${row.start} until ${row.end}. Choose another unit or other dates.`;
  }

  return {
    async quote(input: BookingQuoteInput) {
      const { item, line } = await price(db, input);
      return {
        hire_item: { slug: item.slug, name: item.name },
        days: line.days,
        hire_ex_vat: pounds(line.hireCost),
        vat: pounds(line.vat),
        deposit: pounds(line.deposit),
        total: pounds(line.hireCost + line.vat + line.deposit),
      };
    },

    async book(actor: StaffActor, input: BookingInput) {
      return db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const { item, line } = await price(tx, input);
        const customer = await customerOf(tx, input);
        if (input.unit_id !== undefined) {
          const [unit] = await tx.select({ id: hireUnits.id }).from(hireUnits).where(and(eq(hireUnits.id, input.unit_id), eq(hireUnits.hireItemId, item.id)));
          if (!unit) throw new ValidationError({ unit_id: [`That unit is not one of ${item.name}'s.`] });
        }
        const range = period(input.starts_on, input.ends_on);
        // The per-item lock every allocator takes: two members booking at once take turns, and the second sees the first's unit taken.
        const [unit] = await lockFreeUnits(tx, item.id, range, 1, input.unit_id === undefined ? {} : { unitId: input.unit_id });
        if (!unit) {
          throw new HttpError(409, input.unit_id === undefined ? `Every unit of ${item.name} is taken from ${input.starts_on} to ${input.ends_on}. Choose other dates.` : await clashOf(tx, input.unit_id, range));
        }
        const holdExpiresAt = new Date(Date.now() + HOLD_HOURS * 3_600_000);
        const request = await insertHireRequest(tx, {
          userId: customer.userId,
          name: customer.name,
          email: customer.email,
          phone: customer.phone,
          fulfilment: "collection",
          notes: input.notes ?? "",
          branchId: unit.branchId,
          createdByStaffId: actor.staffId > 0 ? actor.staffId : null,
          hireCost: line.hireCost,
          vat: line.vat,
          deposit: line.deposit,
          holdExpiresAt,
        });
        const [requestLine] = await tx
          .insert(hireRequestLines)
          .values({ requestId: request.id, hireItemId: item.id, name: item.name, quantity: 1, startDate: input.starts_on, endDate: input.ends_on, days: line.days, hireCost: line.hireCost, vat: line.vat, deposit: line.deposit })
          .returning({ id: hireRequestLines.id });
        await tx.insert(hireAllocations).values({ unitId: unit.id, requestLineId: requestLine!.id, kind: "hold", period: range, expiresAt: holdExpiresAt });
        const [asset] = await tx.select({ asset: hireUnits.assetNumber }).from(hireUnits).where(eq(hireUnits.id, unit.id));
        await recordAudit(tx, actor, {
          action: "hire_request.booked",
          entity: "hire_request",
          entityId: request.number,
          before: null,
          after: {
            customer: customer.userId === null ? `${customer.name} (walk-in, ${customer.phone})` : `${customer.name} (customer #${customer.userId})`,
            hire: `${item.name}, unit ${asset!.asset}, ${input.starts_on} to ${input.ends_on}`,
            hire_ex_vat: pounds(line.hireCost),
            vat: pounds(line.vat),
            deposit: pounds(line.deposit),
          },
        });
        const [fresh] = await tx.select().from(hireRequests).where(eq(hireRequests.id, request.id));
        // Staff booked it, so it is confirmed now: the approval's own step turns the hold into a booking and tells the customer how to pay.
        const confirmed = await options.requests.decideLocked(tx, fresh!, "confirm", actor, {
          paragraphs: [`We have booked ${item.name} (unit ${asset!.asset}) for you from ${input.starts_on} to ${input.ends_on}, to collect from us.`],
        });
        return {
          number: confirmed.number,
          status: confirmed.status,
          unit: { id: unit.id, asset_number: asset!.asset },
          starts_on: input.starts_on,
          ends_on: input.ends_on,
          hire_ex_vat: pounds(line.hireCost),
          vat: pounds(line.vat),
          deposit: pounds(line.deposit),
        };
      });
    },

    /** The hire item a unit belongs to (the planner's free cell names only the unit), or null. */
    async itemOfUnit(unitId: number): Promise<string | null> {
      const [row] = await db.select({ slug: hireItems.slug }).from(hireUnits).innerJoin(hireItems, eq(hireItems.id, hireUnits.hireItemId)).where(eq(hireUnits.id, unitId));
      return row?.slug ?? null;
    },

    /** The units of an item in asset order, for the booking form's unit choice. */
    async units(slug: string) {
      const item = await itemOf(db, slug);
      return db
        .select({ id: hireUnits.id, asset_number: hireUnits.assetNumber })
        .from(hireUnits)
        .where(and(eq(hireUnits.hireItemId, item.id), eq(hireUnits.active, true)))
        .orderBy(asc(hireUnits.assetNumber));
    },
  };
}

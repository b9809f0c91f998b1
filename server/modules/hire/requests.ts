import { randomBytes } from "node:crypto";
import { and, asc, desc, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { recordAudit } from "../audit/service.ts";
import type { StaffActor } from "../staff/actor.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import type { BasketOwner } from "../../plugins/guest.ts";
import type { Outbox } from "../auth/service.ts";
import { sha256 } from "../auth/tokens.ts";
import { pounds } from "../catalog/products/products.ts";
import { renderEmail } from "../mail/templates.ts";
import { BUYING_ROLES } from "../trade/credit/credit.ts";
import { tradeAccounts, tradeMembers } from "../trade/schema.ts";
import { checkHireDates } from "./dates.ts";
import { hireProgress } from "./desk/customer-view.ts";
import { type HireRequestStatus, checkMove } from "./desk/states.ts";
import { type PricingSettings, DEFAULT_PRICING, addDays, londonDate, quoteLine } from "./pricing.ts";
import { hireAllocations, hireBasketLines, hireBaskets, hireItems, hireRequestLines, hireRequests, hireUnits } from "./schema.ts";
import { type DepotService, atDepot, createDepotService } from "./depots/service.ts";

export const HOLD_HOURS = 48;

/** What a hire request asks to pay up front, pence: the hire with VAT, delivery with VAT (when priced) and the deposit. */
export function upFrontTotal(r: { hireCost: number; vat: number; deposit: number; deliveryCharge: number | null; deliveryVat: number }): number {
  return r.hireCost + r.vat + (r.deliveryCharge ?? 0) + r.deliveryVat + r.deposit;
}

export interface HireRequestInput {
  name: string;
  email: string;
  phone: string;
  company: string;
  fulfilment: "delivery" | "collection";
  address_line1: string;
  address_line2: string;
  town: string;
  postcode: string;
  notes: string;
  /** The depot's slug; when absent, the hire basket's depot, else my branch when it is a depot, else the default depot. */
  depot?: string;
}

export type { HireRequestStatus } from "./desk/states.ts";
export type HireDecision = "confirm" | "decline" | "complete";

/** What a confirmation says about paying: its lines, a payment link to follow, and the hash of the link's token to keep. */
interface HirePayment {
  paragraphs: string[];
  action?: { label: string; url: string };
  tokenHash?: string;
}

/** A clash on `hire_allocations_no_overlap` (23P01): a unit already taken for those dates. */
export function isExclusionViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } };
  return e?.code === "23P01" || e?.cause?.code === "23P01";
}

/** `[start, return)`; a same-day hire still takes its unit for that day. */
export function period(start: string, end: string): string {
  return `[${start},${end === start ? addDays(start, 1) : end})`;
}

/**
 * Takes the item's allocation lock (`pg_advisory_xact_lock(7301, item)`, held
 * to the end of the transaction), frees its lapsed holds, and answers up to
 * `limit` active units free over `range`, in id order. Every allocator (the
 * customer's request, the desk's approval) goes through it.
 */
export async function lockFreeUnits(tx: Db, itemId: number, range: string, limit: number, where: { depotId?: number; otherThan?: number; unitId?: number } = {}): Promise<{ id: number; branchId: number }[]> {
  await tx.execute(sql`select pg_advisory_xact_lock(7301, ${itemId})`);
  await tx
    .update(hireAllocations)
    .set({ releasedAt: sql`now()` })
    .where(
      and(
        eq(hireAllocations.kind, "hold"),
        isNull(hireAllocations.releasedAt),
        lt(hireAllocations.expiresAt, sql`now()`),
        inArray(hireAllocations.unitId, tx.select({ id: hireUnits.id }).from(hireUnits).where(eq(hireUnits.hireItemId, itemId))),
      ),
    );
  return tx
    .select({ id: hireUnits.id, branchId: hireUnits.branchId })
    .from(hireUnits)
    .where(
      and(
        eq(hireUnits.hireItemId, itemId),
        eq(hireUnits.active, true),
        where.unitId === undefined ? undefined : eq(hireUnits.id, where.unitId),
        where.depotId === undefined ? undefined : eq(hireUnits.branchId, where.depotId),
        where.otherThan === undefined ? undefined : sql`${hireUnits.branchId} <> ${where.otherThan}`,
        sql`not exists (select 1 from ${hireAllocations} where ${hireAllocations.unitId} = ${hireUnits.id}
          and ${hireAllocations.releasedAt} is null and ${hireAllocations.period} && ${range}::daterange)`,
      ),
    )
    .orderBy(asc(hireUnits.id))
    .limit(limit);
}

/** A unit taken for a hire at a depot: its period, and whether it must first come from another depot. */
export interface DepotUnit {
  id: number;
  period: string;
  transfer: boolean;
}

/**
 * Units for a line at a depot (issue 30), under the item's allocation lock:
 * the depot's own first; then, for what is short, units at other depots free
 * from the day before (the transfer day, never in the past), held from that
 * day so the unit can travel. The hire desk records the transfer itself.
 */
export async function lockDepotUnits(tx: Db, itemId: number, start: string, end: string, quantity: number, depotId: number, today: string): Promise<DepotUnit[]> {
  const range = period(start, end);
  const here = await lockFreeUnits(tx, itemId, range, quantity, { depotId });
  const units: DepotUnit[] = here.map((u) => ({ id: u.id, period: range, transfer: false }));
  const transferDay = addDays(start, -1);
  if (units.length < quantity && transferDay >= today) {
    const wider = `[${transferDay},${end === start ? addDays(start, 1) : end})`;
    const there = await lockFreeUnits(tx, itemId, wider, quantity - units.length, { otherThan: depotId });
    units.push(...there.map((u) => ({ id: u.id, period: wider, transfer: true })));
  }
  return units;
}

/** A new hire request row with its number, `HR-000123` from its id: the customer's request and the counter's booking both make theirs here. */
export async function insertHireRequest(tx: Db, values: Omit<typeof hireRequests.$inferInsert, "number">): Promise<{ id: number; number: string }> {
  const [row] = await tx
    .insert(hireRequests)
    .values({ ...values, number: `pending-${crypto.randomUUID()}` })
    .returning({ id: hireRequests.id });
  const number = `HR-${String(row!.id).padStart(6, "0")}`;
  await tx.update(hireRequests).set({ number }).where(eq(hireRequests.id, row!.id));
  return { id: row!.id, number };
}

/** `cardPayments`: whether card payment is offered, so a confirmation may carry a payment link. */
export function createHireRequestService(db: Db, options: { mail: Outbox; appName: string; publicUrl: string; shopEmail: string; settings?: PricingSettings; cardPayments?: boolean; depots?: DepotService }) {
  const settings = options.settings ?? DEFAULT_PRICING;
  const depots = options.depots ?? createDepotService(db);

  function summaryLines(lines: { name: string; quantity: number; startDate: string; endDate: string }[]): string[] {
    return lines.map((l) => `${l.quantity} × ${l.name}, ${l.startDate} to ${l.endDate}`);
  }

  async function attempt(owner: BasketOwner, userId: number | null, input: HireRequestInput, mine: string | null) {
    return db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const ownerWhere = "userId" in owner ? eq(hireBaskets.userId, owner.userId) : eq(hireBaskets.guestTokenHash, owner.guestHash);
      // Lock the basket: the same basket cannot become two requests.
      const [basket] = await tx.select({ id: hireBaskets.id, branchId: hireBaskets.branchId }).from(hireBaskets).where(ownerWhere).for("update");
      const lines = basket
        ? await tx
            .select({ line: hireBasketLines, item: hireItems })
            .from(hireBasketLines)
            .innerJoin(hireItems, eq(hireItems.id, hireBasketLines.hireItemId))
            .where(eq(hireBasketLines.basketId, basket.id))
            .orderBy(asc(hireBasketLines.id))
        : [];
      if (!basket || lines.length === 0) throw new ValidationError({ basket: ["Your hire request is empty."] });

      const today = londonDate();
      const priced = lines.map(({ line, item }) => {
        checkHireDates(line.startDate, line.endDate, today);
        const q = quoteLine(item, line, settings);
        return { line, item, q };
      });
      const totals = priced.reduce((s, p) => ({ hire: s.hire + p.q.hireCost, vat: s.vat + p.q.vat, deposit: s.deposit + p.q.deposit }), { hire: 0, vat: 0, deposit: 0 });
      const depot = await depots.resolve({ slug: input.depot, id: basket.branchId, mine }, "depot", tx);
      // Priced now, from the depot chosen, and kept on the request as the customer saw it.
      const delivery = input.fulfilment === "delivery" ? await depots.deliveryPrice(depot, input.postcode, tx) : null;

      const holdExpiresAt = new Date(Date.now() + HOLD_HOURS * 3_600_000);
      const request = await insertHireRequest(tx, {
        userId,
        name: input.name,
        email: input.email,
        phone: input.phone,
        company: input.company,
        fulfilment: input.fulfilment,
        addressLine1: input.address_line1,
        addressLine2: input.address_line2,
        town: input.town,
        postcode: input.postcode,
        notes: input.notes,
        branchId: depot.id,
        deliveryCharge: delivery?.charge ?? null,
        deliveryVat: delivery?.vat ?? 0,
        deliveryMiles: delivery?.miles ?? null,
        hireCost: totals.hire,
        vat: totals.vat,
        deposit: totals.deposit,
        holdExpiresAt,
      });
      const number = request.number;

      // Items in a fixed order, so two requests never wait on each other's locks in a cycle.
      for (const { line, item, q } of [...priced].sort((a, b) => a.item.id - b.item.id)) {
        // One allocator per hire item at a time; the exclusion constraint is the backstop.
        const free = await lockDepotUnits(tx, item.id, line.startDate, line.endDate, line.quantity, depot.id, today);
        if (free.length < line.quantity) {
          throw new ValidationError({
            quantity: [free.length === 0 ? `${item.name}: none available${atDepot(depot)} for those dates.` : `${item.name}: only ${free.length} available${atDepot(depot)} for those dates.`],
          });
        }
        const [requestLine] = await tx
          .insert(hireRequestLines)
          .values({
            requestId: request.id,
            hireItemId: item.id,
            name: item.name,
            quantity: line.quantity,
            startDate: line.startDate,
            endDate: line.endDate,
            days: q.days,
            hireCost: q.hireCost,
            vat: q.vat,
            deposit: q.deposit,
          })
          .returning({ id: hireRequestLines.id });
        await tx.insert(hireAllocations).values(
          free.map((u) => ({ unitId: u.id, requestLineId: requestLine!.id, kind: "hold", period: u.period, expiresAt: holdExpiresAt })),
        );
      }
      await tx.delete(hireBasketLines).where(eq(hireBasketLines.basketId, basket.id));

      const lineText = summaryLines(priced.map((p) => ({ name: p.item.name, quantity: p.line.quantity, startDate: p.line.startDate, endDate: p.line.endDate })));
      const gbp = (pence: number) => `£${pounds(pence).toFixed(2)}`;
      const deliveryText = delivery ? ` Delivery and collection (${delivery.miles} miles from ${depot.name}) ${gbp(delivery.charge)} + VAT ${gbp(delivery.vat)}.` : "";
      const money = `Hire ${gbp(totals.hire)} + VAT ${gbp(totals.vat)};${deliveryText} Refundable deposit ${gbp(totals.deposit)}.`;
      const customer = renderEmail({
        appName: options.appName,
        publicUrl: options.publicUrl,
        title: `Hire request ${number} received`,
        paragraphs: [`Hello ${input.name},`, "Thank you for your hire request. We hold the equipment for 48 hours while we confirm it with you.", ...lineText, money],
      });
      await options.mail.enqueue(tx, { to: input.email, subject: `Your hire request ${number}`, ...customer });
      const staff = renderEmail({
        appName: options.appName,
        publicUrl: options.publicUrl,
        title: `New hire request ${number}`,
        paragraphs: [
          `${input.name} (${input.email}, ${input.phone})${input.company ? ` for ${input.company}` : ""}`,
          `Depot: ${depot.name}`,
          input.fulfilment === "delivery" ? `Deliver to: ${[input.address_line1, input.address_line2, input.town, input.postcode].filter(Boolean).join(", ")}` : `Collection from ${depot.name}`,
          ...lineText,
          money,
          ...(input.notes ? [`Notes: ${input.notes}`] : []),
        ],
      });
      await options.mail.enqueue(tx, { to: options.shopEmail, subject: `Hire request ${number}`, ...staff });
      return { id: request.id, number };
    });
  }

  /**
   * How a confirmed hire is paid: a member who buys for an approved trade
   * account has it on account; anyone else gets a card payment link for the
   * hire (with VAT) and the deposit, when card payment is offered. The link
   * is the shop's, not a payment page's, so it outlives any one page: only
   * its token's hash is kept.
   */
  async function howToPay(tx: Db, request: typeof hireRequests.$inferSelect): Promise<HirePayment> {
    const [trade] =
      request.userId === null
        ? []
        : await tx
            .select({ companyName: tradeAccounts.companyName })
            .from(tradeMembers)
            .innerJoin(tradeAccounts, eq(tradeAccounts.id, tradeMembers.tradeAccountId))
            .where(and(eq(tradeMembers.userId, request.userId), eq(tradeAccounts.state, "approved"), inArray(tradeMembers.role, [...BUYING_ROLES])))
            .limit(1);
    if (trade) return { paragraphs: [`The hire goes on ${trade.companyName}'s trade account, so there is nothing to pay now.`] };
    const total = upFrontTotal(request);
    if (!options.cardPayments || total <= 0) return { paragraphs: [] };
    const token = randomBytes(24).toString("base64url");
    const money = (pence: number) => `£${pounds(pence).toFixed(2)}`;
    return {
      paragraphs: [
        `To pay: the hire is ${money(request.hireCost + request.vat)} including VAT,${request.deliveryCharge ? ` delivery and collection ${money(request.deliveryCharge + request.deliveryVat)} including VAT,` : ""} and the refundable deposit ${money(request.deposit)}; ${money(total)} in all.`,
        "Pay by card with the link below, on a secure payment page. The link works until the hire is paid.",
      ],
      action: { label: `Pay ${money(total)} by card`, url: `${options.publicUrl}/api/payments/hire/${token}` },
      tokenHash: sha256(token),
    };
  }

  /**
   * A decision on a request already locked FOR UPDATE, checked against the
   * transition table (hire/desk/states.ts): confirm (holds become bookings,
   * the customer told how to pay), decline (units freed) or complete. The
   * hire desk's approve and decline end here too, with their reason and what
   * they changed, so the CLI and the desk send the same email.
   */
  async function decideLocked(tx: Db, request: typeof hireRequests.$inferSelect, decision: HireDecision, actor?: StaffActor, words: { reason?: string; paragraphs?: string[] } = {}) {
    const number = request.number;
    checkMove(number, request.status, decision === "confirm" ? "approve" : decision);
    const lineIds = tx.select({ id: hireRequestLines.id }).from(hireRequestLines).where(eq(hireRequestLines.requestId, request.id));
    const live = and(inArray(hireAllocations.requestLineId, lineIds), isNull(hireAllocations.releasedAt));
    const status = { confirm: "confirmed", decline: "declined", complete: "completed" }[decision];
    let payment: HirePayment = { paragraphs: [] };
    if (decision === "confirm") {
      const held = await tx.select({ id: hireAllocations.id }).from(hireAllocations).where(and(live, sql`(${hireAllocations.kind} <> 'hold' or ${hireAllocations.expiresAt} > now())`));
      if (held.length === 0) throw new HttpError(409, `The holds of ${number} have lapsed; ask the customer to request again.`);
      await tx.update(hireAllocations).set({ kind: "booking", expiresAt: null }).where(and(live, eq(hireAllocations.kind, "hold")));
      payment = await howToPay(tx, request);
    } else {
      await tx.update(hireAllocations).set({ releasedAt: sql`now()` }).where(live);
    }
    // A returned hire completed from the command line was settled as the shop arranged.
    const settled = decision === "complete" && request.status === "returned" ? { settlement: request.settlement ?? "arranged", settledAt: sql`now()` } : {};
    await tx
      .update(hireRequests)
      .set({
        status,
        updatedAt: sql`now()`,
        ...(words.reason !== undefined ? { decisionReason: words.reason } : {}),
        ...(decision !== "complete" ? { proposedStartDate: null, proposedEndDate: null } : {}),
        ...(payment.tokenHash ? { payTokenHash: payment.tokenHash } : {}),
        ...settled,
      })
      .where(eq(hireRequests.id, request.id));
    if (actor) {
      const action = `hire_request.${decision}`;
      await recordAudit(tx, actor, { action, entity: "hire_request", entityId: number, before: { status: request.status }, after: { status, ...(words.reason ? { reason: words.reason } : {}) } });
    }
    const said = { confirm: "is approved", decline: "could not be accepted", complete: "is complete. Thank you for hiring with us" }[decision];
    const mail = renderEmail({
      appName: options.appName,
      publicUrl: options.publicUrl,
      title: `Hire request ${number} ${decision === "confirm" ? "approved" : decision === "decline" ? "declined" : "completed"}`,
      paragraphs: [
        `Hello ${request.name},`,
        `Your hire request ${number} ${said}.`,
        ...(words.paragraphs ?? []),
        ...(words.reason ? [decision === "decline" ? `Why: ${words.reason}` : `Note from the hire desk: ${words.reason}`] : []),
        ...payment.paragraphs,
      ],
      ...(payment.action ? { action: payment.action } : {}),
    });
    // A walk-in booked at the counter may have given no email: they were told in person.
    if (request.email) await options.mail.enqueue(tx, { to: request.email, subject: `Hire request ${number}: ${status}`, ...mail });
    return { number, status };
  }

  return {
    /**
     * Turns the hire basket into a hire request: in one transaction it holds
     * specific units for each line's dates and empties the basket.
     */
    async create(owner: BasketOwner, userId: number | null, input: HireRequestInput, mine: string | null = null) {
      // Two allocators can only collide on the constraint if a unit was taken
      // outside the per-item lock; then the answer is the same as "not available".
      try {
        const made = await attempt(owner, userId, input, mine);
        options.mail.kick?.();
        return made;
      } catch (error) {
        if (isExclusionViolation(error)) throw new ValidationError({ quantity: ["Some of those dates were just taken. Please check availability again."] });
        throw error;
      }
    },

    async listForUser(userId: number) {
      const rows = await db.select().from(hireRequests).where(eq(hireRequests.userId, userId)).orderBy(desc(hireRequests.createdAt)).limit(100);
      const lines = rows.length
        ? await db.select().from(hireRequestLines).where(inArray(hireRequestLines.requestId, rows.map((r) => r.id))).orderBy(asc(hireRequestLines.id))
        : [];
      const progress = await hireProgress(db, rows.map((r) => r.id));
      return rows.map((r) => ({
        number: r.number,
        status: r.status as HireRequestStatus,
        created_at: r.createdAt.toISOString(),
        fulfilment: r.fulfilment,
        /** Delivery and collection, pounds ex VAT and its VAT, when priced by the distance bands. */
        delivery: r.deliveryCharge === null ? null : { price: pounds(r.deliveryCharge), vat: pounds(r.deliveryVat), miles: r.deliveryMiles },
        hire_cost: pounds(r.hireCost),
        vat: pounds(r.vat),
        deposit: pounds(r.deposit),
        paid_at: r.paidAt?.toISOString() ?? null,
        paid: r.paidAmount === null ? null : pounds(r.paidAmount),
        decision_reason: r.decisionReason,
        proposed: r.proposedStartDate ? { start_date: r.proposedStartDate, end_date: r.proposedEndDate! } : null,
        /** Each unit handed over: its agreement, off-hire date and reference, return. */
        units: progress.get(r.id)?.units ?? [],
        charges: progress.get(r.id)?.charges ?? [],
        /** The hire's final charges inc VAT once every unit is back; how they are settled, and what is left to pay by card (negative: refunded). */
        final_total: r.finalTotal === null ? null : pounds(r.finalTotal),
        settlement: r.settlement,
        due: r.settlementDue === null ? null : pounds(r.settlementDue),
        settled_at: r.settledAt?.toISOString() ?? null,
        /** What the customer may pay by card now (pounds): the hire and deposit once approved, or what is left of the final charges; null when nothing is. */
        pay_now: r.payTokenHash === null ? null : r.status === "returned" && r.settlement === "card" && r.settledAt === null && (r.settlementDue ?? 0) > 0 ? pounds(r.settlementDue!) : ["confirmed", "out", "off_hired"].includes(r.status) && r.paidAt === null ? pounds(upFrontTotal(r)) : null,
        invoice_number: progress.get(r.id)?.invoice?.number ?? null,
        invoice_id: progress.get(r.id)?.invoice?.id ?? null,
        lines: lines
          .filter((l) => l.requestId === r.id)
          .map((l) => ({ name: l.name, quantity: l.quantity, start_date: l.startDate, end_date: l.endDate, days: l.days, hire_cost: pounds(l.hireCost) })),
      }));
    },

    /** Pending requests whose holds ran out become `lapsed`, and their units are freed. */
    async lapseExpired(): Promise<number> {
      return db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const lapsed = await tx
          .update(hireRequests)
          .set({ status: "lapsed", updatedAt: sql`now()` })
          .where(and(eq(hireRequests.status, "pending"), lt(hireRequests.holdExpiresAt, sql`now()`)))
          .returning({ id: hireRequests.id });
        if (lapsed.length) {
          const lineIds = tx
            .select({ id: hireRequestLines.id })
            .from(hireRequestLines)
            .where(inArray(hireRequestLines.requestId, lapsed.map((r) => r.id)));
          await tx
            .update(hireAllocations)
            .set({ releasedAt: sql`now()` })
            .where(and(inArray(hireAllocations.requestLineId, lineIds), isNull(hireAllocations.releasedAt)));
        }
        return lapsed.length;
      });
    },

    /** Staff's decision on a request; `actor` is recorded in the audit log (the CLI passes `system`). */
    async decide(number: string, decision: HireDecision, actor?: StaffActor) {
      const done = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const [request] = await tx.select().from(hireRequests).where(eq(hireRequests.number, number)).for("update");
        if (!request) throw new HttpError(404, `No hire request ${number}.`);
        return decideLocked(tx, request, decision, actor);
      });
      options.mail.kick?.();
      return done;
    },

    decideLocked,
  };
}

export type HireRequestService = ReturnType<typeof createHireRequestService>;

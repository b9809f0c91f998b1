// The quotes desk (issue 32): the list by status, a quote's page, starting a
// quote for a customer, pricing it (never below the floor without a manager),
// sending it with its PDF, and declining it. Each change under the quote's
// row lock, on its timeline and in the audit log.
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { type FieldErrors, HttpError, ValidationError } from "../../http-errors.ts";
import { recordAudit } from "../audit/service.ts";
import { users } from "../auth/schema.ts";
import { penceFrom } from "../catalog/products/prices.ts";
import { pounds } from "../catalog/products/products.ts";
import { addDays, londonDate } from "../hire/calendar.ts";
import { type StaffActor, authorize } from "../staff/actor.ts";
import { money } from "../trade/invoices/document-pdf.ts";
import type { ShopDetails } from "../trade/invoices/invoices.ts";
import { type QuoteMailOptions, mailDeclined, mailSent } from "./emails.ts";
import { customerPricing, linesOfSkus, MAX_QUOTE_LINES } from "./lines.ts";
import { quotePdf } from "./pdf.ts";
import { checkFloor, floorFor } from "./price-floor.ts";
import { type LoadedQuote, type QuoteJson, type QuoteLineJson, loadQuote, quoteEvent, quoteSummaries, snapshotOf } from "./read.ts";
import { quoteLines, quoteRevisions, quotes } from "./schema.ts";
import { QUOTE_TRANSITIONS, type QuoteStatus, quoteMay } from "./statuses.ts";
import { priceAfterDiscount, quoteTotals } from "./totals.ts";

export const QUOTES_DESK_PAGE = 50;
/** How long a quote's prices hold when staff send it without a date. */
export const QUOTE_VALID_DAYS = 30;

export interface DeskQuoteJson extends QuoteJson {
  lines: (QuoteLineJson & { floor_ex_vat: number | null })[];
  can: { edit: boolean; send: boolean; decline: boolean };
}

export interface QuoteCreateInput {
  customer_email: string;
  lines: { sku: string; quantity: number }[];
  notes?: string;
  needed_by?: string;
}

export interface QuotePatch {
  lines?: { line_id: number; unit_price_ex_vat?: number; discount_percent?: number; quantity?: number; remove?: boolean }[];
  add_lines?: { sku: string; quantity: number }[];
  delivery_ex_vat?: number | null;
  valid_until?: string;
  terms?: string;
}

const NOT_FOUND = "Quote not found.";

export function createQuoteDesk(db: Db, options: QuoteMailOptions & { shop: ShopDetails }) {
  function deskJson(actor: StaffActor, loaded: LoadedQuote): DeskQuoteJson {
    return {
      ...loaded.json,
      lines: loaded.json.lines.map((l, i) => {
        const floor = floorFor(actor, loaded.lines[i]!.basePrice);
        return { ...l, floor_ex_vat: floor === null ? null : pounds(floor) };
      }),
      can: { edit: quoteMay("edit", loaded.row.status), send: quoteMay("send", loaded.row.status), decline: quoteMay("decline", loaded.row.status) },
    };
  }

  async function read(actor: StaffActor, number: string): Promise<DeskQuoteJson> {
    const loaded = await loadQuote(db, { number });
    if (!loaded) throw new HttpError(404, NOT_FOUND);
    return deskJson(actor, loaded);
  }

  /** The quote locked for a change that `action` allows; 409 naming its status otherwise. */
  async function locked(tx: Db, number: string, action: keyof typeof QUOTE_TRANSITIONS): Promise<LoadedQuote> {
    const [row] = await tx.select({ id: quotes.id }).from(quotes).where(eq(quotes.number, number)).for("update");
    if (!row) throw new HttpError(404, NOT_FOUND);
    const loaded = (await loadQuote(tx, { id: row.id }))!;
    if (!quoteMay(action, loaded.row.status)) throw new HttpError(409, `This quote is ${loaded.json.status_label.toLowerCase()}, so it cannot be ${{ edit: "changed", send: "sent", decline: "declined", accept: "accepted", changes: "changed", expire: "expired" }[action]}.`);
    return loaded;
  }

  return {
    async list(actor: StaffActor, query: { status?: QuoteStatus; cursor?: number }) {
      authorize(actor, "quotes.view");
      return quoteSummaries(db, query.status ? eq(quotes.status, query.status) : undefined, query.cursor, QUOTES_DESK_PAGE, false);
    },

    async get(actor: StaffActor, number: string): Promise<DeskQuoteJson> {
      authorize(actor, "quotes.view");
      return read(actor, number);
    },

    /** A quote staff start for a customer with an account, drafting, at the customer's own prices. */
    async create(actor: StaffActor, input: QuoteCreateInput): Promise<DeskQuoteJson> {
      authorize(actor, "quotes.manage");
      if (input.needed_by && input.needed_by < londonDate()) throw new ValidationError({ needed_by: ["The date needed by cannot be in the past."] });
      const number = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const [customer] = await tx.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${input.customer_email.trim().toLowerCase()}`).limit(1);
        if (!customer) throw new ValidationError({ customer_email: ["No customer has an account with this email. Ask them to register first, or check the spelling."] });
        const { prices, tradeAccountId } = await customerPricing(tx, customer.id);
        const lines = await linesOfSkus(tx, "lines", input.lines, prices);
        const [quote] = await tx
          .insert(quotes)
          .values({ status: "drafting", userId: customer.id, tradeAccountId, notes: input.notes ?? "", neededBy: input.needed_by || null, createdByStaffId: actor.staffId })
          .returning({ id: quotes.id, number: quotes.number });
        await tx.insert(quoteLines).values(lines.map((l) => ({ ...l, quoteId: quote!.id })));
        await quoteEvent(tx, quote!.id, "drafting", "staff", `Started by ${actor.name}.`);
        await recordAudit(tx, actor, { action: "quote.created", entity: "quote", entityId: quote!.number, after: { customer_email: input.customer_email, lines: input.lines, notes: input.notes ?? "" } });
        return quote!.number;
      });
      return read(actor, number);
    },

    /**
     * Prices and changes: each line's unit price (or a discount off the
     * customer's price), quantity or removal; new lines by SKU; delivery,
     * last day and terms. A sent or expired quote changed becomes the next
     * revision, drafting, until it is sent again.
     */
    async update(actor: StaffActor, number: string, patch: QuotePatch): Promise<DeskQuoteJson> {
      authorize(actor, "quotes.manage");
      const saved = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const loaded = await locked(tx, number, "edit");
        const { row } = loaded;
        const errors: FieldErrors = {};
        if (patch.valid_until && patch.valid_until < londonDate()) errors.valid_until = ["The last day cannot be in the past."];
        const byId = new Map(loaded.lines.map((l) => [l.id, l]));
        const repriced: { sku: string; basePrice: number; unitPrice: number }[] = [];
        const changes = (patch.lines ?? []).flatMap((change, i) => {
          const line = byId.get(change.line_id);
          if (!line) {
            errors[`lines.${i}.line_id`] = ["This line is not on the quote (it may have been removed meanwhile): reload the quote."];
            return [];
          }
          const unitPrice =
            change.unit_price_ex_vat !== undefined ? penceFrom(change.unit_price_ex_vat) : change.discount_percent !== undefined ? priceAfterDiscount(line.basePrice, change.discount_percent) : line.unitPrice;
          if (Number.isNaN(unitPrice) || unitPrice < 0) errors[`lines.${i}.unit_price_ex_vat`] = ["Enter a price in pounds and pence, £0.00 or more."];
          if (unitPrice !== line.unitPrice && change.remove !== true) repriced.push({ sku: line.sku, basePrice: line.basePrice, unitPrice });
          return [{ line, unitPrice, quantity: change.quantity ?? line.quantity, remove: change.remove === true }];
        });
        if (Object.keys(errors).length) throw new ValidationError(errors);
        const { prices } = await customerPricing(tx, row.userId);
        const added = patch.add_lines?.length ? await linesOfSkus(tx, "add_lines", patch.add_lines, prices) : [];
        const removed = new Set(changes.filter((c) => c.remove).map((c) => c.line.id));
        const remaining = loaded.lines.length - removed.size + added.length;
        if (remaining === 0) throw new ValidationError({ lines: ["A quote needs at least one line."] });
        if (remaining > MAX_QUOTE_LINES) throw new ValidationError({ add_lines: [`A quote has at most ${MAX_QUOTE_LINES} lines.`] });
        // The floor is the role's: checked on the prices changed now, so a manager's price stands when others edit the rest.
        checkFloor(actor, repriced);

        for (const c of changes) {
          if (c.remove) await tx.delete(quoteLines).where(eq(quoteLines.id, c.line.id));
          else if (c.unitPrice !== c.line.unitPrice || c.quantity !== c.line.quantity) await tx.update(quoteLines).set({ unitPrice: c.unitPrice, quantity: c.quantity }).where(eq(quoteLines.id, c.line.id));
        }
        if (added.length) await tx.insert(quoteLines).values(added.map((l) => ({ ...l, quoteId: row.id })));
        const delivery = patch.delivery_ex_vat === undefined ? row.deliveryExVat : patch.delivery_ex_vat === null ? null : penceFrom(patch.delivery_ex_vat);
        if (delivery !== null && (Number.isNaN(delivery) || delivery < 0)) throw new ValidationError({ delivery_ex_vat: ["Enter the delivery price in pounds and pence, £0.00 or more."] });
        // Changing what the customer was sent makes a new revision; the sent one is kept in quote_revisions.
        const newRevision = row.status === "sent" || row.status === "expired";
        await tx
          .update(quotes)
          .set({
            status: QUOTE_TRANSITIONS.edit.to,
            deliveryExVat: delivery,
            validUntil: patch.valid_until ?? row.validUntil,
            terms: patch.terms ?? row.terms,
            ...(newRevision ? { revision: sql`${quotes.revision} + 1`, remindedAt: null } : {}),
            updatedAt: sql`now()`,
          })
          .where(eq(quotes.id, row.id));
        if (newRevision || row.status === "requested") await quoteEvent(tx, row.id, "drafting", "staff", newRevision ? `${actor.name} started revision ${row.revision + 1}.` : `${actor.name} started pricing it.`);
        const after = (await loadQuote(tx, { id: row.id }))!;
        await recordAudit(tx, actor, { action: "quote.updated", entity: "quote", entityId: number, before: auditView(loaded), after: auditView(after) });
        return after;
      });
      // As read for the audit log, in the transaction that made it.
      return deskJson(actor, saved);
    },

    /** Sends the quote: the version kept as a revision, its PDF emailed with the link to accept it. */
    async send(actor: StaffActor, number: string): Promise<DeskQuoteJson> {
      authorize(actor, "quotes.manage");
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const loaded = await locked(tx, number, "send");
        const { row } = loaded;
        if (loaded.lines.length === 0) throw new ValidationError({ lines: ["A quote needs at least one line."] });
        const today = londonDate();
        if (row.validUntil && row.validUntil < today) throw new ValidationError({ valid_until: ["The last day has passed: set a new one before sending."] });
        const validUntil = row.validUntil ?? addDays(today, QUOTE_VALID_DAYS);
        const sent = { ...row, validUntil };
        const snapshot = snapshotOf(sent, loaded.lines);
        await tx.insert(quoteRevisions).values({ quoteId: row.id, revision: row.revision, snapshot });
        await tx.update(quotes).set({ status: QUOTE_TRANSITIONS.send.to, validUntil, sentAt: sql`now()`, remindedAt: null, updatedAt: sql`now()` }).where(eq(quotes.id, row.id));
        const pdf = await quotePdf({ number, revision: row.revision, draft: false, issued_on: today, needed_by: row.neededBy, notes: row.notes, customer: loaded.json.customer, company: loaded.json.company?.name ?? null, version: snapshot, shop: options.shop });
        const totals = quoteTotals(loaded.lines, row.deliveryExVat);
        await mailSent(tx, options, { number, email: loaded.json.customer.email, name: loaded.json.customer.name, revision: row.revision, validUntil, total: money(totals.total), pdf });
        await quoteEvent(tx, row.id, "sent", "staff", `${actor.name} sent revision ${row.revision}, valid until ${validUntil}.`);
        await recordAudit(tx, actor, { action: "quote.sent", entity: "quote", entityId: number, before: { status: row.status }, after: { status: "sent", revision: row.revision, valid_until: validUntil, total: money(totals.total) } });
      });
      options.mail.kick?.();
      return read(actor, number);
    },

    /** The shop cannot quote: the customer is told why. */
    async decline(actor: StaffActor, number: string, reason: string): Promise<DeskQuoteJson> {
      authorize(actor, "quotes.manage");
      if (!reason.trim()) throw new ValidationError({ reason: ["Say why, for the customer."] });
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const loaded = await locked(tx, number, "decline");
        await tx.update(quotes).set({ status: QUOTE_TRANSITIONS.decline.to, declineReason: reason, updatedAt: sql`now()` }).where(eq(quotes.id, loaded.row.id));
        await quoteEvent(tx, loaded.row.id, "declined", "staff", `${actor.name} declined it: ${reason}`);
        await mailDeclined(tx, options, { number, email: loaded.json.customer.email, name: loaded.json.customer.name, reason });
        await recordAudit(tx, actor, { action: "quote.declined", entity: "quote", entityId: number, before: { status: loaded.row.status }, after: { status: "declined", reason } });
      });
      options.mail.kick?.();
      return read(actor, number);
    },

    /** The PDF: a revision as it was sent, or the quote as it stands (marked a draft until sent). */
    async pdf(actor: StaffActor, number: string, revision?: number): Promise<Buffer> {
      authorize(actor, "quotes.view");
      const loaded = await loadQuote(db, { number });
      if (!loaded) throw new HttpError(404, NOT_FOUND);
      const { row } = loaded;
      const base = { number, needed_by: row.neededBy, notes: row.notes, customer: loaded.json.customer, company: loaded.json.company?.name ?? null, shop: options.shop };
      if (revision !== undefined) {
        const [kept] = await db.select().from(quoteRevisions).where(and(eq(quoteRevisions.quoteId, row.id), eq(quoteRevisions.revision, revision)));
        if (!kept) throw new HttpError(404, "This quote has no such revision.");
        return quotePdf({ ...base, revision, draft: false, issued_on: kept.sentAt.toISOString().slice(0, 10), version: kept.snapshot });
      }
      const draft = row.status === "requested" || row.status === "drafting";
      return quotePdf({ ...base, revision: row.revision, draft, issued_on: (row.sentAt ?? new Date()).toISOString().slice(0, 10), version: snapshotOf(row, loaded.lines) });
    },
  };
}

/** What the audit log keeps of a quote's change: prices in pounds, by SKU, never raw rows. */
function auditView(q: LoadedQuote) {
  return {
    status: q.row.status,
    revision: q.row.revision,
    valid_until: q.row.validUntil,
    delivery_ex_vat: q.json.delivery_ex_vat,
    terms: q.row.terms,
    lines: Object.fromEntries(q.json.lines.map((l) => [l.sku, `${l.quantity} at ${money(Math.round((l.unit_price_ex_vat ?? 0) * 100))}`])),
  };
}

export type QuoteDesk = ReturnType<typeof createQuoteDesk>;

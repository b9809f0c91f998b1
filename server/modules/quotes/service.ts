// The customer's side of quotes (issue 32): ask for one from the basket, see
// your quotes (and your company's, by your trade role), read one and its PDF,
// ask for changes or decline it. Accepting is accept.ts.
import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { users } from "../auth/schema.ts";
import { basketItems, baskets } from "../basket/schema.ts";
import { londonDate } from "../hire/calendar.ts";
import { basketPromotions } from "../promotions/schema.ts";
import type { ShopDetails } from "../trade/invoices/invoices.ts";
import { COMPANY_ORDER_READERS } from "../trade/dashboard.ts";
import { tradeMembers } from "../trade/schema.ts";
import { customerAccess } from "./access.ts";
import { type QuoteMailOptions, mailRequested, mailShop } from "./emails.ts";
import { customerPricing, linesOfVariants } from "./lines.ts";
import { quotePdf } from "./pdf.ts";
import { type QuoteJson, type LoadedQuote, acceptable, forCustomer, loadQuote, quoteEvent, quoteSummaries } from "./read.ts";
import { quoteLines, quoteRevisions, quotes } from "./schema.ts";
import { QUOTE_TRANSITIONS, quoteMay } from "./statuses.ts";
import { liveSiteOfBuyer } from "../trade/accounts/sites.ts";

export const CUSTOMER_QUOTES_PAGE = 20;

export interface QuoteRequestInput {
  notes?: string;
  needed_by?: string;
  /** The company's site it is for. */
  site_id?: number;
}

/** What the customer may do with the quote now, for the page's buttons. */
export interface QuoteAbilities {
  accept: boolean;
  decline: boolean;
  changes: boolean;
}

export type CustomerQuoteJson = QuoteJson & { can: QuoteAbilities };

const NOT_FOUND = "Quote not found.";

export function createQuoteService(db: Db, options: QuoteMailOptions & { shop: ShopDetails }) {
  /** The quote and what this customer may do with it; 404 for anyone it is not theirs or their company's. */
  async function visible(q: Db, userId: number, number: string): Promise<{ loaded: LoadedQuote; access: "act" | "read" }> {
    const loaded = await loadQuote(q, { number });
    const access = loaded ? await customerAccess(q, userId, loaded.row) : "none";
    if (!loaded || access === "none") throw new HttpError(404, NOT_FOUND);
    return { loaded, access };
  }

  /** Locks the quote's row for a change by the customer; 403 for a reader, 409 when the change no longer applies. */
  async function lockedForCustomer(tx: Db, userId: number, number: string, action: "decline" | "changes"): Promise<LoadedQuote> {
    const [locked] = await tx.select({ id: quotes.id }).from(quotes).where(eq(quotes.number, number)).for("update");
    if (!locked) throw new HttpError(404, NOT_FOUND);
    const { loaded, access } = await visible(tx, userId, number);
    if (access !== "act") throw new HttpError(403, "Only the buyer who asked, or an owner or admin of the company, may answer this quote.");
    if (!quoteMay(action, loaded.row.status)) throw new HttpError(409, `This quote is ${loaded.json.status_label.toLowerCase()}: it can no longer be ${action === "decline" ? "declined" : "changed"}.`);
    return loaded;
  }

  function abilities(loaded: LoadedQuote, access: "act" | "read"): QuoteAbilities {
    const acting = access === "act";
    return {
      accept: acting && acceptable(loaded.row),
      decline: acting && quoteMay("decline", loaded.row.status),
      changes: acting && quoteMay("changes", loaded.row.status),
    };
  }

  return {
    /**
     * A quote from the signed-in customer's basket: its lines at their own
     * prices for staff to work from, the basket emptied (the quote holds the
     * lines now), the customer and the shop told. Under the basket's lock,
     * so a checkout of the same basket at the same moment cannot also take it.
     */
    async request(userId: number, input: QuoteRequestInput): Promise<{ number: string; status: "requested" }> {
      if (input.needed_by && input.needed_by < londonDate()) throw new ValidationError({ needed_by: ["The date you need the goods by cannot be in the past."] });
      const made = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const [basket] = await tx.select({ id: baskets.id }).from(baskets).where(eq(baskets.userId, userId)).for("update");
        const items = basket ? await tx.select({ variantId: basketItems.variantId, quantity: basketItems.quantity }).from(basketItems).where(eq(basketItems.basketId, basket.id)).orderBy(basketItems.id) : [];
        if (!basket || items.length === 0) throw new ValidationError({ basket: ["Your basket is empty: add what you need a price for first."] });
        const { prices, tradeAccountId } = await customerPricing(tx, userId);
        const site = input.site_id === undefined ? null : await liveSiteOfBuyer(tx, userId, input.site_id);
        const lines = await linesOfVariants(tx, items, prices);
        const [quote] = await tx
          .insert(quotes)
          .values({ status: "requested", userId, tradeAccountId, siteId: site?.id ?? null, notes: input.notes ?? "", neededBy: input.needed_by || null })
          .returning({ id: quotes.id, number: quotes.number });
        await tx.insert(quoteLines).values(lines.map((l) => ({ ...l, quoteId: quote!.id })));
        await quoteEvent(tx, quote!.id, "requested", "customer", input.notes ? `Asked for from the basket: ${input.notes}` : "Asked for from the basket.");
        await tx.delete(basketItems).where(eq(basketItems.basketId, basket.id));
        await tx.delete(basketPromotions).where(eq(basketPromotions.basketId, basket.id));
        const [customer] = await tx.select({ email: users.email, firstname: users.firstname, lastname: users.lastname }).from(users).where(eq(users.id, userId));
        await mailRequested(tx, options, { number: quote!.number, email: customer!.email, name: `${customer!.firstname} ${customer!.lastname}`.trim(), lines: lines.length, notes: input.notes ?? "", neededBy: input.needed_by || null });
        return quote!;
      });
      options.mail.kick?.();
      return { number: made.number, status: "requested" };
    },

    /** The customer's quotes and, for a company's owners, admins and accounts users, the company's; newest first. */
    async list(userId: number, cursor?: number) {
      const readable = db
        .select({ accountId: tradeMembers.tradeAccountId })
        .from(tradeMembers)
        .where(and(eq(tradeMembers.userId, userId), inArray(tradeMembers.role, [...COMPANY_ORDER_READERS])));
      return quoteSummaries(db, or(eq(quotes.userId, userId), inArray(quotes.tradeAccountId, readable)), cursor, CUSTOMER_QUOTES_PAGE, true);
    },

    async get(userId: number, number: string): Promise<CustomerQuoteJson> {
      const { loaded, access } = await visible(db, userId, number);
      return { ...forCustomer(loaded.json), can: abilities(loaded, access) };
    },

    /** The PDF of a sent version (the latest by default); a quote still being priced has none yet. */
    async pdf(userId: number, number: string, revision?: number): Promise<Buffer> {
      const { loaded } = await visible(db, userId, number);
      const wanted = revision ?? Math.max(0, ...loaded.json.revisions.map((r) => r.revision));
      const [kept] = wanted ? await db.select().from(quoteRevisions).where(and(eq(quoteRevisions.quoteId, loaded.row.id), eq(quoteRevisions.revision, wanted))) : [];
      if (!kept) throw new HttpError(404, "This quote has no PDF yet: we will email it once it is priced.");
      return quotePdf({
        number: loaded.row.number,
        revision: kept.revision,
        draft: false,
        issued_on: kept.sentAt.toISOString().slice(0, 10),
        needed_by: loaded.row.neededBy,
        notes: loaded.row.notes,
        customer: loaded.json.customer,
        company: loaded.json.company?.name ?? null,
        version: kept.snapshot,
        shop: options.shop,
      });
    },

    /** The customer asks for a new revision: the sent one is kept, staff are told what to change. */
    async askForChanges(userId: number, number: string, message: string): Promise<CustomerQuoteJson> {
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const loaded = await lockedForCustomer(tx, userId, number, "changes");
        await tx
          .update(quotes)
          .set({ status: QUOTE_TRANSITIONS.changes.to, revision: sql`${quotes.revision} + 1`, remindedAt: null, updatedAt: sql`now()` })
          .where(eq(quotes.id, loaded.row.id));
        await quoteEvent(tx, loaded.row.id, "requested", "customer", `Changes asked for: ${message}`);
        await mailShop(tx, options, number, "Changes asked for", [`${loaded.json.customer.name} asks for changes to ${number} (revision ${loaded.row.revision}):`, message]);
      });
      options.mail.kick?.();
      return this.get(userId, number);
    },

    async decline(userId: number, number: string, reason: string): Promise<CustomerQuoteJson> {
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const loaded = await lockedForCustomer(tx, userId, number, "decline");
        await tx.update(quotes).set({ status: QUOTE_TRANSITIONS.decline.to, declineReason: reason, updatedAt: sql`now()` }).where(eq(quotes.id, loaded.row.id));
        await quoteEvent(tx, loaded.row.id, "declined", "customer", reason ? `Declined: ${reason}` : "Declined.");
        await mailShop(tx, options, number, "Quote declined", [`${loaded.json.customer.name} declined ${number}.`, reason ? `Their reason: ${reason}` : "They gave no reason."]);
      });
      options.mail.kick?.();
      return this.get(userId, number);
    },
  };
}

export type QuoteService = ReturnType<typeof createQuoteService>;

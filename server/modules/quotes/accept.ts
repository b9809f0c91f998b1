// Accepting a quote (issue 32): an order at exactly the quoted prices, through
// checkout's own writing of an order (checkout/write-order.ts) and so its
// guards: stock from the branches, the credit limit on account, the payment
// page for a card. Once: the quote's row lock makes two acceptances at once
// one order and a 409, and an Idempotency-Key makes a retry the same order.
import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { sha256 } from "../auth/tokens.ts";
import { users } from "../auth/schema.ts";
import { productVariants, products } from "../catalog/schema.ts";
import { lineName } from "../catalog/variants/variant-names.ts";
import type { CheckoutLinks } from "../checkout/service.ts";
import type { CheckoutInput, PlacedOrder } from "../checkout/types.ts";
import { type WriteOrderOptions, openPaymentPage, orderByKey, placedOrderOf, writeOrder } from "../checkout/write-order.ts";
import { collectionChoices } from "../branches/availability.ts";
import { customerAccess } from "./access.ts";
import { loadQuote, pastValidUntil, quoteEvent } from "./read.ts";
import { quoteLines, quotes } from "./schema.ts";
import { QUOTE_TRANSITIONS } from "./statuses.ts";
import { quoteTotals } from "./totals.ts";

/** What acceptance takes: checkout's fields, the email defaulting to the account's. */
export type AcceptInput = Omit<CheckoutInput, "email" | "expected_total"> & { email?: string; expected_total?: number };

const NOT_FOUND = "Quote not found.";

/** Why a quote cannot be accepted, in the customer's words: 409. */
function refusal(status: string, orderNumber: string | null): string {
  switch (status) {
    case "accepted":
      return `This quote has already been accepted${orderNumber ? `: it is order ${orderNumber}` : ""}.`;
    case "declined":
      return "This quote was declined, so it can no longer be accepted. Ask us for a new one.";
    case "expired":
      return "This quote has expired, so its prices no longer hold. Ask us for changes to have it priced again.";
    default:
      return "This quote is still being priced: you can accept it once we have sent it.";
  }
}

export function createQuoteAcceptance(db: Db, options: WriteOrderOptions & { links: CheckoutLinks }) {
  const { thankYouLink } = options.links;

  async function place(userId: number, number: string, input: AcceptInput, idempotencyKey: string | null): Promise<{ order: PlacedOrder; replay: boolean; email: string }> {
    return db.transaction(async (t) => {
      const tx = t as unknown as Db;
      // One acceptance of a quote at a time: the second waits here, then finds it accepted.
      const [row] = await tx.select().from(quotes).where(eq(quotes.number, number)).for("update");
      const access = row ? await customerAccess(tx, userId, row) : "none";
      if (!row || access === "none") throw new HttpError(404, NOT_FOUND);
      if (access !== "act") throw new HttpError(403, "Only the buyer who asked, or an owner or admin of the company, may accept this quote.");
      const [account] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
      const email = input.email || account!.email;
      if (idempotencyKey) {
        const done = await orderByKey(tx, idempotencyKey);
        if (done) return { order: placedOrderOf(done, thankYouLink), replay: true, email };
      }
      if (row.status !== "sent" || pastValidUntil(row)) {
        const loaded = row.status === "accepted" ? await loadQuote(tx, { id: row.id }) : null;
        throw new HttpError(409, refusal(row.status === "sent" ? "expired" : row.status, loaded?.json.order?.number ?? null));
      }

      const lines = await tx
        .select({
          line: quoteLines,
          product: { id: products.id, name: products.name, slug: products.slug, status: products.status, vatRate: products.vatRate, heavy: products.heavy, unit: products.unit },
          variant: { id: productVariants.id, sku: productVariants.sku, options: productVariants.options, status: productVariants.status },
        })
        .from(quoteLines)
        .innerJoin(productVariants, eq(productVariants.id, quoteLines.variantId))
        .innerJoin(products, eq(products.id, productVariants.productId))
        .where(eq(quoteLines.quoteId, row.id))
        .orderBy(asc(quoteLines.id));
      const withdrawn = lines.filter((l) => l.product.status !== "published" || l.variant.status !== "active");
      if (withdrawn.length) {
        throw new ValidationError({ items: withdrawn.map((l) => `${lineName(l.product.name, l.variant.options)} is no longer sold, so this quote cannot be accepted as it is. Ask us for changes.`) });
      }
      // The quoted figures, never the catalogue's today: the VAT rate and the price are the quote's.
      const totals = quoteTotals(lines.map((l) => l.line), row.deliveryExVat);
      const written = await writeOrder(tx, options, {
        userId,
        guestHash: null,
        // For the quote's site unless the buyer names another of the company's.
        input: { ...input, email, site_id: input.site_id ?? row.siteId ?? undefined },
        idempotencyKey,
        lines: lines.map(({ line, product, variant }, i) => ({
          product: { ...product, vatRate: line.vatRate },
          variant,
          quantity: line.quantity,
          unitPrice: line.unitPrice,
          lineTotal: totals.lines[i]!.net,
          lineVat: totals.lines[i]!.vat,
          discount: 0,
        })),
        subtotal: totals.subtotal,
        vat: totals.vat,
        discount: 0,
        applied: [],
        freeDeliveryCode: null,
        agreedDelivery: totals.delivery,
        placedNote: `Order placed from quote ${row.number} (revision ${row.revision}).`,
      });
      await tx.update(quotes).set({ status: QUOTE_TRANSITIONS.accept.to, orderId: written.id, acceptedAt: sql`now()`, updatedAt: sql`now()` }).where(eq(quotes.id, row.id));
      await quoteEvent(tx, row.id, "accepted", "customer", `Accepted: order ${written.number}.`);
      return { order: placedOrderOf(written, thankYouLink), replay: false, email };
    });
  }

  return {
    /**
     * Accepts the quote. With an Idempotency-Key, a retry returns the order
     * already made (201 the first time, 200 after); by card, the payment page
     * to go to as checkout answers it.
     */
    async accept(userId: number, number: string, input: AcceptInput, key: string | null): Promise<{ order: PlacedOrder; replay: boolean; payment?: { redirect_url: string } }> {
      const idempotencyKey = key ? sha256(`user:${userId}|quote:${number}|${key}`) : null;
      let placed: { order: PlacedOrder; replay: boolean; email: string };
      try {
        placed = await place(userId, number, input, idempotencyKey);
        if (!placed.replay) options.mail.kick?.();
      } catch (error) {
        const raced = idempotencyKey && isUniqueViolation(error) ? await orderByKey(db, idempotencyKey) : null;
        if (!raced) throw error;
        placed = { order: placedOrderOf(raced, thankYouLink), replay: true, email: input.email ?? "" };
      }
      return { order: placed.order, replay: placed.replay, ...(await openPaymentPage(options.payments, { payment_method: input.payment_method, email: placed.email }, placed.order)) };
    },

    /** The delivery methods for the quote's goods (the quoted delivery price in place of the usual one), how it may be paid, and where it may be collected. */
    async options(userId: number, number: string, postcode: string | null) {
      const loaded = await loadQuote(db, { number });
      if (!loaded || (await customerAccess(db, userId, loaded.row)) === "none") throw new HttpError(404, NOT_FOUND);
      const totals = quoteTotals(loaded.lines, loaded.row.deliveryExVat);
      const heavy = loaded.lines.length ? await db.select({ heavy: products.heavy }).from(products).where(sql`${products.id} in (${sql.join(loaded.lines.map((l) => sql`${l.productId}`), sql`, `)}) and ${products.heavy}`).limit(1) : [];
      const offered = await options.delivery.options({ goodsTotal: totals.subtotal + totals.vat, hasHeavy: heavy.length > 0, postcode });
      const delivery = offered.delivery.map((d) => (d.kind !== "collect" && totals.delivery !== null ? { ...d, price: totals.delivery / 100 } : d));
      const extra = (await Promise.all((options.payments ?? []).map((p) => p.offer(db, userId)))).filter((o) => o !== null);
      const collect_at = delivery.some((d) => d.kind === "collect") ? await collectionChoices(db, loaded.lines.map((l) => ({ variantId: l.variantId, quantity: l.quantity }))) : [];
      return { data: { delivery, payment: [...offered.payment, ...extra], collect_at } };
    },
  };
}

export type QuoteAcceptance = ReturnType<typeof createQuoteAcceptance>;

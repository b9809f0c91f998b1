import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { ValidationError } from "../../http-errors.ts";
import { type BasketOwner, pricesOf } from "../../plugins/guest.ts";
import { orderSignature } from "../orders/links.ts";
import type { Outbox } from "../auth/service.ts";
import { sha256 } from "../auth/tokens.ts";
import { basketItems, baskets } from "../basket/schema.ts";
import { productListing, productVariants, products } from "../catalog/schema.ts";
import { priceLines } from "../pricing/pipeline.ts";
import { basketPromotionsOf } from "../promotions/running.ts";
import { basketPromotions } from "../promotions/schema.ts";
import { orders } from "../orders/schema.ts";
import type { DeliveryService } from "../delivery/service.ts";
import { type Need, type SplitPolicy } from "../stock/fulfilment.ts";
import { collectionChoices } from "../branches/availability.ts";
import type { PaymentProvider } from "./payment.ts";
import type { CheckoutInput, PlacedOrder } from "./types.ts";
import { openPaymentPage, orderByKey, placedOrderOf, refuseWithdrawn, saleLineColumns, writeOrder } from "./write-order.ts";

export { type CheckoutAddress, type CheckoutInput, type PlacedOrder, PriceChangedError } from "./types.ts";

const THANK_YOU_SECONDS = 24 * 60 * 60;

/** The thank-you page's signed link: only whoever placed the order holds it, for a day. Payments send the customer back to it. */
export function createCheckoutLinks(secret: string) {
  const signed = orderSignature(secret, "thank-you", THANK_YOU_SECONDS);
  return {
    thankYouLink: (number: string, now = Date.now()): string => `/checkout/thank-you?${new URLSearchParams({ order: number, ...signed.issue(number, now) })}`,
    verifyThankYou: (number: string, expires: string, signature: string, now = Date.now()): boolean => signed.verify(number, expires, signature, now),
  };
}

export type CheckoutLinks = ReturnType<typeof createCheckoutLinks>;

export function createCheckoutService(
  db: Db,
  options: {
    delivery: DeliveryService;
    mail: Outbox;
    links: CheckoutLinks;
    appName: string;
    publicUrl: string;
    shopEmail: string;
    payments?: PaymentProvider[];
    /** A delivery no one branch can send whole: split, or refused (stock/fulfilment.ts). */
    fulfilment?: SplitPolicy;
  },
) {
  const { thankYouLink } = options.links;

  async function existingByKey(key: string): Promise<PlacedOrder | null> {
    const order = await orderByKey(db, key);
    return order ? placedOrderOf(order, thankYouLink) : null;
  }

  async function place(
    owner: BasketOwner,
    userId: number | null,
    input: CheckoutInput,
    idempotencyKey: string | null,
  ): Promise<{ order: PlacedOrder; replay: boolean }> {
    return db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const ownerWhere = "userId" in owner ? eq(baskets.userId, owner.userId) : eq(baskets.guestTokenHash, owner.guestHash);
      // One checkout of a basket at a time.
      const [basket] = await tx.select({ id: baskets.id }).from(baskets).where(ownerWhere).for("update");
      const lines = basket
        ? await tx
            .select({
              item: { quantity: basketItems.quantity },
              ...saleLineColumns,
              // The order a request with the same key placed, asked in the same statement as the lines (issue 35: one round
              // trip fewer); read after the basket's lock, so a request that got it first has committed its order by then.
              // No key: null matches no order.
              done: sql<{ id: number; number: string; total: number } | null>`(select json_build_object('id', ${orders.id}, 'number', ${orders.number}, 'total', ${orders.total}) from ${orders} where ${orders.idempotencyKey} = ${sql.placeholder("key")} limit 1)`,
            })
            .from(basketItems)
            .innerJoin(productVariants, eq(productVariants.id, basketItems.variantId))
            .innerJoin(products, eq(products.id, productVariants.productId))
            .leftJoin(productListing, eq(productListing.productId, products.id))
            .where(eq(basketItems.basketId, sql.placeholder("basket")))
            .orderBy(asc(products.id), asc(productVariants.id))
            // Named, so PostgreSQL plans it once per connection (planning it cost more than running it), on the transaction's own connection.
            .prepare("checkout_lines")
            .execute({ basket: basket.id, key: idempotencyKey })
        : [];
      // A request with the same key that got the lock first has already placed this order (and emptied the basket, so
      // with no lines to carry the answer it is asked on its own).
      if (idempotencyKey) {
        const done = lines.length ? lines[0]!.done : await orderByKey(tx, idempotencyKey);
        if (done) return { order: placedOrderOf(done, thankYouLink), replay: true };
      }
      if (!basket || lines.length === 0) throw new ValidationError({ basket: ["Your basket is empty."] });
      refuseWithdrawn(lines, "is no longer on sale: remove it from your basket.");

      // Everything is worked out again from the database, by the one pricing pipeline: the buyer's
      // prices (a trade member pays the trade price), the promotions, then VAT per line, as their basket showed.
      const running = await basketPromotionsOf(tx, basket.id);
      if (running.unusable.length) throw new ValidationError({ code: running.unusable.map((u) => `${u.message} Remove it from your basket to check out without it.`) });
      const pipeline = priceLines(
        lines.map(({ item, product, variant, categoryIds }) => ({ productId: product.id, categoryIds, brandId: product.brandId, quantity: item.quantity, listPence: variant.pricePence, vatRate: product.vatRate })),
        pricesOf(owner),
        running.rules,
      );
      const written = await writeOrder(tx, options, {
        userId,
        guestHash: "guestHash" in owner ? owner.guestHash : null,
        input,
        idempotencyKey,
        lines: lines.map(({ item, product, variant }, i) => {
          const line = pipeline.lines[i]!;
          return { product, variant, quantity: item.quantity, unitPrice: line.unitPence, lineTotal: line.netPence, lineVat: line.vatPence, discount: line.discountPence };
        }),
        subtotal: pipeline.netPence,
        vat: pipeline.vatPence,
        discount: pipeline.discountPence,
        applied: pipeline.applied,
        freeDeliveryCode: pipeline.freeDeliveryCode,
        namesRequired: true,
        // The basket emptied, its codes with it, in the statement that writes the order's lines (issue 35: each statement is a round trip inside the order's locks).
        alsoWrite: [tx.delete(basketItems).where(eq(basketItems.basketId, basket.id)), tx.delete(basketPromotions).where(eq(basketPromotions.basketId, basket.id))],
      });
      return { order: placedOrderOf(written, thankYouLink), replay: false };
    });
  }

  return {
    thankYouLink,

    /** The payment methods that depend on who is buying (pay on account), for the delivery-options answer. */
    async providerOptions(userId: number | null) {
      const offered = await Promise.all((options.payments ?? []).map((p) => p.offer(db, userId)));
      return offered.filter((o) => o !== null);
    },

    verifyThankYou: options.links.verifyThankYou,

    /** When the basket could be collected at each branch (the delivery options' `collect_at`). */
    collectionChoices: (needs: Need[]) => collectionChoices(db, needs),

    /**
     * Places the order. With an Idempotency-Key, a retry (or a double click)
     * returns the order already made instead of making another.
     */
    async placeOrder(
      owner: BasketOwner,
      userId: number | null,
      input: CheckoutInput,
      key: string | null,
    ): Promise<{ order: PlacedOrder; replay: boolean; payment?: { redirect_url: string } }> {
      // A key only ever finds the same customer's order.
      const idempotencyKey = key ? sha256(`${"userId" in owner ? `user:${owner.userId}` : `guest:${owner.guestHash}`}|${key}`) : null;
      // A retry is found inside the transaction, under the basket's lock: no round trip before it for every order.
      let placed: { order: PlacedOrder; replay: boolean };
      try {
        placed = await place(owner, userId, input, idempotencyKey);
        if (!placed.replay) options.mail.kick?.();
      } catch (error) {
        // The same key raced us: the other request's order is the answer.
        const raced = idempotencyKey && isUniqueViolation(error) ? await existingByKey(idempotencyKey) : null;
        if (!raced) throw error;
        placed = { order: raced, replay: true };
      }
      return { ...placed, ...(await openPaymentPage(options.payments, input, placed.order)) };
    },
  };
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;

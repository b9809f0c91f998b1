import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { type BasketOwner, pricesOf } from "../../plugins/guest.ts";
import { orderSignature } from "../orders/links.ts";
import { orderNumberOf } from "../orders/statuses.ts";
import { tradeAccounts, tradeMembers } from "../trade/schema.ts";
import type { Outbox } from "../auth/service.ts";
import { sha256 } from "../auth/tokens.ts";
import { basketItems, baskets } from "../basket/schema.ts";
import { pounds } from "../catalog/products.ts";
import { productListing, productVariants, products } from "../catalog/schema.ts";
import { priceLines } from "../pricing/pipeline.ts";
import { redeemPromotions, usedBy } from "../promotions/redeem.ts";
import { basketPromotionsOf, lineCategoryIds } from "../promotions/running.ts";
import { basketPromotions } from "../promotions/schema.ts";
import { lineName } from "../catalog/variant-names.ts";
import type { DeliveryService } from "../delivery/service.ts";
import { enqueueOrderPlaced } from "../orders/emails.ts";
import { allocateOrderStock } from "../stock/allocate.ts";
import { type Need, transfersFor } from "../stock/fulfilment.ts";
import { collectionChoices } from "../branches/availability.ts";
import { raiseOrderTransfers } from "../stock/order-transfers.ts";
import type { SplitPolicy } from "../stock/fulfilment.ts";
import { applyMovements } from "../stock/ledger.ts";
import type { PaymentProvider } from "./payment.ts";
import { orderAddresses, orderLines, orderStatusHistory, orders } from "../orders/schema.ts";

export interface CheckoutAddress {
  name?: string;
  line_1: string;
  line_2?: string;
  line_3?: string;
  town: string;
  county?: string;
  postcode: string;
}

export interface CheckoutInput {
  email: string;
  phone: string;
  delivery_method: string;
  delivery_address?: CheckoutAddress;
  billing_address?: CheckoutAddress;
  payment_method: "bank_transfer" | "pay_on_collection" | "pay_on_account" | "card";
  notes: string;
  po_reference: string;
  /** The total the customer saw (pounds); a different total now answers 409. */
  expected_total?: number;
  /** Click & collect: the branch collected from (the default one when not given). */
  branch_id?: number;
}

export interface PlacedOrder {
  order_id: number;
  order_number: string;
  total: number;
  redirect: string;
}

/** A price that moved since the basket was shown: the customer confirms the new totals. */
export class PriceChangedError extends HttpError {
  readonly totals: { subtotal: number; vat: number; delivery: number; total: number };
  constructor(totals: PriceChangedError["totals"]) {
    super(409, "Prices have changed since you last saw your basket. Please check the new total and confirm.");
    this.totals = totals;
  }
}

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
    const [order] = await db.select({ id: orders.id, number: orders.number, total: orders.total }).from(orders).where(eq(orders.idempotencyKey, key)).limit(1);
    return order ? { order_id: order.id, order_number: order.number, total: pounds(order.total), redirect: thankYouLink(order.number) } : null;
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
      // A request with the same key that got the lock first has already placed this order.
      if (idempotencyKey) {
        const [done] = await tx.select({ id: orders.id, number: orders.number, total: orders.total }).from(orders).where(eq(orders.idempotencyKey, idempotencyKey)).limit(1);
        if (done) return { order: { order_id: done.id, order_number: done.number, total: pounds(done.total), redirect: thankYouLink(done.number) }, replay: true };
      }
      const lines = basket
        ? await tx
            .select({
              item: { quantity: basketItems.quantity },
              // Only what an order line, the stock and the checks need: never the descriptions.
              product: { id: products.id, name: products.name, slug: products.slug, status: products.status, vatRate: products.vatRate, heavy: products.heavy, unit: products.unit, brandId: products.manufacturerId },
              // What promotions reach a line by: its categories with their ancestors.
              categoryIds: lineCategoryIds,
              // The variant is what is sold: its SKU, options, price and stock.
              variant: { id: productVariants.id, sku: productVariants.sku, options: productVariants.options, status: productVariants.status, pricePence: productVariants.pricePence },
            })
            .from(basketItems)
            .innerJoin(productVariants, eq(productVariants.id, basketItems.variantId))
            .innerJoin(products, eq(products.id, productVariants.productId))
            .leftJoin(productListing, eq(productListing.productId, products.id))
            .where(eq(basketItems.basketId, basket.id))
            .orderBy(asc(products.id), asc(productVariants.id))
        : [];
      if (!basket || lines.length === 0) throw new ValidationError({ basket: ["Your basket is empty."] });
      const withdrawn = lines.filter((l) => l.product.status !== "published" || l.variant.status !== "active");
      if (withdrawn.length) throw new ValidationError({ items: withdrawn.map((l) => `${lineName(l.product.name, l.variant.options)} is no longer on sale: remove it from your basket.`) });

      // Everything is worked out again from the database, by the one pricing pipeline: the buyer's
      // prices (a trade member pays the trade price), the promotions, then VAT per line, as their basket showed.
      const running = await basketPromotionsOf(tx, basket.id);
      if (running.unusable.length) throw new ValidationError({ code: running.unusable.map((u) => `${u.message} Remove it from your basket to check out without it.`) });
      const pipeline = priceLines(
        lines.map(({ item, product, variant, categoryIds }) => ({ productId: product.id, categoryIds, brandId: product.brandId, quantity: item.quantity, listPence: variant.pricePence, vatRate: product.vatRate })),
        pricesOf(owner),
        running.rules,
      );
      const priced = lines.map(({ item, product, variant }, i) => {
        const line = pipeline.lines[i]!;
        return { item, product, variant, unitPrice: line.unitPence, lineTotal: line.netPence, lineVat: line.vatPence, discount: line.discountPence };
      });
      const subtotal = pipeline.netPence;
      const vat = pipeline.vatPence;
      const freeDeliveryCode = pipeline.freeDeliveryCode;
      const method = input.delivery_method;
      const postcode = input.delivery_address?.postcode ?? null;
      const offered = await options.delivery.options({ goodsTotal: subtotal + vat, hasHeavy: lines.some((l) => l.product.heavy), postcode, freeDeliveryCode }, tx);
      const delivery = offered.delivery.find((d) => d.id === method);
      if (!delivery) throw new ValidationError({ delivery_method: ["That delivery method is not available for this address."] });
      if (delivery.kind !== "collect" && !input.delivery_address) throw new ValidationError({ delivery_address: ["Enter the delivery address."] });
      if (input.payment_method === "pay_on_collection" && delivery.kind !== "collect") {
        throw new ValidationError({ payment_method: ["Pay on collection is for click & collect orders."] });
      }
      const deliveryPence = Math.round(delivery.price * 100);
      const total = subtotal + vat + deliveryPence;
      if (input.expected_total !== undefined && Math.round(input.expected_total * 100) !== total) {
        throw new PriceChangedError({ subtotal: pounds(subtotal), vat: pounds(vat), delivery: pounds(deliveryPence), total: pounds(total) });
      }

      // A provider (pay on account) does its work in this transaction; the others take nothing now.
      const provider = options.payments?.find((p) => p.id === input.payment_method) ?? null;

      // Where the goods come from: the collection branch, or the fulfilment rule's; a short line refuses the whole order.
      const needs = priced.map(({ item, variant }) => ({ variantId: variant.id, quantity: item.quantity }));
      const allocation = await allocateOrderStock(tx, needs, delivery.kind === "collect" ? { collectAt: input.branch_id } : { postcode }, options.fulfilment ?? "split");
      if (!allocation.plan.ok) {
        const { short } = allocation.plan;
        const items = short.map(({ variantId, available }) => {
          const { product, variant } = priced.find((p) => p.variant.id === variantId)!;
          const name = lineName(product.name, variant.options);
          return available > 0 ? `${name}: only ${available} left in stock.` : `${name} is out of stock.`;
        });
        throw new ValidationError({
          items,
          // A collection names the branch: another nearby may have what this one lacks.
          ...(allocation.branch ? { branch_id: [`${allocation.branch.name} cannot supply ${short.length === 1 ? "one line" : `${short.length} lines`} of your basket: ${items.join(" ")}`] } : {}),
        });
      }
      if (allocation.branch && !allocation.branch.readyAt) throw new ValidationError({ branch_id: [`${allocation.branch.name} does not open for collections in the next three weeks. Choose another branch.`] });
      if (!provider && input.payment_method === "pay_on_account") throw new ValidationError({ payment_method: ["Pay on account is not available."] });
      const status = provider?.orderStatus ?? "awaiting_payment";
      const [order] = await tx
        .insert(orders)
        .values({
          number: `pending-${crypto.randomUUID()}`,
          userId,
          email: input.email,
          phone: input.phone,
          status,
          deliveryMethod: delivery.id,
          deliveryName: delivery.name,
          subtotal,
          vat,
          delivery: deliveryPence,
          total,
          discount: pipeline.discountPence,
          paymentMethod: input.payment_method,
          notes: input.notes,
          poReference: input.po_reference,
          idempotencyKey,
          // A guest's browser can claim the order into an account with the same email later (ADR 0017).
          guestKeyHash: userId === null && "guestHash" in owner ? owner.guestHash : null,
          // Where it is collected from or sent from; none when split across branches.
          branchId: allocation.plan.branchId,
          // When a collection is ready: later when a line comes from another branch.
          collectReadyAt: allocation.branch?.readyAt ?? null,
          // The buyer's company, read in the same statement: its dashboard counts the order whatever the payment method.
          tradeAccountId:
            userId === null
              ? null
              : sql<number | null>`(select ${tradeMembers.tradeAccountId} from ${tradeMembers} inner join ${tradeAccounts} on ${tradeAccounts.id} = ${tradeMembers.tradeAccountId} where ${tradeMembers.userId} = ${userId} and ${tradeAccounts.state} = 'approved')`,
        })
        .returning({ id: orders.id });
      const number = orderNumberOf(order!.id);
      await tx.update(orders).set({ number }).where(eq(orders.id, order!.id));

      // Take the stock as `sold` movements from the branches the plan chose,
      // worked out under the variants' locks: the conditional decrement can never
      // go below zero, whatever runs at the same time.
      const taken = await applyMovements(
        tx,
        allocation.plan.takes.map((t) => ({ variantId: t.variantId, branchId: t.branchId, change: -t.quantity, kind: "sold" as const, orderId: order!.id })),
        { variantsLocked: true },
      );
      if (taken.refused.length) throw new Error(`Stock of variants ${taken.refused.join(", ")} moved under their locks.`);
      if (allocation.branch) await raiseOrderTransfers(tx, { id: order!.id, number }, allocation.branch.id, transfersFor(allocation.plan, allocation.branch.id));
      // The promotions' uses, each under its row's lock: a code used up meanwhile refuses the whole order.
      await redeemPromotions(tx, usedBy(pipeline.applied, freeDeliveryCode !== null && delivery.kind === "delivery"), { id: order!.id, userId, email: input.email });
      await provider?.take(tx, { userId, orderId: order!.id, orderNumber: number, subtotal, vat, delivery: deliveryPence, total, poReference: input.po_reference });
      await tx.insert(orderLines).values(
        priced.map(({ item, product, variant, unitPrice, lineTotal, lineVat, discount }) => ({
          orderId: order!.id,
          productId: product.id,
          variantId: variant.id,
          sku: variant.sku,
          options: variant.options,
          unit: product.unit,
          // The variant named in the line itself, so every document and email that prints a line names what was bought.
          name: lineName(product.name, variant.options),
          slug: product.slug,
          quantity: item.quantity,
          unitPrice,
          vatRate: product.vatRate,
          lineTotal,
          lineVat,
          discount,
        })),
      );
      const address = (kind: "delivery" | "billing", a: CheckoutAddress) => ({
        orderId: order!.id,
        kind,
        name: a.name ?? "",
        line1: a.line_1,
        line2: a.line_2 ?? "",
        line3: a.line_3 ?? "",
        town: a.town,
        county: a.county ?? "",
        postcode: a.postcode,
      });
      const addresses = [
        ...(input.delivery_address ? [address("delivery", input.delivery_address)] : []),
        ...(input.billing_address ?? input.delivery_address ? [address("billing", (input.billing_address ?? input.delivery_address)!)] : []),
      ];
      if (addresses.length) await tx.insert(orderAddresses).values(addresses);
      await tx.insert(orderStatusHistory).values({ orderId: order!.id, status, note: "Order placed." });
      await tx.delete(basketItems).where(eq(basketItems.basketId, basket.id));
      await tx.delete(basketPromotions).where(eq(basketPromotions.basketId, basket.id));

      // A card order's confirmation waits for its payment (payments/service.ts).
      if (!provider?.confirmsLater) {
        const paymentNote = provider
          ? provider.note(number)
          : input.payment_method === "bank_transfer"
            ? `Please pay by bank transfer quoting ${number}; we send the order once the payment arrives.`
            : "Please pay at the branch when you collect.";
        const written = {
          order: { number, email: input.email, phone: input.phone ?? null, deliveryName: delivery.name, delivery: deliveryPence, total, vat, discount: pipeline.discountPence, poReference: input.po_reference ?? null, notes: input.notes ?? null },
          lines: priced.map(({ item, product, variant, lineTotal, lineVat, discount }) => ({ quantity: item.quantity, unit: product.unit, name: lineName(product.name, variant.options), lineTotal, lineVat, discount })),
        };
        await enqueueOrderPlaced(tx, options.mail, options, order!.id, paymentNote, written);
      }
      return { order: { order_id: order!.id, order_number: number, total: pounds(total), redirect: thankYouLink(number) }, replay: false };
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
      const provider = options.payments?.find((p) => p.id === input.payment_method);
      if (!provider?.begin) return placed;
      // The payment page is opened once the order is committed, so no lock is held while the gateway answers.
      try {
        const payment = await provider.begin({ orderId: placed.order.order_id, orderNumber: placed.order.order_number, total: Math.round(placed.order.total * 100), email: input.email });
        return { ...placed, payment };
      } catch (error) {
        await provider.withdraw?.(placed.order.order_id);
        throw error;
      }
    },
  };
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;

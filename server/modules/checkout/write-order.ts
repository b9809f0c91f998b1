// Writing an order once its lines are priced: the delivery chosen, the
// payment method's rules, stock from the branches the plan chooses, the
// promotions' uses, the payment provider's part (credit on account), the
// lines, addresses, first status and the confirmation email, all in the
// caller's transaction. Checkout writes a basket's order through it, and a
// quote's acceptance writes its order at the quoted prices (quotes/accept.ts):
// one set of guards for both. An order taken by staff at the counter or by
// phone (orders/counter) is written here too, with who took it and how it was paid.
import { type SQL, type SQLWrapper, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { writeAtOnce } from "../../db/write-at-once.ts";
import { ValidationError } from "../../http-errors.ts";
import { users } from "../auth/schema.ts";
import type { Outbox } from "../auth/service.ts";
import { pounds } from "../catalog/products/products.ts";
import { lineName } from "../catalog/variants/variant-names.ts";
import type { DeliveryService } from "../delivery/service.ts";
import { enqueueOrderPlaced } from "../orders/emails.ts";
import { orderAddresses, orderLines, orderStatusHistory, orders } from "../orders/schema.ts";
import type { AppliedPromotion } from "../promotions/rules.ts";
import { redeemPromotions, usedBy } from "../promotions/redeem.ts";
import { allocateOrderStock } from "../stock/allocate.ts";
import { type SplitPolicy, transfersFor } from "../stock/fulfilment.ts";
import { applyMovements } from "../stock/ledger.ts";
import { productVariants, products } from "../catalog/schema.ts";
import { lineCategoryIds } from "../promotions/running.ts";
import { raiseOrderTransfers } from "../stock/order-transfers.ts";
import { tradeAccounts, tradeMembers } from "../trade/schema.ts";
import { siteForOrder } from "../trade/accounts/sites.ts";
import type { PaymentProvider } from "./payment.ts";
import { type CheckoutAddress, type CheckoutInput, type PlacedOrder, PriceChangedError } from "./types.ts";

export interface OrderLineToWrite {
  product: { id: number; name: string; slug: string; vatRate: number; heavy: boolean; unit: string };
  variant: { id: number; sku: string; options: Record<string, string> };
  quantity: number;
  /** Pence ex VAT: the unit price before promotions, the line after them, its VAT, and what promotions took off. */
  unitPrice: number;
  lineTotal: number;
  lineVat: number;
  discount: number;
}

export interface OrderToWrite {
  userId: number | null;
  /** A guest's basket cookie hash, so the same browser can claim the order later (ADR 0017). */
  guestHash: string | null;
  input: CheckoutInput;
  idempotencyKey: string | null;
  lines: OrderLineToWrite[];
  /** Pence: goods ex VAT after promotions, their VAT, and what promotions took off. */
  subtotal: number;
  vat: number;
  discount: number;
  /** The promotions the pipeline applied, and the code that makes standard delivery free. */
  applied: readonly AppliedPromotion[];
  freeDeliveryCode: string | null;
  /** Delivery inc VAT agreed on a quote, charged instead of the delivery option's price when the goods are sent. */
  agreedDelivery?: number | null;
  /** The first line of the order's timeline ("Order placed." unless said). */
  placedNote?: string;
  /**
   * Checkout asks who the order is for (issue 34): the recipient's name on a
   * delivery, the collector's on a collection. A quote's acceptance is by a
   * signed-in buyer, so its order falls back to the account holder's name.
   */
  namesRequired?: boolean;
  /** An order taken by a member of staff (orders/counter): who took it, for whom, and how it is paid. */
  counter?: CounterPart;
  /** Writes of the caller's sent with the order's lines, in the same statement (db/write-at-once.ts says which may be). */
  alsoWrite?: SQLWrapper[];
}

/** The name the order is for, or a 422 naming the field checkout asks it in. */
function customerNameOf(input: CheckoutInput, collect: boolean, required: boolean): string {
  const name = (collect ? input.collector_name : input.delivery_address?.name)?.trim() ?? "";
  if (!name && required) {
    throw new ValidationError(collect ? { collector_name: ["Enter the name of the person collecting the order."] } : { "delivery_address.name": ["Enter the name of the person the order is for."] });
  }
  return name;
}

/** What a staff order adds to the row: checkout's guards are the same. */
export interface CounterPart {
  staffId: number;
  customerName: string;
  /** The card terminal's or cash receipt's reference. */
  paymentReference: string;
  /** Paid at the counter: the order starts paid, for its whole total, today. */
  paid: boolean;
  /** The line about payment in the customer's email (a card payment link names the order's number). */
  paymentNote?: (orderNumber: string) => string;
}

/**
 * The columns an order line is read with from the catalogue, whatever it is
 * sold from (a basket, the counter): only what a line, the stock and the
 * checks need, never the descriptions.
 */
export const saleLineColumns = {
  product: { id: products.id, name: products.name, slug: products.slug, status: products.status, vatRate: products.vatRate, heavy: products.heavy, unit: products.unit, brandId: products.manufacturerId },
  // What promotions reach a line by: its categories with their ancestors.
  categoryIds: lineCategoryIds,
  // The variant is what is sold: its SKU, options, price and stock.
  variant: { id: productVariants.id, sku: productVariants.sku, options: productVariants.options, status: productVariants.status, pricePence: productVariants.pricePence },
};

/** Lines no longer on sale refuse the order (422), each named with why. */
export function refuseWithdrawn(lines: readonly { product: { name: string; status: string }; variant: { options: Record<string, string>; status: string } }[], why: string): void {
  const withdrawn = lines.filter((l) => l.product.status !== "published" || l.variant.status !== "active");
  if (withdrawn.length) throw new ValidationError({ items: withdrawn.map((l) => `${lineName(l.product.name, l.variant.options)} ${why}`) });
}

export interface WriteOrderOptions {
  delivery: DeliveryService;
  mail: Outbox;
  appName: string;
  publicUrl: string;
  shopEmail: string;
  payments?: PaymentProvider[];
  fulfilment?: SplitPolicy;
}

/** orders/statuses.ts `orderNumberOf` in SQL, of an integer expression (`TC-000123`; never cut short past six digits): the number written with the order's row. */
export const orderNumberSql = (id: SQL) => sql<string>`'TC-' || lpad((${id})::text, greatest(6, length((${id})::text)), '0')`;

/** Writes the order in `tx`; answers its id, number and total (pence). Throws ValidationError or PriceChangedError and writes nothing. */
export async function writeOrder(tx: Db, options: WriteOrderOptions, spec: OrderToWrite): Promise<{ id: number; number: string; total: number }> {
  const { input, lines, subtotal, vat, userId } = spec;
  const method = input.delivery_method;
  const postcode = input.delivery_address?.postcode ?? null;
  const offered = await options.delivery.options({ goodsTotal: subtotal + vat, hasHeavy: lines.some((l) => l.product.heavy), postcode, freeDeliveryCode: spec.freeDeliveryCode }, tx);
  const delivery = offered.delivery.find((d) => d.id === method);
  if (!delivery) throw new ValidationError({ delivery_method: ["That delivery method is not available for this address."] });
  if (delivery.kind !== "collect" && !input.delivery_address) throw new ValidationError({ delivery_address: ["Enter the delivery address."] });
  const customerName = customerNameOf(input, delivery.kind === "collect", spec.namesRequired ?? false);
  if (input.payment_method === "pay_on_collection" && delivery.kind !== "collect") {
    throw new ValidationError({ payment_method: ["Pay on collection is for click & collect orders."] });
  }
  const deliveryPence = delivery.kind !== "collect" && spec.agreedDelivery != null ? spec.agreedDelivery : Math.round(delivery.price * 100);
  const total = subtotal + vat + deliveryPence;
  if (input.expected_total !== undefined && Math.round(input.expected_total * 100) !== total) {
    throw new PriceChangedError({ subtotal: pounds(subtotal), vat: pounds(vat), delivery: pounds(deliveryPence), total: pounds(total) });
  }

  // A provider (pay on account) does its work in this transaction; the others take nothing now.
  const provider = options.payments?.find((p) => p.id === input.payment_method) ?? null;
  // The company's site it is for, and that site's PO rule on account.
  const site = await siteForOrder(tx, { userId, siteId: input.site_id, paymentMethod: input.payment_method, poReference: input.po_reference });

  // Where the goods come from: the collection branch, or the fulfilment rule's; a short line refuses the whole order.
  const needs = lines.map(({ quantity, variant }) => ({ variantId: variant.id, quantity }));
  const allocation = await allocateOrderStock(tx, needs, delivery.kind === "collect" ? { collectAt: input.branch_id } : { postcode }, options.fulfilment ?? "split");
  if (!allocation.plan.ok) {
    const { short } = allocation.plan;
    const items = short.map(({ variantId, available }) => {
      const { product, variant } = lines.find((p) => p.variant.id === variantId)!;
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
  const counter = spec.counter;
  const status = counter?.paid ? "paid" : (provider?.orderStatus ?? "awaiting_payment");
  // The order's id taken from its sequence in the insert itself, so its number is written with it (issue 35: no update after).
  const next = tx.$with("next_order", { id: sql<number>`id`.as("id"), number: sql<string>`number`.as("number") }).as(sql`select id, ${orderNumberSql(sql`id`)} as number from (select nextval(pg_get_serial_sequence('orders', 'id'))::int as id) n`);
  const [order] = await tx
    .with(next)
    .insert(orders)
    .values({
      id: sql`(select ${next.id} from ${next})`,
      number: sql`(select ${next.number} from ${next})`,
      userId,
      email: input.email,
      phone: input.phone,
      status,
      deliveryMethod: delivery.id,
      deliveryName: delivery.name,
      // Who it is for; without one (a quote accepted without naming the collector) the account holder.
      customerName:
        customerName || userId === null ? customerName : sql<string>`(select btrim(${users.firstname} || ' ' || ${users.lastname}) from ${users} where ${users.id} = ${userId})`,
      subtotal,
      vat,
      delivery: deliveryPence,
      total,
      discount: spec.discount,
      paymentMethod: input.payment_method,
      notes: input.notes,
      poReference: input.po_reference,
      siteId: site?.id ?? null,
      idempotencyKey: spec.idempotencyKey,
      ...(counter
        ? {
            customerName: counter.customerName,
            createdByStaffId: counter.staffId,
            paymentReference: counter.paymentReference,
            ...(counter.paid ? { paidAmount: total, paidOn: sql<string>`(now() at time zone 'Europe/London')::date` } : {}),
          }
        : {}),
      // A guest's browser can claim the order into an account with the same email later (ADR 0017).
      guestKeyHash: userId === null ? spec.guestHash : null,
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
    .returning({ id: orders.id, number: orders.number });
  const { id: orderId, number } = order!;

  // Take the stock as `sold` movements from the branches the plan chose,
  // worked out under the variants' locks: the conditional decrement can never
  // go below zero, whatever runs at the same time.
  const taken = await applyMovements(
    tx,
    allocation.plan.takes.map((t) => ({ variantId: t.variantId, branchId: t.branchId, change: -t.quantity, kind: "sold" as const, orderId })),
    { variantsLocked: true },
  );
  if (taken.refused.length) throw new Error(`Stock of variants ${taken.refused.join(", ")} moved under their locks.`);
  if (allocation.branch) await raiseOrderTransfers(tx, { id: orderId, number }, allocation.branch.id, transfersFor(allocation.plan, allocation.branch.id));
  // The promotions' uses, each under its row's lock: a code used up meanwhile refuses the whole order.
  await redeemPromotions(tx, usedBy(spec.applied, spec.freeDeliveryCode !== null && delivery.kind === "delivery"), { id: orderId, userId, email: input.email });
  await provider?.take(tx, { userId, orderId, orderNumber: number, subtotal, vat, delivery: deliveryPence, total, poReference: input.po_reference, siteId: site?.id ?? null });
  // The lines, addresses and first status, with whatever the caller adds (checkout empties the basket), in one statement.
  const lineRows = tx.insert(orderLines).values(
    lines.map(({ quantity, product, variant, unitPrice, lineTotal, lineVat, discount }) => ({
      orderId,
      productId: product.id,
      variantId: variant.id,
      sku: variant.sku,
      options: variant.options,
      unit: product.unit,
      // The variant named in the line itself, so every document and email that prints a line names what was bought.
      name: lineName(product.name, variant.options),
      slug: product.slug,
      quantity,
      unitPrice,
      vatRate: product.vatRate,
      lineTotal,
      lineVat,
      discount,
    })),
  );
  const address = (kind: "delivery" | "billing", a: CheckoutAddress) => ({
    orderId,
    kind,
    name: a.name ?? "",
    company: a.company ?? "",
    line1: a.line_1,
    line2: a.line_2 ?? "",
    line3: a.line_3 ?? "",
    town: a.town,
    county: a.county ?? "",
    postcode: a.postcode,
  });
  const billing = input.billing_address ?? input.delivery_address;
  const addresses = [...(input.delivery_address ? [address("delivery", input.delivery_address)] : []), ...(billing ? [address("billing", billing)] : [])];
  await writeAtOnce(tx, [
    lineRows,
    ...(addresses.length ? [tx.insert(orderAddresses).values(addresses)] : []),
    tx.insert(orderStatusHistory).values({ orderId, status, note: spec.placedNote ?? "Order placed." }),
    ...(spec.alsoWrite ?? []),
  ]);

  // A card order's confirmation waits for its payment (payments/service.ts).
  if (!provider?.confirmsLater) {
    const paymentNote = counter?.paymentNote
      ? counter.paymentNote(number)
      : provider
      ? provider.note(number)
      : input.payment_method === "bank_transfer"
        ? `Please pay by bank transfer quoting ${number}; we send the order once the payment arrives.`
        : "Please pay at the branch when you collect.";
    const written = {
      order: { number, email: input.email, customerName: counter?.customerName || customerName, phone: input.phone ?? null, deliveryName: delivery.name, delivery: deliveryPence, total, vat, discount: spec.discount, poReference: input.po_reference ?? null, notes: input.notes ?? null },
      lines: lines.map(({ quantity, product, variant, lineTotal, lineVat, discount }) => ({ quantity, unit: product.unit, name: lineName(product.name, variant.options), lineTotal, lineVat, discount })),
    };
    await enqueueOrderPlaced(tx, options.mail, options, orderId, paymentNote, written);
  }
  return { id: orderId, number, total };
}

/**
 * After the order is committed, so no lock is held while the gateway answers:
 * the card payment page to send the browser to. When it cannot be opened the
 * order is taken back whole (the provider's `withdraw`) and the error goes on.
 */
export async function openPaymentPage(payments: PaymentProvider[] | undefined, input: Pick<CheckoutInput, "payment_method" | "email">, order: PlacedOrder): Promise<{ payment?: { redirect_url: string } }> {
  const provider = payments?.find((p) => p.id === input.payment_method);
  if (!provider?.begin) return {};
  try {
    return { payment: await provider.begin({ orderId: order.order_id, orderNumber: order.order_number, total: Math.round(order.total * 100), email: input.email }) };
  } catch (error) {
    await provider.withdraw?.(order.order_id);
    throw error;
  }
}

/** The order an Idempotency-Key already placed (keys are hashed with whose they are), or null. */
export async function orderByKey(q: Db, key: string): Promise<{ id: number; number: string; total: number } | null> {
  const [order] = await q.select({ id: orders.id, number: orders.number, total: orders.total }).from(orders).where(eq(orders.idempotencyKey, key)).limit(1);
  return order ?? null;
}

/** The answer checkout gives for an order: its id, number, total in pounds, and the thank-you page. */
export function placedOrderOf(order: { id: number; number: string; total: number }, thankYouLink: (number: string) => string): PlacedOrder {
  return { order_id: order.id, order_number: order.number, total: pounds(order.total), redirect: thankYouLink(order.number) };
}

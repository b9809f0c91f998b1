// Orders taken by staff for phone and walk-in customers (issue 34): the
// customer's own prices by the one pricing pipeline, a line's price lowered
// only with a reason and within the member's role (PRICE_CHANGE_LIMITS), then
// checkout's own writing of an order (checkout/write-order.ts) and so its
// guards: stock from the branches under the variants' locks, the credit limit
// on account under the account's row lock, the confirmation email. Audited in
// the same transaction; a draft it finishes is deleted with it.
import { eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { HttpError, ValidationError } from "../../../http-errors.ts";
import { recordAudit } from "../../audit/service.ts";
import { users } from "../../auth/schema.ts";
import { pounds } from "../../catalog/products/products.ts";
import { incVat } from "../../catalog/products/prices.ts";
import { productListing, productVariants, products } from "../../catalog/schema.ts";
import { lineName } from "../../catalog/variants/variant-names.ts";
import type { CheckoutInput } from "../../checkout/types.ts";
import { type OrderLineToWrite, type WriteOrderOptions, refuseWithdrawn, saleLineColumns, writeOrder } from "../../checkout/write-order.ts";
import { priceLines } from "../../pricing/pipeline.ts";
import { type StaffActor, authorize } from "../../staff/actor.ts";
import { PRICE_CHANGE_LIMITS } from "../../staff/permissions.ts";
import { RETAIL, priceContextFor } from "../../trade/pricing.ts";
import { membershipOf } from "../../trade/service.ts";
import { orderAddresses, orderDrafts, orders } from "../schema.ts";
import type { CounterOrderInput, CounterPayment } from "./contract.ts";

/** What each contract payment is stored as: checkout's methods where they are the same thing. */
const STORED_METHOD: Record<CounterPayment, CheckoutInput["payment_method"]> = {
  card_link: "card_link",
  on_account: "pay_on_account",
  paid_at_counter: "paid_at_counter",
  pay_on_collection: "pay_on_collection",
};

export const COUNTER_MESSAGES = {
  whoFor: "Choose a customer, or enter the walk-in customer's name.",
  notBoth: "Choose a customer or enter a walk-in, not both.",
  noCustomer: "That customer was not found.",
  linkNeedsEmail: "A card payment link is emailed: enter the customer's email.",
  noCards: "This shop takes no card payments, so no payment link can be sent.",
  onAccountWalkIn: "On account is for a member of an approved trade account: choose the customer.",
  referenceNeeded: "Enter the card terminal's or cash receipt's reference.",
  reasonNeeded: "Say why the price is changed.",
  aboveList: "The price cannot be above the customer's price: leave it blank to sell at that price.",
} as const;

export interface CounterOptions extends WriteOrderOptions {
  /** The order's card payment link, relative to the shop (orders/links.ts). */
  payLink: (orderNumber: string) => string;
  /** Whether card payments can be taken (a gateway is configured). */
  cardPayments: boolean;
}

/** Percent off a price, to two places: what the role's limit is compared with. */
export const percentOff = (base: number, price: number) => (base === 0 ? 0 : Math.round(((base - price) / base) * 10_000) / 100);

export function createCounterOrders(db: Db, options: CounterOptions) {
  /** Whom the order is for: an account (with its trade prices) or a walk-in, and the names and contact the order keeps. */
  async function customerOf(tx: Db, input: CounterOrderInput) {
    if (input.customer_id !== undefined && input.customer) throw new ValidationError({ customer: [COUNTER_MESSAGES.notBoth] });
    if (input.customer_id !== undefined) {
      const [user] = await tx.select({ id: users.id, email: users.email, firstname: users.firstname, lastname: users.lastname, phone: users.phone }).from(users).where(eq(users.id, input.customer_id));
      if (!user) throw new ValidationError({ customer_id: [COUNTER_MESSAGES.noCustomer] });
      const membership = await membershipOf(tx, user.id);
      const prices = membership ? priceContextFor({ accountId: membership.account.id, role: membership.member.role, state: membership.account.state, discountBasisPoints: membership.account.discountBasisPoints, pricesIncVat: false }) : RETAIL;
      return { userId: user.id, name: `${user.firstname} ${user.lastname}`.trim(), email: user.email, phone: user.phone, prices };
    }
    if (!input.customer) throw new ValidationError({ customer: [COUNTER_MESSAGES.whoFor] });
    return { userId: null, name: input.customer.name, email: input.customer.email ?? "", phone: input.customer.phone ?? "", prices: RETAIL };
  }

  async function place(actor: StaffActor, input: CounterOrderInput): Promise<{ number: string; status: string }> {
    authorize(actor, "orders.create");
    const placed = await db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const who = await customerOf(tx, input);
      if (input.payment === "card_link" && !options.cardPayments) throw new ValidationError({ payment: [COUNTER_MESSAGES.noCards] });
      if (input.payment === "card_link" && !who.email) throw new ValidationError({ "customer.email": [COUNTER_MESSAGES.linkNeedsEmail] });
      if (input.payment === "on_account" && who.userId === null) throw new ValidationError({ payment: [COUNTER_MESSAGES.onAccountWalkIn] });
      const reference = input.payment_reference ?? "";
      if (input.payment === "paid_at_counter" && !reference) throw new ValidationError({ payment_reference: [COUNTER_MESSAGES.referenceNeeded] });

      const skus = [...new Set(input.lines.map((l) => l.sku.toUpperCase()))];
      const found = await tx
        .select(saleLineColumns)
        .from(productVariants)
        .innerJoin(products, eq(products.id, productVariants.productId))
        .leftJoin(productListing, eq(productListing.productId, products.id))
        .where(inArray(productVariants.sku, skus));
      const bySku = new Map(found.map((f) => [f.variant.sku.toUpperCase(), f]));
      const errors: Record<string, string[]> = {};
      const seen = new Set<string>();
      input.lines.forEach((l, i) => {
        const key = l.sku.toUpperCase();
        if (!bySku.has(key)) errors[`lines.${i}.sku`] = [`No product has the SKU ${l.sku}.`];
        else if (seen.has(key)) errors[`lines.${i}.sku`] = [`${l.sku} is on the order twice: change the first line's quantity instead.`];
        seen.add(key);
      });
      if (Object.keys(errors).length) throw new ValidationError(errors);
      const rows = input.lines.map((l) => bySku.get(l.sku.toUpperCase())!);
      refuseWithdrawn(rows, "is not on sale.");

      // The customer's own prices (their trade price), by the one pipeline; no basket, so no promotions.
      const pipeline = priceLines(
        rows.map((r, i) => ({ productId: r.product.id, categoryIds: r.categoryIds, brandId: r.product.brandId, quantity: input.lines[i]!.quantity, listPence: r.variant.pricePence, vatRate: r.product.vatRate })),
        who.prices,
      );
      const limit = PRICE_CHANGE_LIMITS[actor.role];
      const changes: { sku: string; name: string; from: number; to: number; percent: number; reason: string }[] = [];
      const lines: OrderLineToWrite[] = rows.map((r, i) => {
        const wanted = input.lines[i]!;
        const priced = pipeline.lines[i]!;
        const base = { product: r.product, variant: r.variant, quantity: wanted.quantity };
        const asked = wanted.unit_price_ex_vat === undefined ? null : Math.round(wanted.unit_price_ex_vat * 100);
        if (asked === null || asked === priced.unitPence) return { ...base, unitPrice: priced.unitPence, lineTotal: priced.netPence, lineVat: priced.vatPence, discount: 0 };
        if (asked > priced.unitPence) {
          errors[`lines.${i}.unit_price_ex_vat`] = [COUNTER_MESSAGES.aboveList];
          return { ...base, unitPrice: priced.unitPence, lineTotal: priced.netPence, lineVat: priced.vatPence, discount: 0 };
        }
        if (!wanted.reason) errors[`lines.${i}.reason`] = [COUNTER_MESSAGES.reasonNeeded];
        changes.push({ sku: r.variant.sku, name: lineName(r.product.name, r.variant.options), from: priced.unitPence, to: asked, percent: percentOff(priced.unitPence, asked), reason: wanted.reason ?? "" });
        // VAT per line on the price it is sold at, as the pipeline works it.
        const net = asked * wanted.quantity;
        return { ...base, unitPrice: asked, lineTotal: net, lineVat: incVat(net, r.product.vatRate) - net, discount: 0 };
      });
      if (Object.keys(errors).length) throw new ValidationError(errors);
      const over = limit === null ? [] : changes.filter((c) => c.percent > limit);
      if (over.length) {
        throw new HttpError(403, `Your role may take at most ${limit}% off a price; ${over.map((c) => `${c.name} is ${c.percent}% off`).join(", ")}. Ask a manager.`);
      }

      const address = input.delivery_address;
      const checkout: CheckoutInput = {
        email: who.email,
        phone: who.phone,
        delivery_method: input.delivery_method,
        ...(address ? { delivery_address: { name: address.name || who.name, line_1: address.line_1, line_2: address.line_2, town: address.town, county: address.county, postcode: address.postcode } } : {}),
        payment_method: STORED_METHOD[input.payment],
        notes: input.notes ?? "",
        po_reference: input.po_reference ?? "",
        ...(input.branch_id !== undefined ? { branch_id: input.branch_id } : {}),
        ...(input.site_id !== undefined ? { site_id: input.site_id } : {}),
      };
      const written = await writeOrder(tx, options, {
        userId: who.userId,
        guestHash: null,
        input: checkout,
        idempotencyKey: null,
        lines,
        subtotal: lines.reduce((n, l) => n + l.lineTotal, 0),
        vat: lines.reduce((n, l) => n + l.lineVat, 0),
        discount: 0,
        applied: [],
        freeDeliveryCode: null,
        placedNote: `Order taken by ${actor.name} for ${who.name || who.email}.`,
        counter: {
          staffId: actor.staffId,
          // A delivery is addressed to its recipient; otherwise the account's or walk-in's name.
          customerName: (address?.name || who.name).trim(),
          paymentReference: reference,
          paid: input.payment === "paid_at_counter",
          paymentNote: (number) =>
            input.payment === "card_link"
              ? `Pay by card on our secure payment page: ${options.publicUrl}${options.payLink(number)} (the link is good for 14 days). We send the order once it is paid.`
              : input.payment === "paid_at_counter"
                ? `Paid at the counter, reference ${reference}. Thank you.`
                : input.payment === "pay_on_collection"
                  ? "Please pay at the branch when you collect."
                  : `Charged to your trade account: it will be on your next invoice.`,
        },
      });
      // The company on the delivery address, which checkout's address does not carry.
      if (address?.company) await tx.update(orderAddresses).set({ company: address.company }).where(eq(orderAddresses.orderId, written.id));
      const [{ status } = { status: "" }] = await tx.select({ status: orders.status }).from(orders).where(eq(orders.id, written.id));
      await recordAudit(tx, actor, {
        action: "order.created_by_staff",
        entity: "order",
        entityId: written.number,
        after: {
          customer: who.name || who.email,
          ...(who.userId !== null ? { customer_id: who.userId } : { walk_in: true }),
          payment: input.payment,
          ...(reference ? { payment_reference: reference } : {}),
          total: pounds(written.total),
          lines: lines.map((l) => `${l.quantity} × ${l.variant.sku}`),
        },
      });
      for (const c of changes) {
        await recordAudit(tx, actor, {
          action: "order.price_changed",
          entity: "order",
          entityId: written.number,
          before: { unit_price_ex_vat: pounds(c.from) },
          after: { line: `${c.name} (${c.sku})`, unit_price_ex_vat: pounds(c.to), percent_off: c.percent, reason: c.reason },
        });
      }
      if (input.draft_id !== undefined) await tx.delete(orderDrafts).where(eq(orderDrafts.id, input.draft_id));
      return { number: written.number, status };
    });
    options.mail.kick?.();
    return placed;
  }

  return { place };
}

export type CounterOrders = ReturnType<typeof createCounterOrders>;

import { asc, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import type { Outbox } from "../auth/service.ts";
import { pounds } from "../catalog/products/products.ts";
import { quantityIn } from "../catalog/products/units.ts";
import { renderEmail } from "../mail/templates.ts";
import { orderLines, orders } from "./schema.ts";

export interface ShopMail {
  appName: string;
  publicUrl: string;
  shopEmail: string;
  /** The order's own page behind a signed link (orders/links.ts), absolute: guests reach it from their emails to return or cancel items. */
  orderLink?: (number: string) => string;
}

const money = (pence: number) => `£${pounds(pence).toFixed(2)}`;

/** What the emails show of an order. Checkout passes what it has just written, saving two reads in its transaction. */
export interface WrittenOrder {
  order: Pick<typeof orders.$inferSelect, "number" | "email" | "customerName" | "phone" | "deliveryName" | "delivery" | "total" | "vat" | "discount" | "poReference" | "notes"> | undefined;
  lines: Pick<typeof orderLines.$inferSelect, "quantity" | "unit" | "name" | "lineTotal" | "lineVat" | "discount">[];
}

async function readOrder(tx: Db, orderId: number): Promise<WrittenOrder> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId));
  const lines = order ? await tx.select().from(orderLines).where(eq(orderLines.orderId, orderId)).orderBy(asc(orderLines.id)) : [];
  return { order, lines };
}

/**
 * The order confirmation to the customer and the new-order note to the shop,
 * read from the order as written, into the outbox in the caller's
 * transaction. Checkout sends them when the order is placed; a card order
 * sends them when its payment arrives, so no one is told of an order that was
 * never paid for.
 */
export async function enqueueOrderPlaced(tx: Db, mail: Outbox, shop: ShopMail, orderId: number, paymentNote: string, written?: WrittenOrder): Promise<void> {
  const { order, lines } = written ?? (await readOrder(tx, orderId));
  if (!order) return;
  const summary = [
    // A line's price is what it was sold for; what promotions took off it is said beside it (ex VAT, as the invoice has it).
    ...lines.map((l) => `${quantityIn(l.quantity, l.unit)} × ${l.name}: ${money(l.lineTotal + l.lineVat)}${l.discount > 0 ? ` (after ${money(l.discount)} off ex VAT)` : ""}`),
    ...(order.discount > 0 ? [`Your savings: ${money(order.discount)} ex VAT`] : []),
    `${order.deliveryName}: ${money(order.delivery)}`,
    `Total ${money(order.total)} (VAT ${money(order.vat)})`,
  ];
  const customer = renderEmail({
    appName: shop.appName,
    publicUrl: shop.publicUrl,
    title: `Thank you for your order ${order.number}`,
    paragraphs: [...(order.customerName ? [`For ${order.customerName}`] : []), ...summary, paymentNote],
    ...(shop.orderLink ? { action: { label: "View your order", url: shop.orderLink(order.number) } } : {}),
  });
  const staff = renderEmail({
    appName: shop.appName,
    publicUrl: shop.publicUrl,
    title: `New order ${order.number}`,
    paragraphs: [
      [order.customerName, order.email, order.phone].filter(Boolean).join(", "),
      ...summary,
      paymentNote,
      ...(order.poReference ? [`PO reference: ${order.poReference}`] : []),
      ...(order.notes ? [`Notes: ${order.notes}`] : []),
    ],
  });
  // Both in one insert (issue 35). A walk-in who gave no email at the counter has no confirmation to receive.
  await mail.enqueueAll(tx, [
    ...(order.email ? [{ to: order.email, subject: `Your order ${order.number}`, ...customer }] : []),
    { to: shop.shopEmail, subject: `Order ${order.number}`, ...staff },
  ]);
}

// The returns suites' shop and its helpers (issue 31): a shop with card payments
// through the real stripe SDK against a fake on loopback (server/test/payments.ts),
// products of the suite's own, orders placed and delivered through the API,
// and the desk's moves by role. Each test file that calls it gets a shop of its own.
import { and, asc, eq, sql } from "drizzle-orm";
import { expect } from "vitest";
import { DEMO_CUSTOMER, DEMO_STAFF, DEMO_TRADE } from "../../db/seed/index.ts";
import { TestBrowser } from "../../test/browser.ts";
import { cardPaymentShop, deliver, sessionIdOf } from "../../test/payments.ts";
import { productVariants, products } from "../catalog/schema.ts";
import { mailOutbox } from "../mail/schema.ts";
import { orderLines, orders } from "../orders/schema.ts";
import { paymentRefunds } from "../payments/schema.ts";
import { countSoleVariantsTo } from "../stock/ledger.ts";
import { stockMovements } from "../stock/schema.ts";

export interface Placed {
  buyer: TestBrowser;
  number: string;
  orderId: number;
  lines: { id: number; product_id: number; quantity: number }[];
}

export function returnsFixture() {
  const t = cardPaymentShop();
  const db = () => t.shop.database.db;
  let ip = 1;
  const nextIp = () => `198.51.${110 + Math.floor(ip / 250)}.${ip++ % 250}`;

  const staffBrowsers = new Map<string, TestBrowser>();
  async function staffAs(role: "owner" | "sales" | "warehouse" | "accounts") {
    const known = staffBrowsers.get(role);
    if (known) return known;
    const member = DEMO_STAFF.find((s) => s.role === role)!;
    const b = new TestBrowser(t.shop.app, nextIp());
    await b.staffSignIn(member.email, "demo-password-2026");
    staffBrowsers.set(role, b);
    return b;
  }

  let offset = 60;
  /** A product of its own (one variant): £10.00 ex VAT at 20%, £12.00 a unit, stock 20. */
  async function product(changes: Partial<typeof products.$inferInsert> = {}) {
    offset += 1;
    const [p] = await db()
      .update(products)
      .set({ pricePence: 1000, vatRate: 20, heavy: false, returnable: true, nonReturnableReason: "", ...changes })
      .where(eq(products.id, sql`(select p.id from products p where p.status = 'published' and (select count(*) from product_variants v where v.product_id = p.id) = 1 order by p.id offset ${offset} limit 1)`))
      .returning({ id: products.id });
    // Its price on its one variant too, and its stock through the ledger at the default branch.
    await db().update(productVariants).set({ pricePence: changes.pricePence ?? 1000 }).where(eq(productVariants.productId, p!.id));
    await db().transaction(async (tx) => void (await countSoleVariantsTo(tx as never, [{ productId: p!.id, counted: 20 }], "Returns test stock")));
    const [v] = await db().select({ id: productVariants.id, sku: productVariants.sku }).from(productVariants).where(eq(productVariants.productId, p!.id));
    return { id: p!.id, variantId: v!.id, sku: v!.sku };
  }

  const address = { name: "Sam Carter", line_1: "1 Canal Street", town: "Leeds", postcode: "LS1 4AP" };


  /** An order placed as `who`, paid as asked (a card through the fake Stripe), then dispatched and delivered by the desk unless `stop` says where to stop. */
  async function placed(options: { who?: "customer" | "trade" | "guest"; items: { productId: number; quantity: number }[]; payment?: "card" | "bank_transfer" | "pay_on_account"; delivery?: "standard" | "next_day"; stop?: "paid" | "dispatched" }): Promise<Placed> {
    const buyer = new TestBrowser(t.shop.app, nextIp());
    if (options.who === "trade") await buyer.signIn(DEMO_TRADE.email, DEMO_TRADE.password);
    else if (options.who !== "guest") await buyer.signIn(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    else await buyer.csrf();
    for (const item of options.items) expect((await buyer.post("/api/basket", { product_id: item.productId, quantity: item.quantity })).statusCode).toBeLessThan(300);
    const payment = options.payment ?? "card";
    const res = await buyer.post("/api/checkout", { email: options.who === "guest" ? "guest.returner@example.com" : options.who === "trade" ? DEMO_TRADE.email : DEMO_CUSTOMER.email, phone: "0113 496 0000", delivery_method: options.delivery ?? "standard", payment_method: payment, delivery_address: address, billing_address: address });
    expect(res.statusCode, res.body).toBe(201);
    const number = (res.json().order?.order_number ?? res.json().order_number) as string;
    if (payment === "card") {
      await t.stripe.processor.act(sessionIdOf(res.json().payment.redirect_url), "pay");
      await deliver(t.shop.app, t.lastEvent("checkout.session.completed"));
    }
    const owner = await staffAs("owner");
    if (payment === "bank_transfer") expect((await owner.post(`/api/admin/orders/${number}/transitions`, { to: "paid" })).statusCode).toBe(200);
    if (options.stop !== "paid") {
      // An order on account starts at processing already.
      const [now] = await db().select({ status: orders.status }).from(orders).where(eq(orders.number, number));
      for (const step of [...(now!.status === "processing" ? [] : [{ to: "processing" }]), { to: "dispatched", carrier: "DPD", tracking_number: "15501234" }, ...(options.stop === "dispatched" ? [] : [{ to: "completed" }])]) {
        const moved = await owner.post(`/api/admin/orders/${number}/transitions`, step);
        expect(moved.statusCode, moved.body).toBe(200);
      }
    }
    const [order] = await db().select({ id: orders.id }).from(orders).where(eq(orders.number, number));
    const lines = await db().select({ id: orderLines.id, product_id: orderLines.productId, quantity: orderLines.quantity }).from(orderLines).where(eq(orderLines.orderId, order!.id)).orderBy(asc(orderLines.id));
    return { buyer, number, orderId: order!.id, lines: lines.map((l) => ({ ...l, product_id: l.product_id! })) };
  }

  const movementsOf = (orderId: number, variantId: number) => db().select({ kind: stockMovements.kind, change: stockMovements.change }).from(stockMovements).where(and(eq(stockMovements.orderId, orderId), eq(stockMovements.variantId, variantId))).orderBy(asc(stockMovements.id));
  const mailsTo = (to: string) => db().select({ subject: mailOutbox.subject, text: mailOutbox.text }).from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(asc(mailOutbox.id));
  const refundsOf = (orderNumber: string) =>
    db()
      .select({ amount: paymentRefunds.amount, status: paymentRefunds.status })
      .from(paymentRefunds)
      .where(sql`${paymentRefunds.paymentId} in (select p.id from payments p join payment_sessions s on s.id = p.session_id join orders o on o.id = s.order_id where o.number = ${orderNumber})`)
      .orderBy(asc(paymentRefunds.id));

  async function move(role: "owner" | "sales" | "warehouse" | "accounts", rma: string, body: Record<string, unknown>) {
    return (await staffAs(role)).post(`/api/admin/returns/${rma}/transitions`, body);
  }

  return { t, db, nextIp, staffAs, product, address, placed, movementsOf, mailsTo, refundsOf, move };
}

// The returns desk's screens over HTTP, as a browser without scripts uses
// them (the built storefront): a delivered order's customer asks to return a
// faulty line through the API; the list finds it under its tab; sales are
// refused a reject without its reason and a move on a stale page, then
// approve; the warehouse receives one resaleable and one damaged unit; sales
// are refused a refund above the goods back, keeping what they typed, then
// refund by hand with a deduction. The order's page and the dashboard link to
// it. The rules themselves are proven in returns.test.ts.
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_CUSTOMER, DEMO_STAFF } from "../../db/seed/index.ts";
import { testShopForFile } from "../../test/app.ts";
import { TestBrowser } from "../../test/browser.ts";
import { databaseInvariantViolations } from "../../test/invariants.ts";
import { productVariants, products } from "../catalog/schema.ts";
import { multipart, testJpeg } from "../media/test-photos.ts";
import { orderLines, orders } from "../orders/schema.ts";
import { countSoleVariantsTo } from "../stock/ledger.ts";
import { stockMovements } from "../stock/schema.ts";
import { returns } from "./schema.ts";

const shop = testShopForFile({ shop: { storefront: { mode: "build" } }, timeout: 240_000 });
let ip = 1;
const browser = () => new TestBrowser(shop().app, `198.51.113.${ip++}`);
const staff = {} as Record<"owner" | "sales" | "warehouse", TestBrowser>;

beforeAll(async () => {
  for (const role of ["owner", "sales", "warehouse"] as const) {
    staff[role] = browser();
    await staff[role].staffSignIn(DEMO_STAFF.find((m) => m.role === role)!.email, "demo-password-2026");
  }
}, 240_000);

const text = (html: string) => html.replaceAll("<!-- -->", "");

/** A form post from the page itself, as a browser without scripts sends it. */
function post(who: TestBrowser, url: string, fields: [string, string][]) {
  return who.request("POST", url, new URLSearchParams(fields).toString(), { headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" } });
}

/** The demo customer's order of two units of a product, paid by bank transfer and delivered; the customer's browser. */
async function deliveredOrder(): Promise<{ customer: TestBrowser; number: string; lineId: number; variantId: number }> {
  const db = shop().database.db;
  const [p] = await db.select({ id: products.id }).from(products).where(eq(products.status, "published")).orderBy(products.id).offset(3).limit(1);
  // £10.00 ex VAT a unit: two come to £24.00 and standard delivery £6.95, within the sales member's refund limit.
  await db.update(products).set({ returnable: true, heavy: false, pricePence: 1000, vatRate: 20 }).where(eq(products.id, p!.id));
  await db.update(productVariants).set({ pricePence: 1000 }).where(eq(productVariants.productId, p!.id));
  await db.transaction(async (tx) => void (await countSoleVariantsTo(tx as never, [{ productId: p!.id, counted: 50 }], "Returns screens stock")));
  const customer = browser();
  await customer.signIn(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
  expect((await customer.post("/api/basket", { product_id: p!.id, quantity: 2 })).statusCode).toBeLessThan(300);
  const address = { name: "Sam Carter", line_1: "1 Canal Street", town: "Leeds", postcode: "LS1 4AP" };
  const placed = await customer.post("/api/checkout", { email: DEMO_CUSTOMER.email, phone: "0113 496 0000", delivery_method: "standard", payment_method: "bank_transfer", delivery_address: address, billing_address: address });
  expect(placed.statusCode, placed.body).toBe(201);
  const number = placed.json().order_number as string;
  for (const step of [{ to: "paid" }, { to: "processing" }, { to: "dispatched", carrier: "DPD", tracking_number: "15501234" }, { to: "completed" }]) {
    const moved = await staff.owner.post(`/api/admin/orders/${number}/transitions`, step);
    expect(moved.statusCode, moved.body).toBe(200);
  }
  const [line] = await db.select({ id: orderLines.id, variantId: orderLines.variantId }).from(orderLines).innerJoin(orders, eq(orders.id, orderLines.orderId)).where(eq(orders.number, number));
  return { customer, number, lineId: line!.id, variantId: line!.variantId! };
}

describe("the returns desk's screens", () => {
  it("list a faulty return under its tab, then approve, receive and refund it from its page, each confirmed", async () => {
    const order = await deliveredOrder();
    const asked = await order.customer.post(`/api/orders/${order.number}/returns`, { lines: [{ line_id: order.lineId, quantity: 2, reason: "faulty", note: "The switch sticks." }], method: "post" });
    expect(asked.statusCode, asked.body).toBe(201);
    const rma = asked.json().data.number as string;
    const url = `/admin/returns/${rma}`;

    // The list: under Requested, with its order, the customer and its units; the search finds it by the order's number.
    const list = text((await staff.sales.get("/admin/returns?status=requested")).body);
    expect(list).toContain(`href="${url}"`);
    expect(list).toContain(`href="/admin/orders/${order.number}"`);
    expect(list).toContain(DEMO_CUSTOMER.email);
    expect(text((await staff.sales.get(`/admin/returns?q=${order.number}`)).body)).toContain(rma);
    expect(text((await staff.sales.get("/admin/returns?status=refunded&q=" + order.number)).body)).toContain("No returns: refunded match these filters");
    // The warehouse sees no email.
    expect((await staff.warehouse.get("/admin/returns")).body).not.toContain(DEMO_CUSTOMER.email);

    // The page: the order, the line with its reason and note, and the sales member's moves.
    const page = text((await staff.sales.get(url)).body);
    expect(page).toContain(`Return ${rma}`);
    expect(page).toContain("The switch sticks.");
    expect(page).toContain("Faulty");
    expect(page).toMatch(/>Approve</);
    expect(page).toMatch(/>Reject</);

    // A reject needs its reason, shown beside the field; a page that is out of date is refused plainly.
    const noReason = await post(staff.sales, url, [["to", "rejected"], ["expected_status", "requested"], ["reason", ""]]);
    expect(noReason.statusCode).toBe(422);
    expect(text(noReason.body)).toContain("Give the reason: the customer is told.");
    expect(noReason.body).toMatch(/id="reject-reason"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="reject-reason"/);
    const stale = await post(staff.sales, url, [["to", "approved"], ["expected_status", "approved"]]);
    expect(stale.statusCode).toBe(409);
    expect(text(stale.body)).toContain(`Return ${rma} changed while you were looking: it is now requested.`);

    const approved = await post(staff.sales, url, [["to", "approved"], ["expected_status", "requested"]]);
    expect(approved.statusCode).toBe(200);
    expect(text(approved.body)).toContain(`Return ${rma} is approved. The customer has been emailed how to send it back.`);

    // The warehouse receives one back in stock and one damaged; it may not refund.
    const warehousePage = text((await staff.warehouse.get(url)).body);
    expect(warehousePage).toContain("Receive the goods");
    expect(warehousePage).not.toContain("How it goes back");
    const received = await post(staff.warehouse, url, [["to", "received"], ["expected_status", "approved"], ["line", String(order.lineId)], [`received_${order.lineId}`, "1"], [`damaged_${order.lineId}`, "1"]]);
    expect(received.statusCode, text(received.body).slice(0, 500)).toBe(200);
    expect(text(received.body)).toContain(`Return ${rma} is received: 1 back in stock, 1 received damaged. The customer has been emailed.`);
    const [ret] = await shop().database.db.select().from(returns).where(eq(returns.number, rma));
    const moves = await shop().database.db.select({ kind: stockMovements.kind, change: stockMovements.change }).from(stockMovements).where(and(eq(stockMovements.orderId, ret!.orderId), eq(stockMovements.variantId, order.variantId)));
    expect(moves.filter((m) => m.kind !== "sold")).toEqual([{ kind: "returned", change: 2 }, { kind: "written_off", change: -1 }]);

    // The refund: the proposal and how it goes back; more than the goods back is refused beside the field, keeping what was typed.
    const refundPage = text((await staff.sales.get(url)).body);
    expect(refundPage).toContain("14 days left to refund");
    expect(refundPage).toContain("Proposed refund");
    expect(refundPage).toContain("By hand: the customer paid by bank transfer");
    const tooMuch = await post(staff.sales, url, [["to", "refunded"], ["expected_status", "received"], ["amount", "9999"], ["deduction", ""], ["deduction_reason", ""]]);
    expect(tooMuch.statusCode).toBe(422);
    expect(text(tooMuch.body)).toContain("At most £30.95: the goods received back and the delivery.");
    expect(tooMuch.body).toContain('value="9999"');
    const noWhy = await post(staff.sales, url, [["to", "refunded"], ["expected_status", "received"], ["amount", ""], ["deduction", "1.50"], ["deduction_reason", ""]]);
    expect(noWhy.statusCode).toBe(422);
    expect(text(noWhy.body)).toContain("Say why: the customer is told");
    const refunded = await post(staff.sales, url, [["to", "refunded"], ["expected_status", "received"], ["amount", ""], ["deduction", "1.50"], ["deduction_reason", "Repacking the opened box"]]);
    expect(refunded.statusCode, text(refunded.body).slice(0, 500)).toBe(200);
    expect(text(refunded.body)).toContain(`Refunded £29.45 by hand (recorded here; pay it back the way the customer paid) for return ${rma}. £1.50 deducted. The customer has been emailed.`);
    const [done] = await shop().database.db.select().from(returns).where(eq(returns.number, rma));
    expect(done).toMatchObject({ status: "refunded", refunded: 2945, refundMethod: "manual", deduction: 150, deductionReason: "Repacking the opened box" });

    // The order's page lists the return; the audit history on the return's page has each move.
    const orderPage = text((await staff.sales.get(`/admin/orders/${order.number}`)).body);
    expect(orderPage).toContain(`href="${url}"`);
    const after = text((await staff.sales.get(url)).body);
    const history = after.slice(after.indexOf('id="audit-history"'), after.indexOf("</section>", after.indexOf('id="audit-history"')));
    expect(history.match(/Return status changed/g)).toHaveLength(3);
    expect(await databaseInvariantViolations(shop().database.db)).toEqual([]);
  });

  it("shows the returns to approve and overdue for a refund on the dashboard, and an empty list plainly", async () => {
    const dashboard = text((await staff.sales.get("/admin")).body);
    expect(dashboard).toContain("Returns to approve");
    expect(dashboard).toContain('href="/admin/returns?status=received&amp;overdue=1"');
    const overdue = text((await staff.sales.get("/admin/returns?status=received&overdue=1")).body);
    expect(overdue).toContain("Only returns received more than 14 days ago and not yet refunded.");
    expect(overdue).toContain("No returns: received match these filters");
    // The menu has Returns beside Orders for those who work the desk, and not for the hire desk.
    const menu = dashboard.slice(dashboard.indexOf('aria-label="Back office"'));
    expect(menu.indexOf('href="/admin/returns"')).toBeGreaterThan(menu.indexOf('href="/admin/orders"'));
    expect(menu.indexOf('href="/admin/returns"')).toBeLessThan(menu.indexOf('href="/admin/customers"'));
  });

  it("takes the customer's photos with the return form without scripts, refuses what is not a photo beside its field keeping what was typed, and shows them on the desk's page", async () => {
    const order = await deliveredOrder();
    const [o] = await shop().database.db.select({ id: orders.id }).from(orders).where(eq(orders.number, order.number));
    const pageUrl = `/account/orders/${o!.id}`;
    const form = text((await order.customer.get(pageUrl)).body);
    // React writes the attribute as `encType`: HTML reads attribute names in any case.
    expect(form).toMatch(/<form[^>]*enctype="multipart\/form-data"/i);
    expect(form).toMatch(/<input[^>]*type="file"[^>]*name="photos"|<input[^>]*name="photos"[^>]*type="file"/);
    expect(form).toContain("Up to 4 photos of a fault or the damage help us");
    const fields: [string, string][] = [["intent", "return"], ["order", order.number], ["lines", String(order.lineId)], [`qty-${order.lineId}`, "1"], [`reason-${order.lineId}`, "damaged"], [`note-${order.lineId}`, "Dented on arrival."], ["method", "post"]];
    const send = (files: Parameters<typeof multipart>[0]) => {
      const { body, headers } = multipart(
        files.map((f) => ({ ...f, field: "photos" })),
        fields,
      );
      return order.customer.request("POST", pageUrl, body, { headers: { ...headers, "sec-fetch-site": "same-origin" } });
    };

    // Not a photo, whatever its name: refused beside the field, nothing made, what was typed shown again.
    const refused = await send([{ filename: "dent.jpg", bytes: Buffer.from("%PDF-1.7 not a photo") }]);
    expect(refused.statusCode).toBe(200);
    const again = text(refused.body);
    expect(again).toContain("&quot;dent.jpg&quot; is not a photo. Upload a JPEG, PNG, WebP, AVIF or HEIC photo.");
    expect(again).toContain("Dented on arrival.");
    expect(again).toMatch(/<option value="damaged" selected=""/);
    expect(again).toMatch(/name="photos"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*name="photos"/);
    expect(await shop().database.db.select().from(returns).where(eq(returns.orderId, o!.id))).toEqual([]);

    const made = await send([{ filename: "dent.jpg", bytes: await testJpeg(900, 600) }]);
    expect(made.statusCode, text(made.body).slice(0, 500)).toBe(200);
    const [ret] = await shop().database.db.select().from(returns).where(eq(returns.orderId, o!.id));
    expect(text(made.body)).toContain(`Return ${ret!.number} is requested.`);
    // The customer's returns show their photo, from the route that checks who asks.
    const mine = text((await order.customer.get(pageUrl)).body);
    expect(mine).toMatch(new RegExp(`<img src="/api/orders/${order.number}/returns/${ret!.number}/photos/[a-z0-9]{12}/small" alt="Your photo 1"`));

    // The desk's page: a thumbnail linking to the larger photo, described.
    const desk = text((await staff.sales.get(`/admin/returns/${ret!.number}`)).body);
    expect(desk).toContain("Customer&#x27;s photos");
    const link = new RegExp(`<a href="(/api/admin/returns/${ret!.number}/photos/[a-z0-9]{12}/large)"[^>]*><img src="(/api/admin/returns/${ret!.number}/photos/[a-z0-9]{12}/small)" alt="Photo 1 from the customer"`).exec(desk);
    expect(link, desk.slice(desk.indexOf("Customer&#x27;s photos"), desk.indexOf("Customer&#x27;s photos") + 800)).not.toBeNull();
    for (const url of [link![1]!, link![2]!]) {
      const photo = await staff.sales.get(url);
      expect(photo.statusCode).toBe(200);
      expect(photo.headers["content-type"]).toBe("image/webp");
    }
  });

  it("answers a return no one has with the not-found page", async () => {
    expect((await staff.sales.get("/admin/returns/RMA-999999")).statusCode).toBe(404);
  });
});

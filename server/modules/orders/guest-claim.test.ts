// A guest's orders move into an account only with proof of both the browser
// (the guest cookie they were placed with) and the email (ADR 0017).
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GUEST_COOKIE } from "../../plugins/guest.ts";
import { testShopForFile } from "../../test/app.ts";
import { type TestBrowser, freshBrowser } from "../../test/browser.ts";
import { sha256 } from "../auth/tokens.ts";
import { products } from "../catalog/schema.ts";
import { orders } from "./schema.ts";
import { createOrderService } from "./service.ts";

const shop = testShopForFile();

let ip = 1;
const browser = () => freshBrowser(shop().app, `198.51.${Math.floor(ip / 250)}.${ip++ % 250}`);

let offset = 0;
/** A product with plenty of stock. */
async function product() {
  offset += 1;
  const [p] = await shop().database.db
    .update(products)
    .set({ stock: 500, heavy: false })
    .where(eq(products.id, sql`(select id from products order by id offset ${offset + 40} limit 1)`))
    .returning({ id: products.id });
  return p!.id;
}

let counter = 0;
const uniqueEmail = (who: string) => `${who}.${++counter}.${Date.now()}@example.co.uk`;

/** Places an order from this browser (as a guest unless signed in) with the given email. */
async function placeOrder(b: TestBrowser, email: string) {
  expect((await b.post("/api/basket", { product_id: await product(), quantity: 1 })).statusCode).toBe(200);
  const res = await b.post("/api/checkout", {
    email,
    phone: "0113 496 0000",
    delivery_method: "standard",
    delivery_address: { name: "Test Recipient", line_1: "1 High Street", town: "Leeds", postcode: "LS1 1AB" },
    payment_method: "bank_transfer",
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { order_id: number; order_number: string };
}

async function register(b: TestBrowser, email: string) {
  const res = await b.register("Sam", "Guest", email);
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { user: { id: number } }).user.id;
}

async function login(b: TestBrowser, email: string) {
  const res = await b.post("/api/auth/login", { email, password: "a long enough secret" });
  expect(res.statusCode, res.body).toBe(200);
}

async function historyNumbers(b: TestBrowser): Promise<string[]> {
  const res = await b.get("/api/account/orders");
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: { number: string }[] }).data.map((o) => o.number);
}

async function row(orderId: number) {
  const [o] = await shop().database.db.select({ userId: orders.userId, guestKeyHash: orders.guestKeyHash }).from(orders).where(eq(orders.id, orderId));
  return o!;
}

describe("a guest's orders after signing up or in", () => {
  it("keeps the guest cookie's hash on a guest order, and none on a signed-in order", async () => {
    const b = await browser();
    const email = uniqueEmail("keyed");
    const placed = await placeOrder(b, email);
    expect(await row(placed.order_id)).toEqual({ userId: null, guestKeyHash: sha256(b.cookies.get(GUEST_COOKIE)!) });

    await register(b, email);
    const signedIn = await placeOrder(b, email);
    expect((await row(signedIn.order_id)).guestKeyHash).toBeNull();
  });

  it("same browser and same email (any case): the order moves into the new account, its guest key cleared", async () => {
    const b = await browser();
    const email = uniqueEmail("same");
    const placed = await placeOrder(b, email.toUpperCase());
    const userId = await register(b, email);

    expect(await historyNumbers(b)).toEqual([placed.order_number]);
    expect(await row(placed.order_id)).toEqual({ userId, guestKeyHash: null });
    const detail = await b.get(`/api/account/orders/${placed.order_id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().data.number).toBe(placed.order_number);
  });

  it("signing in to an existing account from the browser that placed the guest order claims it too", async () => {
    const email = uniqueEmail("existing");
    const owner = await browser();
    const userId = await register(owner, email);

    const b = await browser();
    const placed = await placeOrder(b, email);
    await login(b, email);
    expect(await historyNumbers(b)).toEqual([placed.order_number]);
    expect(await row(placed.order_id)).toEqual({ userId, guestKeyHash: null });
  });

  it("same browser, different email: the order stays a guest order with its key", async () => {
    const b = await browser();
    const other = await placeOrder(b, uniqueEmail("someone-else"));
    const mine = await placeOrder(b, uniqueEmail("mine-before"));
    const email = uniqueEmail("mine");
    const own = await placeOrder(b, email);
    const userId = await register(b, email);

    expect(await historyNumbers(b)).toEqual([own.order_number]);
    const key = sha256(b.cookies.get(GUEST_COOKIE)!);
    expect(await row(other.order_id)).toEqual({ userId: null, guestKeyHash: key });
    expect(await row(mine.order_id)).toEqual({ userId: null, guestKeyHash: key });
    expect(await row(own.order_id)).toEqual({ userId, guestKeyHash: null });
    expect((await b.get(`/api/account/orders/${other.order_id}`)).statusCode).toBe(404);
  });

  it("another browser with the same email: the order is not claimed", async () => {
    const email = uniqueEmail("elsewhere");
    const placedBy = await browser();
    const placed = await placeOrder(placedBy, email);

    // The other browser has a guest cookie of its own (it has a basket).
    const stranger = await browser();
    expect((await stranger.post("/api/basket", { product_id: await product(), quantity: 1 })).statusCode).toBe(200);
    expect(stranger.cookies.get(GUEST_COOKIE)).toBeTruthy();
    await register(stranger, email);
    expect(await historyNumbers(stranger)).toEqual([]);
    expect((await stranger.get(`/api/account/orders/${placed.order_id}`)).statusCode).toBe(404);
    expect(await row(placed.order_id)).toEqual({ userId: null, guestKeyHash: sha256(placedBy.cookies.get(GUEST_COOKIE)!) });

    // A browser with no guest cookie at all claims nothing either.
    const bare = await browser();
    await login(bare, email);
    expect(await historyNumbers(bare)).toEqual([]);
  });

  it("an order that already has an owner is left alone, and claiming again changes nothing", async () => {
    const email = uniqueEmail("owned");
    const b = await browser();
    const placed = await placeOrder(b, email);
    const key = sha256(b.cookies.get(GUEST_COOKIE)!);

    // Someone else's order still carrying this browser's key (e.g. moved by staff): never reassigned.
    const someone = await browser();
    const otherUser = await register(someone, uniqueEmail("other-owner"));
    const foreign = await placeOrder(b, email);
    await shop().database.db.update(orders).set({ userId: otherUser }).where(eq(orders.id, foreign.order_id));

    const userId = await register(b, email);
    expect(await historyNumbers(b)).toEqual([placed.order_number]);
    expect(await row(foreign.order_id)).toEqual({ userId: otherUser, guestKeyHash: key });

    // Sign out and back in (twice at once): nothing more moves, nothing moves twice.
    expect((await b.post("/api/auth/logout")).statusCode).toBe(204);
    await b.csrf();
    const service = createOrderService(shop().database.db);
    await Promise.all([login(b, email), login(b, email), service.claimGuestOrders(userId, key)]);
    expect(await service.claimGuestOrders(userId, key)).toEqual([]);
    expect(await historyNumbers(b)).toEqual([placed.order_number]);
    expect(await row(placed.order_id)).toEqual({ userId, guestKeyHash: null });
    expect(await row(foreign.order_id)).toEqual({ userId: otherUser, guestKeyHash: key });
  });
});

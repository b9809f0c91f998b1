// Stock per branch (issue 30) over HTTP: movements, deliveries and counts at a
// named branch, each branch's levels, refusals by branch, and checkout taking
// from the collection branch or by the fulfilment rule; under concurrency (on
// PostgreSQL in `npm run test:db`), collections of a branch's last units never
// oversell it and leave the other branches alone.
import { and, eq, gt, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { londonDate } from "../hire/calendar.ts";
import { DEMO_STAFF } from "../../db/seed/index.ts";
import { testShopForFile } from "../../test/app.ts";
import { TestBrowser } from "../../test/browser.ts";
import { databaseInvariantViolations } from "../../test/invariants.ts";
import { branches } from "../branches/schema.ts";
import { productVariants, products } from "../catalog/schema.ts";
import { orders } from "../orders/schema.ts";
import { branchStock, stockMovements, stockTransfers } from "./schema.ts";
import { staffBrowser } from "../../test/staff-browsers.ts";

const shop = testShopForFile();
let ip = 1;
let manager: TestBrowser;
const db = () => shop().database.db;
const branch = {} as Record<"leeds" | "york" | "harrogate" | "manchester", { id: number; slug: string; name: string }>;

/** A demo product with one variant, not used by another test here, and its stock at each branch set by a count. */
async function stocked(offset: number, levels: Partial<Record<keyof typeof branch, number>>) {
  const [p] = await db()
    .select({ id: products.id, sku: products.sku, name: products.name })
    .from(products)
    .where(sql`${products.sku} not like 'GEN-%' and (select count(*) from ${productVariants} v where v.product_id = ${products.id}) = 1 and not ${products.heavy}`)
    .orderBy(products.id)
    .offset(offset)
    .limit(1);
  for (const key of Object.keys(branch) as (keyof typeof branch)[]) {
    const res = await manager.post("/api/admin/stock/counts", { branch_id: branch[key].id, counts: [{ sku: p!.sku, counted: levels[key] ?? 0 }] });
    expect(res.statusCode, res.body).toBe(200);
  }
  return p!;
}

const levelsOf = async (sku: string) => Object.fromEntries(((await manager.get(`/api/admin/stock/levels?sku=${sku}`)).json().data as { branch: { slug: string }; stock: number }[]).map((l) => [l.branch.slug, l.stock]));

async function buyer(productId: number, quantity: number) {
  const b = new TestBrowser(shop().app, `198.51.104.${ip++ % 250}`);
  await b.csrf();
  expect((await b.post("/api/basket", { product_id: productId, quantity })).statusCode).toBe(200);
  return b;
}
const collect = (branchId: number) => ({ email: "collector@example.com", phone: "0113 496 0000", delivery_method: "collect", collector_name: "Test Collector", payment_method: "pay_on_collection", branch_id: branchId });
const deliver = (postcode: string) => ({
  email: "delivery@example.com",
  phone: "0113 496 0000",
  delivery_method: "standard",
  delivery_address: { name: "Test Recipient", line_1: "1 Stock Lane", town: "Town", postcode },
  payment_method: "bank_transfer",
});

beforeAll(async () => {
  const member = DEMO_STAFF.find((s) => s.role === "manager")!;
  manager = await staffBrowser(shop().app, `198.51.104.${ip++}`, member.email);
  for (const b of await db().select({ id: branches.id, slug: branches.slug, name: branches.name }).from(branches)) branch[b.slug as keyof typeof branch] = b;
}, 120_000);

describe("the stock desk at a branch", () => {
  it("receives at a named branch, shows each branch's level and the total, and records the branch on the movement", async () => {
    const p = await stocked(0, { leeds: 4 });
    const res = await manager.post("/api/admin/stock/deliveries", { reference: "PO-YORK-1", branch_id: branch.york.id, lines: [{ sku: p.sku, quantity: 6 }] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().products).toEqual([{ sku: p.sku, name: p.name, branch: branch.york, before: 0, after: 6 }]);
    const levels = (await manager.get(`/api/admin/stock/levels?sku=${p.sku.toLowerCase()}`)).json();
    expect(levels).toMatchObject({ sku: p.sku, total: 10 });
    expect(levels.data.map((l: { branch: { slug: string }; stock: number }) => [l.branch.slug, l.stock])).toEqual([
      ["leeds", 4],
      ["york", 6],
      ["harrogate", 0],
      ["manchester", 0],
    ]);
    const history = (await manager.get(`/api/admin/stock/movements?sku=${p.sku}&branch_id=${branch.york.id}`)).json().data;
    expect(history[0]).toMatchObject({ change: 6, kind: "received", reason: "Delivery PO-YORK-1", stock_after: 6, branch: branch.york });
    expect(history.every((m: { branch: { slug: string } }) => m.branch.slug === "york")).toBe(true);
    expect((await manager.get("/api/admin/stock/levels?sku=NO-SUCH")).statusCode).toBe(404);
  });

  it("refuses to take more than a branch holds though the total would cover it, and names an unknown branch's rows", async () => {
    const p = await stocked(1, { leeds: 10, york: 2 });
    const res = await manager.post("/api/admin/stock/movements", { movements: [{ sku: p.sku, change: -3, reason: "Damaged", branch_id: branch.york.id }] });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors["movements.0.change"]).toEqual([`Row 1: ${p.sku} has 2 at ${branch.york.name}; taking 3 would leave less than none.`]);
    const unknown = await manager.post("/api/admin/stock/movements", { movements: [{ sku: p.sku, change: 1, reason: "Found", branch_id: 9999 }] });
    expect(unknown.json().errors["movements.0.branch_id"]).toEqual(["Row 1: There is no branch 9999."]);
    expect(await levelsOf(p.sku)).toMatchObject({ leeds: 10, york: 2 });
    expect(await databaseInvariantViolations(db())).toEqual([]);
  });

  it("keeps the editors' one figure the total: counted at the default branch, refused below what the others hold", async () => {
    const p = await stocked(2, { leeds: 3, manchester: 5 });
    const lower = await manager.patch(`/api/admin/products/${p.sku}`, { stock: 4 });
    expect(lower.statusCode).toBe(422);
    expect(lower.json().errors.stock[0]).toMatch(/^Other branches hold 5, so the total cannot be less/);
    const set = await manager.patch(`/api/admin/products/${p.sku}`, { stock: 7 });
    expect(set.statusCode, set.body).toBe(200);
    expect(await levelsOf(p.sku)).toMatchObject({ leeds: 2, manchester: 5 });
  });
});

describe("checkout by branch", () => {
  it("takes a collection from its branch, and refuses one that its branch and the others together cannot supply with errors.branch_id", async () => {
    const p = await stocked(3, { leeds: 5, york: 1 });
    // Leeds's five sell out after the basket was filled: York's one cannot cover two.
    const late = await buyer(p.id, 2);
    expect((await manager.post("/api/admin/stock/counts", { branch_id: branch.leeds.id, counts: [{ sku: p.sku, counted: 0 }] })).statusCode).toBe(200);
    const short = await late.post("/api/checkout", collect(branch.york.id));
    expect(short.statusCode).toBe(422);
    expect(short.json().errors.branch_id).toEqual([`${branch.york.name} cannot supply one line of your basket: ${p.name}: only 1 left in stock.`]);
    expect(await levelsOf(p.sku)).toMatchObject({ leeds: 0, york: 1 });
    expect((await manager.post("/api/admin/stock/counts", { branch_id: branch.leeds.id, counts: [{ sku: p.sku, counted: 5 }] })).statusCode).toBe(200);
    const placed = await (await buyer(p.id, 1)).post("/api/checkout", collect(branch.york.id));
    expect(placed.statusCode, placed.body).toBe(201);
    const [order] = await db().select({ branchId: orders.branchId }).from(orders).where(eq(orders.id, placed.json().order_id));
    expect(order!.branchId).toBe(branch.york.id);
    expect(await levelsOf(p.sku)).toMatchObject({ leeds: 5, york: 0 });
    // Taken from York's own shelf: no transfer.
    expect(await db().select().from(stockTransfers).where(eq(stockTransfers.orderId, placed.json().order_id))).toEqual([]);
    // A branch that does not offer collection is refused.
    await db().update(branches).set({ services: ["trade_counter"] }).where(eq(branches.id, branch.manchester.id));
    const refused = await (await buyer(p.id, 1)).post("/api/checkout", collect(branch.manchester.id));
    expect(refused.json().errors.branch_id).toEqual(["Choose a branch that offers click & collect."]);
    await db().update(branches).set({ services: ["collect", "trade_counter"] }).where(eq(branches.id, branch.manchester.id));
  });

  it("fetches what the collection branch lacks from the nearest branch that has it by the order's own transfer, ready later, whose steps move the goods and not the counts", async () => {
    const p = await stocked(6, { leeds: 4, york: 1 });
    const placed = await (await buyer(p.id, 3)).post("/api/checkout", collect(branch.york.id));
    expect(placed.statusCode, placed.body).toBe(201);
    const orderId = placed.json().order_id as number;
    // One from York's shelf, two from Leeds (the sale takes them from Leeds's count at once).
    expect(await levelsOf(p.sku)).toMatchObject({ leeds: 2, york: 0 });
    const [transfer] = await db().select().from(stockTransfers).where(eq(stockTransfers.orderId, orderId));
    expect(transfer).toMatchObject({ fromBranchId: branch.leeds.id, toBranchId: branch.york.id, state: "requested" });
    // Ready no sooner than York's transfer day: tomorrow at the earliest, in London.
    const [order] = await db().select({ number: orders.number, readyAt: orders.collectReadyAt }).from(orders).where(eq(orders.id, orderId));
    const london = (d: Date) => d.toLocaleDateString("en-CA", { timeZone: "Europe/London" });
    expect(london(order!.readyAt!) > london(new Date())).toBe(true);
    // The transfer desk shows the order; it is sent whole and cannot be cancelled on its own.
    const shown = (await manager.get(`/api/admin/stock/transfers/${transfer!.id}`)).json().data;
    expect(shown).toMatchObject({ order: { number: order!.number }, lines: [{ sku: p.sku, quantity: 2 }] });
    expect((await manager.post(`/api/admin/stock/transfers/${transfer!.id}/cancel`, {})).statusCode).toBe(409);
    expect((await manager.post(`/api/admin/stock/transfers/${transfer!.id}/send`, {})).statusCode).toBe(200);
    expect(await levelsOf(p.sku)).toMatchObject({ leeds: 2, york: 0 });
    expect((await manager.post(`/api/admin/stock/transfers/${transfer!.id}/receive`, {})).statusCode).toBe(200);
    expect(await levelsOf(p.sku)).toMatchObject({ leeds: 2, york: 0 });
    expect(await databaseInvariantViolations(db())).toEqual([]);
    // Cancelled once the goods are at York: all three go back on York's shelf.
    const cancelled = await manager.post(`/api/admin/orders/${order!.number}/transitions`, { to: "cancelled", note: "Customer changed their mind" });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await levelsOf(p.sku)).toMatchObject({ leeds: 2, york: 3 });
    expect(await databaseInvariantViolations(db())).toEqual([]);
  });

  it("tells checkout when the basket is ready at each branch: now where it is all on the shelf, later by transfer, never where no branch can make it up", async () => {
    const p = await stocked(9, { leeds: 2, york: 1 });
    const b = await buyer(p.id, 2);
    type Choice = { slug: string; ready_at: string | null; ready_label: string | null; by_transfer: boolean };
    const choices = async () => Object.fromEntries(((await b.get("/api/checkout/delivery-options")).json().data.collect_at as Choice[]).map((c) => [c.slug, c]));
    const first = await choices();
    expect(first.leeds).toMatchObject({ by_transfer: false, ready_label: expect.stringMatching(/ from \d\d:\d\d$/) });
    expect(first.york).toMatchObject({ by_transfer: true, ready_label: expect.any(String) });
    // By transfer: not before the transfer day (a day) is out, whatever each branch's own hours make of it
    // (on a Saturday afternoon York, open on Sunday, can beat Leeds's Monday opening).
    expect(first.york!.ready_at!.slice(0, 10) > londonDate(new Date())).toBe(true);
    // Leeds sells out: York's one is all there is, so no branch can supply two.
    expect((await manager.post("/api/admin/stock/counts", { branch_id: branch.leeds.id, counts: [{ sku: p.sku, counted: 0 }] })).statusCode).toBe(200);
    const after = await choices();
    expect(Object.values(after).map((c) => c.ready_at)).toEqual([null, null, null, null]);
  });

  it("puts a cancelled collection's transferred stock where it is: at the sender before sending, into the collecting branch's stock when it arrives after", async () => {
    const p = await stocked(7, { leeds: 6 });
    const cancel = (number: string) => manager.post(`/api/admin/orders/${number}/transitions`, { to: "cancelled", note: "Not wanted" });
    const place = async () => {
      const res = await (await buyer(p.id, 2)).post("/api/checkout", collect(branch.york.id));
      expect(res.statusCode, res.body).toBe(201);
      const [o] = await db().select({ id: orders.id, number: orders.number }).from(orders).where(eq(orders.id, res.json().order_id));
      const [t] = await db().select({ id: stockTransfers.id }).from(stockTransfers).where(eq(stockTransfers.orderId, o!.id));
      return { ...o!, transfer: t!.id };
    };
    // Not yet sent: the transfer is cancelled with the order, the stock stays at Leeds.
    const first = await place();
    expect(await levelsOf(p.sku)).toMatchObject({ leeds: 4, york: 0 });
    expect((await cancel(first.number)).statusCode).toBe(200);
    expect(await levelsOf(p.sku)).toMatchObject({ leeds: 6, york: 0 });
    expect((await db().select({ state: stockTransfers.state }).from(stockTransfers).where(eq(stockTransfers.id, first.transfer)))[0]!.state).toBe("cancelled");
    // On its way: it stops being the order's, and receiving it puts the goods into York's stock.
    const second = await place();
    expect((await manager.post(`/api/admin/stock/transfers/${second.transfer}/send`, {})).statusCode).toBe(200);
    expect((await cancel(second.number)).statusCode).toBe(200);
    expect(await levelsOf(p.sku)).toMatchObject({ leeds: 4, york: 0 });
    const arrived = await manager.post(`/api/admin/stock/transfers/${second.transfer}/receive`, {});
    expect(arrived.statusCode, arrived.body).toBe(200);
    expect(arrived.json().data.order).toBeNull();
    expect(await levelsOf(p.sku)).toMatchObject({ leeds: 4, york: 2 });
    expect(await databaseInvariantViolations(db())).toEqual([]);
  });

  it("sends a delivery from the nearest branch that holds it all, and splits one that no branch holds whole", async () => {
    const p = await stocked(4, { leeds: 1, york: 3, manchester: 3 });
    // A York address: York is nearest and holds it.
    const near = await (await buyer(p.id, 2)).post("/api/checkout", deliver("YO31 7UL"));
    expect(near.statusCode, near.body).toBe(201);
    const [sent] = await db().select({ branchId: orders.branchId }).from(orders).where(eq(orders.id, near.json().order_id));
    expect(sent!.branchId).toBe(branch.york.id);
    // Five: York has 1 left, so nobody holds five; the nearest first (York, Leeds, then Manchester).
    const split = await (await buyer(p.id, 5)).post("/api/checkout", deliver("YO31 7UL"));
    expect(split.statusCode, split.body).toBe(201);
    const [parts] = await db().select({ branchId: orders.branchId }).from(orders).where(eq(orders.id, split.json().order_id));
    expect(parts!.branchId).toBeNull();
    const taken = await db()
      .select({ branchId: stockMovements.branchId, change: stockMovements.change })
      .from(stockMovements)
      .where(and(eq(stockMovements.orderId, split.json().order_id), eq(stockMovements.kind, "sold")));
    expect(Object.fromEntries(taken.map((t) => [t.branchId, t.change]))).toEqual({ [branch.york.id]: -1, [branch.leeds.id]: -1, [branch.manchester.id]: -3 });
    expect(await levelsOf(p.sku)).toMatchObject({ leeds: 0, york: 0, manchester: 0 });
    expect(await databaseInvariantViolations(db())).toEqual([]);
  });

  it("never oversells a branch's last units to concurrent collections, nor the branch its transfers come from, and leaves the other branches alone", async () => {
    // Three at York and two at Leeds that can come by transfer: five in all for twelve buyers.
    const p = await stocked(5, { leeds: 2, york: 3 });
    const other = await stocked(8, { harrogate: 4, manchester: 6 });
    const before = (await db().select({ id: sql<number>`coalesce(max(${orders.id}), 0)::int` }).from(orders))[0]!.id;
    const buyers = await Promise.all(Array.from({ length: 12 }, () => buyer(p.id, 1)));
    const results = await Promise.all(buyers.map((b) => b.post("/api/checkout", collect(branch.york.id))));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(5);
    expect(results.filter((r) => r.statusCode === 422)).toHaveLength(7);
    expect(await levelsOf(p.sku)).toMatchObject({ leeds: 0, york: 0, harrogate: 0, manchester: 0 });
    // Another product's stock at the other branches is untouched.
    expect(await levelsOf(other.sku)).toMatchObject({ leeds: 0, york: 0, harrogate: 4, manchester: 6 });
    const placed = await db().select({ id: orders.id }).from(orders).where(and(gt(orders.id, before), eq(orders.branchId, branch.york.id)));
    expect(placed).toHaveLength(5);
    // Two of them wait for Leeds's units: one transfer each.
    expect(await db().select({ id: stockTransfers.id }).from(stockTransfers).where(and(gt(stockTransfers.orderId, before), eq(stockTransfers.fromBranchId, branch.leeds.id)))).toHaveLength(2);
    const [row] = await db().select({ stock: branchStock.stock }).from(branchStock).where(and(eq(branchStock.branchId, branch.york.id), sql`${branchStock.variantId} = (select id from ${productVariants} where sku = ${p.sku})`));
    expect(row!.stock).toBe(0);
    expect(await databaseInvariantViolations(db())).toEqual([]);
  });
});

// Last in the file: a direct write records no movement, so the ledger's invariants no longer hold for this variant after it.
describe("a direct write to a variant's stock", () => {
  it("gives a rise to the default branch, and takes a fall from it first, then from the others, never below none", async () => {
    const p = await stocked(10, { leeds: 2, york: 5, manchester: 1 });
    const variant = sql`(select id from ${productVariants} where sku = ${p.sku})`;
    await db().execute(sql`update ${productVariants} set stock = 4 where id = ${variant}`);
    expect(await levelsOf(p.sku)).toMatchObject({ leeds: 0, york: 3, manchester: 1 });
    await db().execute(sql`update ${productVariants} set stock = 7 where id = ${variant}`);
    expect(await levelsOf(p.sku)).toMatchObject({ leeds: 3, york: 3, manchester: 1 });
    await db().execute(sql`update ${productVariants} set stock = 0 where id = ${variant}`);
    expect(await levelsOf(p.sku)).toMatchObject({ leeds: 0, york: 0, manchester: 0 });
  });
});

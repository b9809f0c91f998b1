// Each branch's queue on the orders desk (issue 30): staff belong to branches;
// an owner may limit a member to their branches' orders, which they then
// neither list, open, move nor print elsewhere; owners and managers see all.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_STAFF } from "../../db/seed/index.ts";
import { testShopForFile } from "../../test/app.ts";
import { TestBrowser } from "../../test/browser.ts";
import { branches } from "../branches/schema.ts";
import { productVariants, products } from "../catalog/schema.ts";
import { staff } from "../staff/schema.ts";

const PASSWORD = "demo-password-2026";
const shop = testShopForFile();
let ip = 1;
const as = {} as Record<"owner" | "manager" | "warehouse", TestBrowser>;
const branch = {} as Record<string, number>;
const placed = {} as Record<"york" | "leeds", string>;

async function collection(at: number): Promise<string> {
  const b = new TestBrowser(shop().app, `198.51.109.${ip++}`);
  await b.csrf();
  // Any one-variant product in stock somewhere: what York lacks comes by transfer.
  const [p] = await shop().database.db
    .select({ id: products.id })
    .from(products)
    .where(sql`${products.status} = 'published' and ${products.stock} > 5 and (select count(*) from ${productVariants} v where v.product_id = ${products.id}) = 1`)
    .orderBy(products.id)
    .limit(1);
  expect((await b.post("/api/basket", { product_id: p!.id, quantity: 1 })).statusCode).toBe(200);
  const res = await b.post("/api/checkout", { email: "queue@example.com", phone: "0113 496 0000", delivery_method: "collect", collector_name: "Test Collector", payment_method: "pay_on_collection", branch_id: at });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().order_number as string;
}

beforeAll(async () => {
  for (const role of ["owner", "manager", "warehouse"] as const) {
    as[role] = new TestBrowser(shop().app, `198.51.110.${ip++}`);
    await as[role].staffSignIn(DEMO_STAFF.find((s) => s.role === role)!.email, PASSWORD);
  }
  for (const b of await shop().database.db.select({ id: branches.id, slug: branches.slug }).from(branches)) branch[b.slug] = b.id;
  placed.york = await collection(branch.york!);
  placed.leeds = await collection(branch.leeds!);
}, 120_000);

const numbers = async (who: TestBrowser, query = "") => ((await who.get(`/api/admin/orders?limit=100${query}`)).json().data as { number: string }[]).map((o) => o.number);

describe("branch queues", () => {
  it("lists one branch's queue on asking, for anyone", async () => {
    const york = await numbers(as.manager, `&branch_id=${branch.york}`);
    expect(york).toContain(placed.york);
    expect(york).not.toContain(placed.leeds);
  });

  it("keeps a member an owner limits to their branch to that branch's orders: not listed, opened, moved nor printed elsewhere", async () => {
    const [member] = await shop().database.db.select({ id: staff.id }).from(staff).where(eq(staff.email, DEMO_STAFF.find((s) => s.role === "warehouse")!.email));
    // Limited with no branch: refused by field.
    const none = await as.owner.patch(`/api/admin/staff/${member!.id}`, { branch_ids: [], branches_only: true });
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.branch_ids).toEqual(["Choose at least one branch to limit them to."]);
    expect((await as.owner.patch(`/api/admin/staff/${member!.id}`, { branch_ids: [9999] })).json().errors.branch_ids[0]).toMatch(/no open branch 9999/);
    const set = await as.owner.patch(`/api/admin/staff/${member!.id}`, { branch_ids: [branch.york], branches_only: true });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ branch_ids: [branch.york], branches_only: true });

    const seen = await numbers(as.warehouse);
    expect(seen).toContain(placed.york);
    expect(seen).not.toContain(placed.leeds);
    // Asking for another branch's queue gives nothing, not its orders.
    expect(await numbers(as.warehouse, `&branch_id=${branch.leeds}`)).toEqual([]);
    expect((await as.warehouse.get(`/api/admin/orders/${placed.leeds}`)).statusCode).toBe(404);
    expect((await as.warehouse.post(`/api/admin/orders/${placed.leeds}/transitions`, { to: "processing" })).statusCode).toBe(404);
    expect((await as.warehouse.get(`/api/admin/orders/${placed.leeds}/picking-list.pdf`)).statusCode).toBe(404);
    // Its page names the branch it is collected from, and when it will be ready.
    const york = (await as.warehouse.get(`/api/admin/orders/${placed.york}`)).json();
    expect(york.branch).toMatchObject({ id: branch.york, slug: "york" });
    expect(Date.parse(york.collect_ready_at)).toBeGreaterThan(Date.now() - 60_000);
    // Their own branch's order is theirs to work.
    expect((await as.warehouse.post(`/api/admin/orders/${placed.york}/transitions`, { to: "processing" })).statusCode).toBe(200);
    // A manager given the same limit still sees every branch.
    const [manager] = await shop().database.db.select({ id: staff.id }).from(staff).where(eq(staff.email, DEMO_STAFF.find((s) => s.role === "manager")!.email));
    expect((await as.owner.patch(`/api/admin/staff/${manager!.id}`, { branch_ids: [branch.york], branches_only: true })).statusCode).toBe(200);
    expect(await numbers(as.manager)).toEqual(expect.arrayContaining([placed.york, placed.leeds]));
    // Lifted: all again.
    expect((await as.owner.patch(`/api/admin/staff/${member!.id}`, { branches_only: false })).statusCode).toBe(200);
    expect(await numbers(as.warehouse)).toEqual(expect.arrayContaining([placed.york, placed.leeds]));
  });
});

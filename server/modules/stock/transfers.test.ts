// Transfers between branches (issue 30) over HTTP: asked for, sent (the stock
// leaves the sender, all or none), in transit on both sides, received with a
// shortfall recorded, each step once; refusals by field and by state; audited.
// On PostgreSQL (`npm run test:db`) two sends of one transfer race and only one
// takes the stock.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_STAFF } from "../../db/seed/index.ts";
import { testShopForFile } from "../../test/app.ts";
import { type TestBrowser } from "../../test/browser.ts";
import { databaseInvariantViolations } from "../../test/invariants.ts";
import { auditLog } from "../audit/schema.ts";
import { branches } from "../branches/schema.ts";
import { products } from "../catalog/schema.ts";
import { staffBrowser } from "../../test/staff-browsers.ts";

const shop = testShopForFile();
let ip = 1;
let warehouse: TestBrowser;
let sales: TestBrowser;
const db = () => shop().database.db;
const branch: Record<string, number> = {};

async function sku(offset: number): Promise<string> {
  const [p] = await db()
    .select({ sku: products.sku })
    .from(products)
    .where(sql`${products.sku} not like 'GEN-%' and (select count(*) from product_variants v where v.product_id = ${products.id}) = 1`)
    .orderBy(products.id)
    .offset(offset)
    .limit(1);
  return p!.sku;
}
const levels = async (code: string) =>
  Object.fromEntries(
    ((await warehouse.get(`/api/admin/stock/levels?sku=${code}`)).json().data as { branch: { slug: string }; stock: number; in_transit: { incoming: number; outgoing: number } }[]).map((l) => [l.branch.slug, { stock: l.stock, ...l.in_transit }]),
  );
const count = (code: string, at: string, counted: number) => warehouse.post("/api/admin/stock/counts", { branch_id: branch[at], counts: [{ sku: code, counted }] });

beforeAll(async () => {
  for (const role of ["warehouse", "sales"] as const) {
    const member = DEMO_STAFF.find((s) => s.role === role)!;
    const b = await staffBrowser(shop().app, `198.51.106.${ip++}`, member.email);
    if (role === "warehouse") warehouse = b;
    else sales = b;
  }
  for (const b of await db().select({ id: branches.id, slug: branches.slug }).from(branches)) branch[b.slug] = b.id;
}, 120_000);

describe("a transfer between branches", () => {
  it("is asked for, sent (leaving Leeds, in transit on both sides), and received at York with its shortfall recorded", async () => {
    const a = await sku(0);
    const b = await sku(1);
    expect((await count(a, "leeds", 10)).statusCode).toBe(200);
    expect((await count(b, "leeds", 4)).statusCode).toBe(200);
    const made = await warehouse.post("/api/admin/stock/transfers", { from_branch_id: branch.leeds, to_branch_id: branch.york, note: "For the weekend", lines: [{ sku: a, quantity: 6 }, { sku: b.toLowerCase(), quantity: 4 }] });
    expect(made.statusCode, made.body).toBe(201);
    const transfer = made.json().data;
    expect(transfer).toMatchObject({ number: expect.stringMatching(/^TR-\d{6}$/), state: "requested", from: { slug: "leeds" }, to: { slug: "york" }, note: "For the weekend" });
    // Asking moves nothing.
    expect((await levels(a)).leeds).toEqual({ stock: 10, incoming: 0, outgoing: 0 });

    const sent = await warehouse.post(`/api/admin/stock/transfers/${transfer.id}/send`, {});
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().data).toMatchObject({ state: "in_transit", sent_at: expect.any(String) });
    expect((await levels(a)).leeds).toEqual({ stock: 4, incoming: 0, outgoing: 6 });
    expect((await levels(a)).york).toEqual({ stock: 0, incoming: 6, outgoing: 0 });

    // Five of six arrive; all four of the other.
    const received = await warehouse.post(`/api/admin/stock/transfers/${transfer.id}/receive`, { lines: [{ sku: a, quantity: 5 }] });
    expect(received.statusCode, received.body).toBe(200);
    expect(received.json().data.lines.map((l: { sku: string; sent: number; received: number; shortfall: number }) => [l.sku, l.sent, l.received, l.shortfall])).toEqual([
      [a, 6, 5, 1],
      [b, 4, 4, 0],
    ]);
    expect((await levels(a)).york).toEqual({ stock: 5, incoming: 0, outgoing: 0 });
    expect((await levels(a)).leeds).toEqual({ stock: 4, incoming: 0, outgoing: 0 });
    const history = (await warehouse.get(`/api/admin/stock/movements?sku=${a}&limit=2`)).json().data;
    expect(history.map((m: { kind: string; change: number; reason: string }) => [m.kind, m.change, m.reason])).toEqual([
      ["transfer_in", 5, `${transfer.number} from Leeds, Canal Wharf`],
      ["transfer_out", -6, `${transfer.number} to York, Foss Islands`],
    ]);
    const audited = await db().select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.entityId, transfer.number));
    expect(audited.map((x) => x.action).sort()).toEqual(["stock.transfer_received", "stock.transfer_requested", "stock.transfer_sent"]);
    // Each step once.
    expect((await warehouse.post(`/api/admin/stock/transfers/${transfer.id}/receive`, {})).statusCode).toBe(409);
    expect((await warehouse.post(`/api/admin/stock/transfers/${transfer.id}/send`, {})).statusCode).toBe(409);
    expect(await databaseInvariantViolations(db())).toEqual([]);
  });

  it("refuses to send more than the sender holds, naming the line, and moves nothing", async () => {
    const a = await sku(2);
    await count(a, "manchester", 2);
    const made = (await warehouse.post("/api/admin/stock/transfers", { from_branch_id: branch.manchester, to_branch_id: branch.leeds, lines: [{ sku: a, quantity: 3 }] })).json().data;
    const refused = await warehouse.post(`/api/admin/stock/transfers/${made.id}/send`, {});
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors["lines.0.quantity"]).toEqual([`Row 1: Manchester, Store Street has 2 of ${a}; it cannot send 3.`]);
    expect((await levels(a)).manchester).toEqual({ stock: 2, incoming: 0, outgoing: 0 });
    // Sending two of the three asked for is allowed.
    const sent = await warehouse.post(`/api/admin/stock/transfers/${made.id}/send`, { lines: [{ sku: a, quantity: 2 }] });
    expect(sent.json().data.lines[0]).toMatchObject({ quantity: 3, sent: 2 });
  });

  it("refuses a bad request by field, lets a requested transfer be cancelled once, and needs stock.count", async () => {
    const a = await sku(3);
    const bad = await warehouse.post("/api/admin/stock/transfers", { from_branch_id: branch.york, to_branch_id: branch.york, lines: [{ sku: "NOPE", quantity: 1 }, { sku: a, quantity: 0 }] });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(["lines.0.sku", "lines.1.quantity", "to_branch_id"]);
    const made = (await warehouse.post("/api/admin/stock/transfers", { from_branch_id: branch.york, to_branch_id: branch.harrogate, lines: [{ sku: a, quantity: 1 }] })).json().data;
    expect((await warehouse.post(`/api/admin/stock/transfers/${made.id}/cancel`, {})).json().data.state).toBe("cancelled");
    expect((await warehouse.post(`/api/admin/stock/transfers/${made.id}/cancel`, {})).statusCode).toBe(409);
    expect((await warehouse.get("/api/admin/stock/transfers?state=cancelled")).json().data.map((t: { id: number }) => t.id)).toContain(made.id);
    expect((await warehouse.get(`/api/admin/stock/transfers?branch_id=${branch.harrogate}`)).json().data[0].id).toBe(made.id);
    expect((await sales.post("/api/admin/stock/transfers", { from_branch_id: branch.york, to_branch_id: branch.leeds, lines: [{ sku: a, quantity: 1 }] })).statusCode).toBe(403);
    expect((await warehouse.get("/api/admin/stock/transfers/999999")).statusCode).toBe(404);
  });

  it("takes the stock once when two sends of one transfer race", async () => {
    const a = await sku(4);
    await count(a, "york", 5);
    const made = (await warehouse.post("/api/admin/stock/transfers", { from_branch_id: branch.york, to_branch_id: branch.leeds, lines: [{ sku: a, quantity: 4 }] })).json().data;
    const answers = await Promise.all([warehouse.post(`/api/admin/stock/transfers/${made.id}/send`, {}), warehouse.post(`/api/admin/stock/transfers/${made.id}/send`, {})]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect((await levels(a)).york).toEqual({ stock: 1, incoming: 0, outgoing: 4 });
    expect(await databaseInvariantViolations(db())).toEqual([]);
  });
});

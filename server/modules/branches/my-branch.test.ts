// "My branch" and the availability call (issue 30): a variant's stock at each
// branch and when a collection could be ready there, the customer's branch
// first and the rest nearest to it (or to a postcode); the branch kept in a
// cookie for a visitor and on the account for a customer, following them to a
// new browser.
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../db/client.ts";
import { DEMO_CUSTOMER } from "../../db/seed/index.ts";
import { testShopForFile } from "../../test/app.ts";
import { TestBrowser } from "../../test/browser.ts";
import { applyMovements } from "../stock/ledger.ts";
import { availabilityOf } from "./availability.ts";
import { londonIso } from "./hours.ts";

const shop = testShopForFile();
let ip = 1;
const db = () => shop().database.db;
const ids: Record<string, number> = {};
let product: { slug: string; sku: string; variant: number };

beforeAll(async () => {
  const rows = async <T,>(query: ReturnType<typeof sql>) => ((await db().execute(query)) as unknown as { rows: T[] }).rows;
  for (const r of await rows<{ id: number; slug: string }>(sql`select id, slug from branches`)) ids[r.slug] = r.id;
  const [p] = await rows<{ slug: string; sku: string; variant: number }>(sql`
    select p.slug, v.sku, v.id as variant from products p join product_variants v on v.product_id = p.id
    where p.status = 'published' and (select count(*) from product_variants w where w.product_id = p.id) = 1 order by p.id offset 3 limit 1`);
  product = p!;
  // Three at York as well as the demo's stock at Leeds; none at Harrogate or Manchester (whatever the demo put there).
  const held = await rows<{ branch_id: number; stock: number }>(sql`select branch_id, stock from branch_stock where variant_id = ${product.variant}`);
  const at = (branch: number) => held.find((h) => h.branch_id === branch)?.stock ?? 0;
  const wanted = { [ids.york!]: 3, [ids.harrogate!]: 0, [ids.manchester!]: 0 };
  const moves = Object.entries(wanted)
    .map(([branch, stock]) => ({ variantId: product.variant, branchId: Number(branch), change: stock - at(Number(branch)), kind: "adjusted" as const, reason: "Test set-up" }))
    .filter((m) => m.change !== 0);
  if (moves.length) await db().transaction((tx) => applyMovements(tx as unknown as Db, moves));
}, 120_000);

type Row = { branch: { slug: string; distance_miles?: number }; stock: number; collect_ready_at: string | null; collect_label: string | null };

describe("GET /api/products/{slug}/availability", () => {
  it("answers the stock at each branch, the customer's branch first and the rest nearest to it, kept by the page cache until stock moves", async () => {
    const res = await shop().app.inject({ method: "GET", url: `/api/products/${product.slug}/availability?branch=york` });
    expect(res.statusCode, res.body).toBe(200);
    // Kept by the shop's page cache for every visitor, and asked again by each browser.
    expect(res.headers["cache-control"]).toBe("public, max-age=0, must-revalidate");
    expect((await shop().app.inject({ method: "GET", url: `/api/products/${product.slug}/availability?branch=york` })).headers["x-cache"]).toBe("hit");
    const { sku, data } = res.json() as { sku: string; data: Row[] };
    expect(sku).toBe(product.sku);
    expect(data.map((r) => r.branch.slug)).toEqual(["york", "harrogate", "leeds", "manchester"]);
    expect(data[0]).toMatchObject({ stock: 3, branch: { distance_miles: 0 } });
    // None at Manchester, but it can come by transfer: ready, later.
    expect(data.find((r) => r.branch.slug === "manchester")).toMatchObject({ stock: 0, collect_ready_at: expect.any(String) });
    // Stock moving at a branch makes the kept answer stale at once.
    await db().transaction((tx) => applyMovements(tx as unknown as Db, [{ variantId: product.variant, branchId: ids.york!, change: -1, kind: "adjusted", reason: "Test breakage" }]));
    const after = (await shop().app.inject({ method: "GET", url: `/api/products/${product.slug}/availability?branch=york` })).json() as { data: Row[] };
    expect(after.data[0]).toMatchObject({ branch: { slug: "york" }, stock: 2 });
  });

  it("sorts nearest a postcode, names the variant asked for, and refuses an unknown product, variant, branch or postcode", async () => {
    const near = (await shop().app.inject({ method: "GET", url: `/api/products/${product.slug}/availability?postcode=M1%201AA&variant=${product.sku.toLowerCase()}` })).json() as { data: Row[] };
    expect(near.data[0]!.branch.slug).toBe("manchester");
    expect((await shop().app.inject({ method: "GET", url: "/api/products/no-such-thing/availability" })).statusCode).toBe(404);
    expect((await shop().app.inject({ method: "GET", url: `/api/products/${product.slug}/availability?variant=NOPE-1` })).statusCode).toBe(404);
    expect((await shop().app.inject({ method: "GET", url: `/api/products/${product.slug}/availability?branch=atlantis` })).statusCode).toBe(404);
    const unknown = await shop().app.inject({ method: "GET", url: `/api/products/${product.slug}/availability?postcode=ZZ1%201ZZ` });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.near).toBeDefined();
  });

  it("says when a collection is ready by the branch's own hours: an hour on a weekday morning, the next opening after the cut-off, a transfer's days later where there is none, never where no branch has it", async () => {
    // Tuesday 1 December 2026, 09:10 in London (GMT): Leeds readies in an hour, to the quarter; York too.
    const morning = await availabilityOf(db(), product.slug, { branch: "leeds" }, new Date("2026-12-01T09:10:00Z"));
    const at = (slug: string, rows: Row[]) => rows.find((r) => r.branch.slug === slug)!.collect_ready_at;
    expect(at("leeds", morning.data)).toBe("2026-12-01T10:15:00+00:00");
    expect(at("york", morning.data)).toBe("2026-12-01T10:15:00+00:00");
    // None at Harrogate: a day's transfer from Leeds or York, so Wednesday, its two hours' lead after it opens at 07:00.
    expect(at("harrogate", morning.data)).toBe("2026-12-02T09:00:00+00:00");
    expect(morning.data.find((r) => r.branch.slug === "harrogate")!.collect_label).toBe("tomorrow from 09:00");
    // Saturday 5 December at 11:50: Leeds shuts at 12:00 on Saturdays, so it is ready on Monday morning.
    const late = await availabilityOf(db(), product.slug, {}, new Date("2026-12-05T11:50:00Z"));
    expect(at("leeds", late.data)).toBe("2026-12-07T08:00:00+00:00");
    // Nowhere in stock: no branch can ready it.
    await db().transaction((tx) =>
      applyMovements(tx as unknown as Db, [
        { variantId: product.variant, branchId: ids.york!, change: -2, kind: "adjusted", reason: "Test: none left" },
      ]),
    );
    const leedsStock = ((await db().execute(sql`select stock from branch_stock where variant_id = ${product.variant} and branch_id = ${ids.leeds!}`)) as unknown as { rows: { stock: number }[] }).rows[0]!.stock;
    await db().transaction((tx) => applyMovements(tx as unknown as Db, [{ variantId: product.variant, branchId: ids.leeds!, change: -leedsStock, kind: "adjusted", reason: "Test: none left" }]));
    const none = await availabilityOf(db(), product.slug, {}, new Date("2026-12-01T09:10:00Z"));
    expect(none.data.map((r) => r.collect_ready_at)).toEqual([null, null, null, null]);
    await db().transaction((tx) => applyMovements(tx as unknown as Db, [{ variantId: product.variant, branchId: ids.leeds!, change: leedsStock, kind: "adjusted", reason: "Test: put back" }, { variantId: product.variant, branchId: ids.york!, change: 2, kind: "adjusted", reason: "Test: put back" }]));
    // In summer the time carries London's summer offset.
    expect(londonIso("2027-06-01", "10:15")).toBe("2027-06-01T10:15:00+01:00");
  });

  it("says the ready time as a customer does: today, tomorrow, or the weekday, by London's date", async () => {
    const label = async (at: string) => (await availabilityOf(db(), product.slug, {}, new Date(at))).data.find((r) => r.branch.slug === "leeds")!.collect_label;
    expect(await label("2026-12-01T09:10:00Z")).toBe("today from 10:15");
    // Tuesday after Leeds's cut-off (17:30 less half an hour): Wednesday morning.
    expect(await label("2026-12-01T17:10:00Z")).toBe("tomorrow from 08:00");
    expect(await label("2026-12-05T11:50:00Z")).toBe("Monday from 08:00");
    // 23:30 UTC on a summer Monday is already Tuesday in London: Tuesday is today.
    expect(await label("2027-05-31T23:30:00Z")).toBe("today from 08:00");
  });
});

describe("my branch", () => {
  it("keeps a visitor's branch in a cookie the page can read, and forgets it when asked", async () => {
    const visitor = new TestBrowser(shop().app, `198.51.105.${ip++}`);
    await visitor.csrf();
    expect((await visitor.get("/api/my-branch")).json()).toEqual({ data: null });
    const chosen = await visitor.put("/api/my-branch", { branch: "York" });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json().data.slug).toBe("york");
    const cookie = (chosen.cookies as { name: string; httpOnly?: boolean; sameSite?: string }[]).find((c) => c.name === "tc_branch");
    expect(cookie).toMatchObject({ sameSite: "Lax" });
    expect(cookie!.httpOnly).toBeFalsy();
    expect((await visitor.get("/api/my-branch")).json().data.slug).toBe("york");
    expect((await visitor.put("/api/my-branch", { branch: "atlantis" })).json().errors.branch).toEqual(["Choose one of our branches."]);
    expect((await visitor.put("/api/my-branch", { branch: null })).json()).toEqual({ data: null });
    expect(visitor.cookies.has("tc_branch")).toBe(false);
  });

  it("keeps a customer's branch on their account, so a new browser gets it back", async () => {
    const first = new TestBrowser(shop().app, `198.51.105.${ip++}`);
    await first.signIn(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    expect((await first.put("/api/my-branch", { branch: "harrogate" })).statusCode).toBe(200);
    const second = new TestBrowser(shop().app, `198.51.105.${ip++}`);
    await second.signIn(DEMO_CUSTOMER.email, DEMO_CUSTOMER.password);
    expect(second.cookies.has("tc_branch")).toBe(false);
    const mine = await second.get("/api/my-branch");
    expect(mine.json().data.slug).toBe("harrogate");
    expect(second.cookies.get("tc_branch")).toBe("harrogate");
    expect(mine.headers["cache-control"]).toBe("private, no-store");
  });
});

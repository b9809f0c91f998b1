// The promotions desk's screens over HTTP, as a browser without scripts uses
// them (the built storefront): a manager's first save is refused beside its
// field and keeps what was typed; the second makes the code, which the list
// shows under Active with what it gives; a sample basket shows its discount,
// and as a trade account why it gets nothing; pausing moves it to Paused.
// Sales read the list and the page without the forms' buttons, and a save of
// theirs is refused. The rules themselves are proven in promotions.test.ts.
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_STAFF } from "../../db/seed/index.ts";
import { testShopForFile } from "../../test/app.ts";
import { TestBrowser } from "../../test/browser.ts";
import { htmlOf } from "../../test/page-text.ts";
import { productVariants, products } from "../catalog/schema.ts";
import { promotions } from "./schema.ts";

const shop = testShopForFile({ shop: { storefront: { mode: "build" } }, timeout: 240_000 });
let ip = 1;
const staff = {} as Record<"manager" | "sales", TestBrowser>;

beforeAll(async () => {
  for (const role of ["manager", "sales"] as const) {
    staff[role] = new TestBrowser(shop().app, `198.51.117.${ip++}`);
    await staff[role].staffSignIn(DEMO_STAFF.find((m) => m.role === role)!.email, "demo-password-2026");
  }
}, 240_000);

describe("the promotions desk's screens", () => {
  it("make a code after a refused save, list it, preview a basket, and pause it; sales only read", async () => {
    const db = shop().database.db;
    // A product at £10.00 ex VAT, by its SKU.
    const [p] = await db.select({ id: products.id, sku: products.sku, name: products.name }).from(products).where(eq(products.status, "published")).orderBy(products.id).limit(1);
    await db.update(products).set({ pricePence: 1000, vatRate: 20 }).where(eq(products.id, p!.id));
    await db.update(productVariants).set({ pricePence: 1000 }).where(eq(productVariants.productId, p!.id));

    const fields: [string, string][] = [
      ["intent", "save"],
      ["kind", "percent"],
      ["code", "screens15"],
      ["name", "Screens fifteen"],
      ["value", "150"],
      ["min_spend", ""],
      ["starts_at", ""],
      ["ends_at", "2099-07-01T09:00"],
      ["max_uses", "100"],
      ["max_uses_per_customer", ""],
      ["audience", "consumer"],
      ["applies_to.product_ids", `${p!.sku.toLowerCase()}\nNO-SUCH-SKU`],
    ];
    const refused = await staff.manager.postForm("/admin/promotions/new", fields);
    expect(refused.statusCode).toBe(422);
    const page = htmlOf(refused.body);
    expect(page).toContain("A percentage above 0 and at most 100, to two decimals.");
    expect(page).toContain("No product has the SKU NO-SUCH-SKU.");
    expect(refused.body).toMatch(/id="promotion-value"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="promotion-value"/);
    // Nothing typed is lost: the code, the name, the London end time, the SKUs.
    expect(page).toContain('value="screens15"');
    expect(page).toContain('value="Screens fifteen"');
    expect(page).toContain('value="2099-07-01T09:00"');
    expect(page).toContain("NO-SUCH-SKU");
    expect(await db.select().from(promotions).where(eq(promotions.code, "SCREENS15"))).toEqual([]);

    const made = await staff.manager.postForm("/admin/promotions/new", fields.map(([k, v]): [string, string] => [k, k === "value" ? "15" : k === "applies_to.product_ids" ? p!.sku : v]));
    expect(made.statusCode, htmlOf(made.body).slice(0, 400)).toBe(302);
    const [row] = await db.select().from(promotions).where(eq(promotions.code, "SCREENS15"));
    expect(row).toMatchObject({ value: 1500, maxUses: 100, audience: "consumer", appliesTo: { product_ids: [p!.id], category_ids: [], brand_ids: [] } });
    // 09:00 in London in July is 08:00 UTC.
    expect(row!.endsAt!.toISOString()).toBe("2099-07-01T08:00:00.000Z");
    const url = `/admin/promotions/${row!.id}`;
    expect(made.headers.location).toBe(`${url}?created=1`);
    expect(htmlOf((await staff.manager.get(`${url}?created=1`)).body)).toContain("Created. It is running now.");

    // The list: under Active, with what it gives and its uses.
    const list = htmlOf((await staff.sales.get("/admin/promotions")).body);
    expect(list).toContain(`href="${url}"`);
    expect(list).toContain("SCREENS15");
    expect(list).toContain("15% off");
    expect(list).toContain("0 of 100");
    expect(list).not.toContain("New promotion");
    expect(htmlOf((await staff.manager.get("/admin/promotions")).body)).toContain("New promotion");

    // Two units: £20.00 less 15% is £17.00, VAT £3.40. As a trade account: not its audience, and it says so.
    const preview = await staff.sales.postForm(url, [["intent", "preview"], ["lines", `${p!.sku} 2`], ["buyer", "consumer"]]);
    expect(preview.statusCode).toBe(200);
    expect(htmlOf(preview.body)).toContain("It gives this basket £3.00 off (ex VAT)");
    expect(htmlOf(preview.body)).toContain("£20.40");
    const trade = await staff.sales.postForm(url, [["intent", "preview"], ["lines", `${p!.sku} 2`], ["buyer", "trade"]]);
    expect(htmlOf(trade.body)).toContain("It gives this basket nothing. Its customers are consumers only");
    const badLine = await staff.sales.postForm(url, [["intent", "preview"], ["lines", "NOPE-1 2"], ["buyer", "consumer"]]);
    expect(badLine.statusCode).toBe(422);
    expect(htmlOf(badLine.body)).toContain("No product has the SKU NOPE-1.");

    // Sales see the form but cannot change it.
    const salesPage = htmlOf((await staff.sales.get(url)).body);
    expect(salesPage).toContain("Your role may read promotions but not change them.");
    expect(salesPage).not.toContain(">Pause<");
    expect((await staff.sales.postForm(url, [["intent", "status"], ["status", "paused"]])).statusCode).toBe(403);

    // Pausing: confirmed, and the list moves it to Paused.
    const paused = await staff.manager.postForm(url, [["intent", "status"], ["status", "paused"]]);
    expect(paused.statusCode).toBe(200);
    expect(htmlOf(paused.body)).toContain("Paused. It is paused: customers cannot use it until it is resumed.");
    expect(htmlOf((await staff.manager.get("/admin/promotions?status=paused")).body)).toContain("SCREENS15");
    expect(htmlOf((await staff.manager.get("/admin/promotions")).body)).not.toContain("SCREENS15");

    // A multi-buy from the same form: no code, its group.
    const multi = await staff.manager.postForm("/admin/promotions/new", [["intent", "save"], ["kind", "multi_buy"], ["code", "IGNORED"], ["buy", "3"], ["multi_buy", "free"], ["value", "1"], ["audience", "all"]]);
    expect(multi.statusCode, htmlOf(multi.body).slice(0, 400)).toBe(302);
    const [auto] = await db.select().from(promotions).where(sql`${promotions.code} is null and ${promotions.name} = '3 for 2'`);
    expect(auto).toMatchObject({ kind: "multi_buy", buy: 3, multiBuy: "free", value: 1 });
    await db.update(promotions).set({ status: "ended" }).where(eq(promotions.id, auto!.id));
  });
});

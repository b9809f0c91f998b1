// The hire catalogue's screens on the production build, driven as a browser
// without scripts drives them: pages requested and forms posted to the
// routes' actions. The rules themselves are proven through the API in
// admin.test.ts; this proves the screens show them: each refused field named
// with what was typed kept, the rate card's worked examples, units added,
// refused and retired, the old address redirecting, and a read-only hire desk.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { TestBrowser } from "../../test/browser.ts";
import { textOf } from "../../test/page-text.ts";
import { addDays, londonDate } from "./pricing.ts";
import { hireAllocations, hireItems, hireUnits } from "./schema.ts";
import { shopWithStaff } from "../../test/staff-browsers.ts";

const { shop, as } = shopWithStaff("198.51.104", { manager: "manager@staff.example.com", hireDesk: "hire@staff.example.com" }, { shop: { storefront: { mode: "build" } }, timeout: 240_000 });
let guest: TestBrowser;

beforeAll(() => {
  guest = new TestBrowser(shop().app, "198.51.104.3");
});

async function item(offset: number) {
  const [row] = await shop().database.db.select().from(hireItems).orderBy(hireItems.id).offset(offset).limit(1);
  return row!;
}

describe("the hire catalogue's screens", () => {
  it("lists hire items, and shows the hire desk the menu item and a read-only item", async () => {
    const list = await as.hireDesk.get("/admin/hire/items");
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('href="/admin/hire/items"');
    const target = await item(1);
    expect(textOf(list)).toContain(target.name);
    const page = await as.hireDesk.get(`/admin/hire/items/${target.slug}`);
    expect(page.statusCode).toBe(200);
    expect(textOf(page)).toContain("Your role may read the hire catalogue but not change it.");
    expect(page.body).not.toContain("Add the unit");
    expect((await as.hireDesk.postForm(`/admin/hire/items/${target.slug}`, [["intent", "save"], ["name", "Hijacked"]])).statusCode).toBe(403);
    expect((await item(1)).name).toBe(target.name);
  });

  it("creates a hire item; a refusal names each field and keeps what was typed", async () => {
    const refused = await as.manager.postForm("/admin/hire/items/new", [
      ["intent", "save"],
      ["name", "Screen Breaker"],
      ["hire_category_id", ""],
      ["day_rate", "12.345"],
      ["weekend_rate", "20"],
      ["week_rate", "50"],
      ["deposit", "-4"],
      ["vat_rate", "20"],
      ["specifications_shown", "1"],
      ["specification_name", "Weight"],
      ["specification_value", "14 kg"],
    ]);
    expect(refused.statusCode).toBe(422);
    const text = textOf(refused);
    expect(text).toContain("Choose a hire category.");
    expect(text).toContain("Enter the day rate in pounds with at most 2 decimals");
    expect(text).toContain("The deposit cannot be negative.");
    expect(refused.body).toContain('value="Screen Breaker"');
    expect(refused.body).toContain('value="12.345"');
    expect(refused.body).toContain('value="14 kg"');

    const category = (await item(0)).hireCategoryId;
    const made = await as.manager.postForm("/admin/hire/items/new", [
      ["intent", "save"],
      ["name", "Screen Breaker"],
      ["hire_category_id", String(category)],
      ["day_rate", "20"],
      ["weekend_rate", "30"],
      ["week_rate", "70"],
      ["deposit", "50"],
      ["vat_rate", "20"],
    ]);
    expect(made.statusCode).toBe(302);
    expect(made.headers.location).toBe("/admin/hire/items/screen-breaker?created=1");
    const page = await as.manager.get("/admin/hire/items/screen-breaker?created=1");
    const shown = textOf(page);
    expect(shown).toContain("Hire item created.");
    // The rate card, worked by the pricing engine: a day £24.00 inc VAT, ten days a week and three sevenths (£100.00 ex VAT).
    expect(shown).toContain("£24.00 inc VAT");
    expect(shown).toMatch(/10 days .*£100\.00 £120\.00 £170\.00/);
    expect(shown).toContain("each day costs the week rate ÷ 7: £10.00 ex VAT");
  });

  it("moves the web address with the screen, and the old hire page answers 301", async () => {
    const target = await item(2);
    const saved = await as.manager.postForm(`/admin/hire/items/${target.slug}`, [["intent", "save"], ["slug", "moved-by-the-screen"]]);
    expect(saved.statusCode).toBe(302);
    expect(saved.headers.location).toBe("/admin/hire/items/moved-by-the-screen?moved=1");
    const old = await guest.get(`/hire/${target.slug}`);
    expect(old.statusCode).toBe(301);
    expect(old.headers.location).toBe("/hire/moved-by-the-screen");
    expect((await guest.get("/hire/moved-by-the-screen")).statusCode).toBe(200);
  });

  it("adds, refuses and retires units, naming the booking that stops a retirement", async () => {
    const target = await item(3);
    const url = `/admin/hire/items/${target.slug}`;
    const [taken] = await shop().database.db.select().from(hireUnits).limit(1);
    const duplicate = await as.manager.postForm(url, [["intent", "add-unit"], ["asset_number", taken!.assetNumber], ["serial_number", "SN-TYPED"]]);
    expect(duplicate.statusCode).toBe(422);
    expect(textOf(duplicate)).toContain(`The asset number ${taken!.assetNumber} is already a unit of`);
    expect(duplicate.body).toContain('value="SN-TYPED"');

    const added = await as.manager.postForm(url, [["intent", "add-unit"], ["asset_number", "SCR-1"], ["serial_number", "SN-1"]]);
    expect(added.statusCode).toBe(200);
    expect(textOf(added)).toContain("Unit SCR-1 added to the fleet.");
    const [unit] = await shop().database.db.select().from(hireUnits).where(eq(hireUnits.assetNumber, "SCR-1"));

    const start = addDays(londonDate(), 2);
    await shop().database.db.insert(hireAllocations).values({ unitId: unit!.id, kind: "booking", period: `[${start},${addDays(start, 1)})` });
    const refused = await as.manager.postForm(url, [["intent", "retire-unit"], ["unit_id", String(unit!.id)]]);
    expect(refused.statusCode).toBe(409);
    expect(textOf(refused)).toContain(`Unit SCR-1 is booked from ${start}`);
    expect(textOf(refused)).toContain("Booked");

    const [other] = await shop().database.db.select().from(hireUnits).where(eq(hireUnits.hireItemId, target.id)).limit(1);
    const retired = await as.manager.postForm(url, [["intent", "retire-unit"], ["unit_id", String(other!.id)]]);
    expect(retired.statusCode).toBe(200);
    expect(textOf(retired)).toContain(`Unit ${other!.assetNumber} retired`);
    expect(textOf(retired)).toContain("Retired");
  });

  it("shows a hire item's photos screen to the catalogue's readers", async () => {
    const target = await item(4);
    const page = await as.manager.get(`/admin/hire/items/${target.slug}/photos`);
    expect(page.statusCode).toBe(200);
    expect(textOf(page)).toContain(`Photos of ${target.name}`);
    expect(page.body).toContain("photo-drop");
    expect((await as.hireDesk.get(`/admin/hire/items/${target.slug}/photos`)).statusCode).toBe(403);
  });
});

// The branches in the back office (issue 30): a manager adds a branch, placed on
// the map from its postcode and shown on the public pages; changes its hours
// and closes it for a day; makes another the default; closes one; every change
// audited; bad hours refused by field; the default never closed; only
// branches.manage may write.
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_STAFF } from "../../db/seed/index.ts";
import { testShopForFile } from "../../test/app.ts";
import { TestBrowser } from "../../test/browser.ts";
import { auditLog } from "../audit/schema.ts";

const PASSWORD = "demo-password-2026";
const shop = testShopForFile();
let ip = 1;
const as = {} as Record<"manager" | "warehouse" | "owner", TestBrowser>;

beforeAll(async () => {
  for (const role of ["manager", "warehouse", "owner"] as const) {
    const b = new TestBrowser(shop().app, `198.51.107.${ip++}`);
    await b.staffSignIn(DEMO_STAFF.find((s) => s.role === role)!.email, PASSWORD);
    as[role] = b;
  }
}, 120_000);

const wakefield = {
  slug: "wakefield",
  name: "Wakefield, Calder Yard",
  line_1: "Calder Yard",
  town: "Wakefield",
  postcode: "ls11 5ps",
  services: ["collect", "trade_counter"],
  opening_hours: [
    { day: 2, opens: "07:00", closes: "17:00" },
    { day: 1, opens: "07:00", closes: "17:00" },
  ],
};

describe("/api/admin/branches", () => {
  it("adds a branch placed from its postcode, shown on the public pages, and audited", async () => {
    const res = await as.manager.post("/api/admin/branches", wakefield);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ slug: "wakefield", address: { postcode: "LS11 5PS" }, lat: expect.any(Number), status: "open", is_default: false });
    expect(res.json().data.opening_hours.map((h: { day: number }) => h.day)).toEqual([1, 2]);
    expect((await shop().app.inject({ method: "GET", url: "/api/branches/wakefield" })).statusCode).toBe(200);
    const audited = await shop().database.db.select().from(auditLog).where(and(eq(auditLog.entity, "branch"), eq(auditLog.entityId, "wakefield")));
    expect(audited.map((a) => a.action)).toEqual(["branch.created"]);
    expect((await as.manager.post("/api/admin/branches", wakefield)).json().errors.slug).toEqual(["Another branch has that web address."]);
  });

  it("refuses bad hours, exceptions and lead times by field, and a branch without its address", async () => {
    const res = await as.manager.patch("/api/admin/branches/wakefield", {
      opening_hours: [
        { day: 1, opens: "17:00", closes: "07:00" },
        { day: 1, opens: "08:00", closes: "12:00" },
        { day: 9, opens: "8am", closes: "12:00" },
      ],
      exceptions: [{ date: "2026-02-30", opens: "09:00" }],
      collect_lead_minutes: -5,
      transfer_days: 61,
      hold_days: 0,
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(["collect_lead_minutes", "exceptions.0.date", "exceptions.0.opens", "hold_days", "opening_hours.0.closes", "opening_hours.1.day", "opening_hours.2.day", "opening_hours.2.opens", "transfer_days"]);
    expect(Object.keys((await as.manager.post("/api/admin/branches", { slug: "nowhere" })).json().errors).sort()).toEqual(["line_1", "name", "postcode", "town"]);
  });

  it("closes a branch for a day, changes its hours, and audits only what changed", async () => {
    const res = await as.manager.patch("/api/admin/branches/wakefield", { exceptions: [{ date: "2026-12-24", note: "Stocktake" }], collect_lead_minutes: 90, hold_days: 5 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ exceptions: [{ date: "2026-12-24", note: "Stocktake" }], collect_lead_minutes: 90, hold_days: 5, transfer_days: 1 });
    const [entry] = await shop().database.db.select().from(auditLog).where(and(eq(auditLog.entity, "branch"), eq(auditLog.action, "branch.updated")));
    expect(Object.keys(entry!.after as object).sort()).toEqual(["collect_lead_minutes", "exceptions", "hold_days"]);
  });

  it("keeps one default branch: making another the default moves it, and the default is never closed", async () => {
    expect((await as.owner.patch("/api/admin/branches/leeds", { status: "closed" })).json().errors.status).toEqual(["The default branch cannot be closed: make another the default first."]);
    expect((await as.owner.patch("/api/admin/branches/wakefield", { is_default: true })).statusCode).toBe(200);
    const list = (await as.owner.get("/api/admin/branches")).json().data as { slug: string; is_default: boolean }[];
    expect(list.filter((b) => b.is_default).map((b) => b.slug)).toEqual(["wakefield"]);
    expect((await as.owner.patch("/api/admin/branches/wakefield", { is_default: false })).statusCode).toBe(422);
    // Leeds back as the default, then Wakefield closed: gone from the public pages.
    expect((await as.owner.patch("/api/admin/branches/leeds", { is_default: true })).statusCode).toBe(200);
    const closed = await as.owner.patch("/api/admin/branches/wakefield", { status: "closed" });
    expect(closed.json().data.status).toBe("closed");
    expect((await shop().app.inject({ method: "GET", url: "/api/branches/wakefield" })).statusCode).toBe(404);
    const actions = await shop().database.db.select({ action: auditLog.action }).from(auditLog).where(and(eq(auditLog.entity, "branch"), eq(auditLog.entityId, "wakefield")));
    expect(actions.map((a) => a.action)).toContain("branch.closed");
  });

  it("lets any member read the branches and only branches.manage change them", async () => {
    expect((await as.warehouse.get("/api/admin/branches")).statusCode).toBe(200);
    expect((await as.warehouse.patch("/api/admin/branches/york", { name: "York" })).statusCode).toBe(403);
    expect((await as.warehouse.post("/api/admin/branches", wakefield)).statusCode).toBe(403);
    expect((await as.manager.patch("/api/admin/branches/atlantis", { name: "Atlantis" })).statusCode).toBe(404);
  });
});

// Route rules in the database (issue 29): seeded from config/redirects.json,
// added, changed and removed through the API (audited, applied to the next
// request), tested against a URL, imported from a CSV all or nothing; another
// process's matcher picks a change up by itself.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { until } from "../../test/until.ts";
import { auditLog } from "../audit/schema.ts";
import { compileRedirects } from "./rules.ts";
import { createRedirectMatcher } from "./service.ts";
import { staffTestShop } from "../../test/staff-browsers.ts";

const { as, shop } = staffTestShop("198.51.105");

describe("route rules", () => {
  it("start from the rules file, and answer before any page", async () => {
    const res = await as.guest.get("/kitchens?from=menu");
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe("/kitchens-and-bathrooms?from=menu");
    // Both old addresses lead to the new page: found by either.
    const listed = (await as.sales.get("/api/admin/redirects?q=kitchens")).json();
    expect(listed.data.map((r: { from: string }) => r.from)).toEqual(["/bathrooms", "/kitchens"]);
  });

  it("are added, changed and removed by staff, each audited and applied to the next request", async () => {
    const made = await as.manager.post("/api/admin/redirects", { from: "/shop/old-drills", to: "/category/power-tools/cordless-drills" });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ from: "/shop/old-drills", match: "exact", status: 301 });
    expect((await as.guest.get("/shop/old-drills")).headers.location).toBe("/category/power-tools/cordless-drills");

    const changed = await as.manager.patch(`/api/admin/redirects/${made.json().id}`, { to: "https://example.org/drills", status: 302 });
    expect(changed.statusCode, changed.body).toBe(200);
    const moved = await as.guest.get("/shop/old-drills");
    expect([moved.statusCode, moved.headers.location]).toEqual([302, "https://example.org/drills"]);

    expect((await as.manager.delete(`/api/admin/redirects/${made.json().id}`)).statusCode).toBe(204);
    expect((await as.guest.get("/shop/old-drills")).statusCode).toBe(404);
    const actions = (await shop().database.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.entityId, "/shop/old-drills"))).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(["redirect.created", "redirect.updated", "redirect.removed"]));
  });

  it("refuse a bad rule by field: a reserved path, an insecure address, a loop, a path that has one", async () => {
    const reserved = await as.manager.post("/api/admin/redirects", { from: "/admin/orders", to: "/" });
    expect(reserved.json().errors.from[0]).toContain("cannot be a path of the API, the back office");
    const insecure = await as.manager.post("/api/admin/redirects", { from: "/x-page", to: "http://example.org/" });
    expect(insecure.json().errors.to).toBeDefined();
    expect((await as.manager.post("/api/admin/redirects", { from: "/loop-a", to: "/loop-b" })).statusCode).toBe(201);
    const loop = await as.manager.post("/api/admin/redirects", { from: "/loop-b", to: "/loop-a" });
    expect(loop.json().errors.to).toEqual(["/loop-a already redirects to /loop-b: the two would send browsers in a circle."]);
    const twice = await as.manager.post("/api/admin/redirects", { from: "/loop-a", to: "/elsewhere" });
    expect(twice.json().errors.from).toEqual(["There is already a rule for /loop-a."]);
    expect((await as.sales.post("/api/admin/redirects", { from: "/sales-rule", to: "/" })).statusCode).toBe(403);
  });

  it("say which rule answers a URL: the longest prefix, the rest of the path carried over", async () => {
    await as.manager.post("/api/admin/redirects", { from: "/old-shop", match: "prefix", to: "/products", status: 308 });
    await as.manager.post("/api/admin/redirects", { from: "/old-shop/timber", match: "prefix", to: "/category/timber", status: 301 });
    const tested = (await as.sales.get(`/api/admin/redirects/test?url=${encodeURIComponent("https://shop.example/old-shop/timber/cls?x=1")}`)).json();
    expect(tested).toMatchObject({ path: "/old-shop/timber/cls?x=1", location: "/category/timber/cls?x=1", status: 301, rule: { from: "/old-shop/timber", match: "prefix" } });
    expect((await as.sales.get("/api/admin/redirects/test?url=/nowhere-at-all")).json()).toEqual({ path: "/nowhere-at-all", rule: null, location: null, status: null });
    expect((await as.guest.get("/old-shop/anything")).headers.location).toBe("/products/anything");
  });

  it("import from a CSV of old and new paths: a dry run reports, a bad row refuses the lot, then all apply together", async () => {
    const bad = "old_path,new_path,status\n/legacy/a,/category/timber,301\n/legacy/b,javascript:alert(1),301\n/legacy/a,/products,301\n";
    const refused = await as.manager.request("POST", "/api/admin/redirects/import", bad, { headers: { "content-type": "text/csv" } });
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json()).toMatchObject({ rows: 3, applied: false });
    expect(refused.json().refused.map((r: { row: number; column: string }) => [r.row, r.column])).toEqual([
      [3, "to"],
      [4, "from"],
    ]);
    expect((await as.guest.get("/legacy/a")).statusCode).toBe(404);

    const good = "from,to,status,match\n/legacy/a,/category/timber,301,exact\n/legacy/docs,https://example.org/docs,302,prefix\n/kitchens,/category/kitchens,301,\n";
    const dry = (await as.manager.post("/api/admin/redirects/import?dry_run=1", { csv: good })).json();
    expect(dry).toMatchObject({ rows: 3, created: 2, updated: 1, refused: [], applied: false, dry_run: true });
    expect((await as.guest.get("/legacy/a")).statusCode).toBe(404);
    const applied = (await as.manager.post("/api/admin/redirects/import", { csv: good })).json();
    expect(applied).toMatchObject({ created: 2, updated: 1, applied: true });
    expect((await as.guest.get("/legacy/a")).headers.location).toBe("/category/timber");
    expect((await as.guest.get("/legacy/docs/v2/intro")).headers.location).toBe("https://example.org/docs/v2/intro");
    expect((await as.guest.get("/kitchens")).headers.location).toBe("/category/kitchens");
    const missing = await as.manager.post("/api/admin/redirects/import", { csv: "path,target\n/a,/b\n" });
    expect(missing.statusCode).toBe(422);
    expect((await as.sales.post("/api/admin/redirects/import?dry_run=1", { csv: good })).statusCode).toBe(403);
  });

  it("reach another process's matcher by itself", async () => {
    const other = createRedirectMatcher(shop().database.db);
    await other.reload();
    other.watch(50);
    try {
      expect(other.resolve("/from-elsewhere")).toBeNull();
      await as.manager.post("/api/admin/redirects", { from: "/from-elsewhere", to: "/products" });
      const hit = await until(() => other.resolve("/from-elsewhere"), { what: "the other process's matcher to see the new rule", timeoutMs: 10_000 });
      expect(hit.location).toBe("/products");
    } finally {
      other.close();
    }
  });
});

describe("compileRedirects", () => {
  it("answers thousands of exact rules by lookup, and prefers an exact rule to a prefix", () => {
    const rules = Array.from({ length: 5_000 }, (_, i) => ({ from: `/p/${i}`, match: "exact" as const, to: `/product/${i}`, status: 301 as const }));
    const resolve = compileRedirects([{ from: "/p", match: "prefix", to: "/products", status: 308 }, ...rules]);
    expect(resolve("/p/4999")).toMatchObject({ location: "/product/4999", status: 301 });
    expect(resolve("/p/5000")).toMatchObject({ location: "/products/5000", status: 308 });
    expect(resolve("/pp/1")).toBeNull();
  });
});

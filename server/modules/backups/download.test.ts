// The owner downloads the latest backup from the back office: the same bytes
// as the file, its checksum in a header, an audit entry naming who took it;
// everyone else is refused, an owner's own API token included.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DEMO_STAFF } from "../../db/seed/index.ts";
import { testShopForFile } from "../../test/app.ts";
import { TestBrowser } from "../../test/browser.ts";
import { auditLog } from "../audit/schema.ts";
import { takeBackup, type TakenBackup } from "./backup.ts";

const PASSWORD = "demo-password-2026";
const emailOf = (role: string) => DEMO_STAFF.find((m) => m.role === role)!.email;
const shop = testShopForFile();
let ip = 1;
const signedIn = async (role: string) => {
  const b = new TestBrowser(shop().app, `198.51.107.${ip++}`);
  await b.staffSignIn(emailOf(role), PASSWORD);
  return b;
};

describe("downloading the latest backup", () => {
  it("answers 404 with a message while there is none", async () => {
    const owner = await signedIn("owner");
    expect((await owner.get("/api/admin/backups")).json()).toEqual({ data: [] });
    const none = await owner.get("/api/admin/backups/latest");
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toMatch(/no backup yet/);
  });

  let taken: TakenBackup;
  it("gives the owner the newest file's bytes, with its checksum, and records who took it", async () => {
    taken = await takeBackup({ ...shop().config, databaseUrl: shop().database.url }, shop().database);
    const owner = await signedIn("owner");
    const listed = (await owner.get("/api/admin/backups")).json().data;
    expect(listed).toEqual([{ name: expect.stringMatching(/^tradecounter-.*\.tar$/), taken_at: expect.any(String), bytes: readFileSync(taken.file).length, sha256: taken.sha256 }]);

    const res = await owner.get("/api/admin/backups/latest");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/x-tar");
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="${listed[0].name}"`);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["x-checksum-sha256"]).toBe(taken.sha256);
    expect(createHash("sha256").update(res.rawPayload).digest("hex")).toBe(taken.sha256);

    const entries = await shop().database.db.select().from(auditLog).where(and(eq(auditLog.action, "backup.downloaded"), eq(auditLog.entityId, listed[0].name)));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ entity: "backup", via: "api", staffName: expect.stringContaining(emailOf("owner")) });
  }, 120_000);

  it("refuses everyone else: a guest, every other role, and the owner's own API token", async () => {
    expect((await new TestBrowser(shop().app, "198.51.107.200").get("/api/admin/backups/latest")).statusCode).toBe(401);
    for (const role of ["manager", "sales", "warehouse", "hire", "accounts"]) {
      const member = await signedIn(role);
      expect((await member.get("/api/admin/backups/latest")).statusCode, role).toBe(403);
      expect((await member.get("/api/admin/backups")).statusCode, role).toBe(403);
    }
    const owner = await signedIn("owner");
    const token = (await owner.post("/api/admin/tokens", { name: "Owner's till", role: "owner" })).json().token as string;
    const byToken = await shop().app.inject({ url: "/api/admin/backups/latest", headers: { authorization: `Bearer ${token}` } });
    expect(byToken.statusCode).toBe(403);
    expect(byToken.rawPayload.length).toBeLessThan(1000);
    const downloads = await shop().database.db.select().from(auditLog).where(eq(auditLog.action, "backup.downloaded"));
    expect(downloads).toHaveLength(1);
  });
});

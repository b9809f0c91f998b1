// The owner's backup screens on the production build: /admin/backups lists
// the backups with their checksums and links the latest's download, and the
// dashboard's background jobs panel says when the newest was taken.
import { beforeAll, describe, expect, it } from "vitest";
import { testShopForFile } from "../../test/app.ts";
import { type TestBrowser } from "../../test/browser.ts";
import { textOf } from "../../test/page-text.ts";
import { takeBackup } from "./backup.ts";
import { staffBrowser } from "../../test/staff-browsers.ts";

const shop = testShopForFile({ shop: { storefront: { mode: "build" } }, timeout: 240_000 });
let owner: TestBrowser;

beforeAll(async () => {
  owner = await staffBrowser(shop().app, "198.51.108.1", "owner@example.com");
}, 240_000);

describe("the owner's backup screens", () => {
  it("say there is no backup yet, then list the one taken with its checksum and the latest's download", async () => {
    const before = await owner.get("/admin/backups");
    expect(before.statusCode).toBe(200);
    expect(textOf(before)).toContain("No backups yet");
    expect(textOf(await owner.get("/admin"))).toContain("No backup has been taken yet.");

    const taken = await takeBackup({ ...shop().config, databaseUrl: shop().database.url }, shop().database);
    const after = await owner.get("/admin/backups");
    const text = textOf(after);
    expect(text).toContain(taken.file.split("/").at(-1));
    expect(text).toContain(taken.sha256);
    expect(after.body).toContain('href="/api/admin/backups/latest"');
    const dashboard = textOf(await owner.get("/admin"));
    expect(dashboard).toContain("The newest backup was taken");
    expect(dashboard).not.toContain("No backup has been taken yet.");
  }, 120_000);
});

// `npm run shop -- products:import FILE.csv [--dry-run] [--valid-only]` on a
// PGlite DATA_DIR of its own: the report printed, the progress bar on stderr,
// exit status 1 when a row is refused (and nothing changed), the valid rows
// when asked, one audit entry as system.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../server/db/client.ts";
import { onDataDir, runShop } from "./lib/shop-cli-test.ts";
import { auditLog } from "../server/modules/audit/schema.ts";
import { products } from "../server/modules/catalog/schema.ts";
import { stockMovements } from "../server/modules/stock/schema.ts";

let dataDir: string;
const shop = (...args: string[]) => runShop(dataDir, ...args);
const read = <T>(work: (db: Db) => Promise<T>) => onDataDir(dataDir, work);

const file = (name: string, text: string) => {
  const at = path.join(dataDir, name);
  writeFileSync(at, text);
  return at;
};

beforeAll(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), "tc-shop-import-"));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("npm run shop -- products:import", () => {
  it("refuses a file with a bad row with exit 1 and changes nothing; --valid-only imports the rest; --dry-run writes nothing", async () => {
    const csv = file("mixed.csv", "sku,name,price_ex_vat,stock\nCLI-1,Cli drill,12.50,3\nCLI-2,,oops,\n");
    const refused = await shop("products:import", csv);
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toContain("REFUSED row 3, name (CLI-2): Enter the name.");
    expect(refused.stderr).toContain("Nothing was changed");
    expect(refused.stderr).toMatch(/Importing \[.*\] 100% 2\/2 rows/);
    expect(await read((db) => db.$count(products, eq(products.sku, "CLI-1")))).toBe(0);

    const checked = await shop("products:import", csv, "--dry-run", "--valid-only");
    expect(checked.code).toBe(1);
    expect(checked.stdout).toContain("row 2 CLI-1: new name=Cli drill; slug=cli-drill; status=draft; price_ex_vat=12.50; vat_rate=20; stock=3");
    expect(await read((db) => db.$count(products, eq(products.sku, "CLI-1")))).toBe(0);

    const valid = await shop("products:import", csv, "--valid-only");
    expect(valid.stdout).toContain("Created 1, updated 0, 0 unchanged, 1 refused.");
    const [made] = await read((db) => db.select().from(products).where(eq(products.sku, "CLI-1")));
    expect(made).toMatchObject({ name: "Cli drill", pricePence: 1250, stock: 3 });
    const [entry] = await read((db) => db.select().from(auditLog).where(eq(auditLog.action, "product.imported")));
    expect(entry).toMatchObject({ via: "cli", staffName: "system", after: expect.objectContaining({ file: "mixed.csv", created: 1, refused: 1 }) });
  }, 120_000);

  it("records a changed stock figure as a counted movement, and exits 0", async () => {
    const done = await shop("products:import", file("stock.csv", "SKU,Stock\nCLI-1,10\n"));
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain("row 2 CLI-1: changed stock 3 → 10");
    const moves = await read((db) => db.select().from(stockMovements).orderBy(stockMovements.id));
    expect(moves.map((m) => [m.kind, m.change, m.stockAfter])).toEqual([
      ["opening", 3, 3],
      ["counted", 7, 10],
    ]);
  }, 60_000);
});

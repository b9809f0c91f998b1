import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/database.ts";
import { importPostcodeCsv, parseCsvLine } from "./import.ts";
import { builtInProvider } from "./service.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.destroy());

describe("parseCsvLine", () => {
  it("honours quotes and doubled quotes", () => {
    expect(parseCsvLine('LS1 1AB,"Flat 2, Mill House","The ""Old"" Yard",Leeds')).toEqual(["LS1 1AB", "Flat 2, Mill House", 'The "Old" Yard', "Leeds"]);
  });
});

describe("importPostcodeCsv", () => {
  it("imports valid rows, normalises postcodes, skips bad ones and reports progress", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "tc-pc-"));
    const file = path.join(dir, "addresses.csv");
    writeFileSync(
      file,
      ["town,postcode,line_1,line_2,county", "York,yo1 7hh,1 Minster Yard,,North Yorkshire", 'York,YO17HH,"2 Minster Yard, Rear",,', "Nowhere,NOT A CODE,3 Lost Lane,,", "York,YO1 7HH,,,"].join("\n"),
    );
    const fractions: number[] = [];
    const report = await importPostcodeCsv(database.db, file, (f) => fractions.push(f));
    expect(report).toEqual({ imported: 2, skipped: 2 });
    expect(fractions.at(-1)).toBe(1);
    const found = await builtInProvider(database.db).lookup("YO1 7HH");
    expect(found.map((a) => a.line_1)).toEqual(["1 Minster Yard", "2 Minster Yard, Rear"]);
    expect(await builtInProvider(database.db).suggest("yo1")).toEqual(["YO1 7HH"]);
  });

  it("refuses a file without the needed columns", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "tc-pc-"));
    const file = path.join(dir, "bad.csv");
    writeFileSync(file, "a,b\n1,2\n");
    await expect(importPostcodeCsv(database.db, file)).rejects.toThrow(/header row/);
  });
});

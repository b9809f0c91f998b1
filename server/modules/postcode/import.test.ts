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
    expect(report).toEqual({ imported: 2, located: 0, skipped: 2 });
    expect(fractions.at(-1)).toBe(1);
    const found = await builtInProvider(database.db).lookup("YO1 7HH");
    expect(found.map((a) => a.line_1)).toEqual(["1 Minster Yard", "2 Minster Yard, Rear"]);
    expect(await builtInProvider(database.db).suggest("yo1")).toEqual(["YO1 7HH"]);
  });

  it("reads places from latitude and longitude columns, the ONS Postcode Directory's headers too, with or without addresses", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "tc-pc-"));
    const ons = path.join(dir, "onspd.csv");
    // The ONS file marks a postcode without a place with 99.999999 and 0.000000.
    writeFileSync(ons, ["pcd,pcds,lat,long,usertype", "HG2 8PW,HG2 8PW,53.987,-1.511,1", "YO317UL,YO31 7UL,53.9611,-1.0705,1", "BF1 1AA,BF1 1AA,99.999999,0.000000,1", "XX,not,1,1,1"].join("\n"));
    expect(await importPostcodeCsv(database.db, ons)).toEqual({ imported: 0, located: 2, skipped: 2 });
    expect(await builtInProvider(database.db).locate("HG2 8PW")).toEqual({ lat: 53.987, lng: -1.511 });
    // Addresses with their places; a place read again replaces the last.
    const both = path.join(dir, "both.csv");
    writeFileSync(both, ["postcode,line_1,town,latitude,longitude", "HG2 8PW,Hookstone Road,Harrogate,53.988,-1.512", "HG2 8PW,2 Hookstone Road,Harrogate,53.988,-1.512"].join("\n"));
    expect(await importPostcodeCsv(database.db, both)).toEqual({ imported: 2, located: 1, skipped: 0 });
    expect(await builtInProvider(database.db).locate("HG2 8PW")).toEqual({ lat: 53.988, lng: -1.512 });
  });

  it("refuses a file without the needed columns", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "tc-pc-"));
    const file = path.join(dir, "bad.csv");
    writeFileSync(file, "a,b\n1,2\n");
    await expect(importPostcodeCsv(database.db, file)).rejects.toThrow(/header row/);
  });
});

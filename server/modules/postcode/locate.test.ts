// Where a postcode is (issue 30): the built-in table (exact, else the
// district's centre), and the three APIs' real clients against a fake of
// each on loopback (getAddress.io, Ideal Postcodes and postcodes.io cannot
// be reached from here).
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestDatabase, createTestDatabase } from "../../test/database.ts";
import { builtInProvider, getAddressProvider, idealPostcodesProvider, postcodesIoProvider } from "./service.ts";
import { postcodeLocations } from "./schema.ts";

let database: TestDatabase;
let server: Server;
let base = "";
const asked: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.insert(postcodeLocations).values([
    { postcode: "LS1 4AP", lat: 53.8, lng: -1.55 },
    { postcode: "LS1 5AB", lat: 53.79, lng: -1.53 },
  ]);
  // One fake for the three: each answers its own paths as the real service does.
  server = createServer((req, res) => {
    const url = new URL(req.url!, "http://x");
    asked.push(url.pathname + url.search);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === "/find/YO1%207HH") return send(200, { postcode: "YO1 7HH", latitude: 53.959, longitude: -1.081, addresses: [{ line_1: "1 Minster Yard", town_or_city: "York", county: "North Yorkshire" }] });
    if (url.pathname === "/autocomplete/YO1") return send(200, { suggestions: [{ address: "1 Minster Yard, York, YO1 7HH" }, { address: "2 Minster Yard, York, yo1 7hh" }, { address: "Deangate, York, YO1 0AA" }] });
    if (url.pathname === "/v1/autocomplete/addresses") return send(200, { result: { hits: [{ suggestion: "1 Minster Yard, York, YO1 7HH" }, { suggestion: "York Minster" }] } });
    if (url.pathname.startsWith("/find/")) return send(404, { Message: "Postcode not found" });
    if (url.pathname === "/v1/postcodes/YO1%207HH") return send(200, { result: [{ postcode: "YO1 7HH", latitude: 53.959, longitude: -1.081, line_1: "1 Minster Yard", post_town: "York" }] });
    if (url.pathname.startsWith("/v1/postcodes/")) return send(404, { code: 4040, message: "Postcode not found" });
    if (url.pathname === "/postcodes/YO1%207HH") return send(200, { status: 200, result: { postcode: "YO1 7HH", latitude: 53.959, longitude: -1.081 } });
    if (url.pathname === "/postcodes/YO1/autocomplete") return send(200, { status: 200, result: ["YO1 0AA", "YO1 7HH"] });
    if (url.pathname.startsWith("/postcodes/")) return send(404, { status: 404, error: "Postcode not found" });
    send(500, {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await database?.destroy();
});

describe("the built-in table", () => {
  it("places a postcode it has, one it lacks at its district's centre, and knows nothing of a district it lacks", async () => {
    const builtIn = builtInProvider(database.db);
    expect(await builtIn.locate("LS1 4AP")).toEqual({ lat: 53.8, lng: -1.55 });
    const centre = await builtIn.locate("LS1 9ZZ");
    expect(centre!.lat).toBeCloseTo(53.795, 6);
    expect(centre!.lng).toBeCloseTo(-1.54, 6);
    expect(await builtIn.locate("LS11 5PS")).toBeNull();
  });
});

describe("the APIs", () => {
  it("getAddress.io, Ideal Postcodes and postcodes.io each place a postcode they know, and answer null for one they do not", async () => {
    for (const provider of [getAddressProvider("key", base), idealPostcodesProvider("key", base), postcodesIoProvider(base)]) {
      expect(await provider.locate("YO1 7HH")).toEqual({ lat: 53.959, lng: -1.081 });
      expect(await provider.locate("ZZ1 1ZZ")).toBeNull();
    }
    expect(asked).toEqual(expect.arrayContaining(["/find/YO1%207HH?api-key=key", "/v1/postcodes/YO1%207HH?api_key=key", "/postcodes/YO1%207HH"]));
  });

  it("postcodes.io suggests postcodes and has no addresses to look up", async () => {
    const io = postcodesIoProvider(base);
    expect(await io.suggest("YO1")).toEqual(["YO1 0AA", "YO1 7HH"]);
    expect(await io.lookup("YO1 7HH")).toEqual([]);
  });

  it("fails loudly when the service fails, rather than placing a postcode nowhere", async () => {
    await expect(postcodesIoProvider(`${base}/broken`).locate("YO1 7HH")).rejects.toThrow(/answered 500/);
  });

  it("getAddress.io and Ideal Postcodes give a postcode's addresses in the shop's lines, and suggest the postcodes that end their addresses, each once", async () => {
    const york = { line_1: "1 Minster Yard", line_2: "", line_3: "", town: "York", postcode: "YO1 7HH" };
    expect(await getAddressProvider("key", base).lookup("YO1 7HH")).toEqual([{ ...york, county: "North Yorkshire" }]);
    expect(await idealPostcodesProvider("key", base).lookup("YO1 7HH")).toEqual([{ ...york, county: "" }]);
    expect(await getAddressProvider("key", base).suggest("YO1")).toEqual(["YO1 7HH", "YO1 0AA"]);
    expect(await idealPostcodesProvider("key", base).suggest("YO1")).toEqual(["YO1 7HH"]);
  });
});

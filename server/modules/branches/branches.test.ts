// The branches over HTTP (issue 30): the list in the merchant's order, nearest
// first from a postcode (exact, or its district's centre when the table lacks
// it) or the browser's position, each with its distance and whether it is
// open; one branch by its address; an unknown postcode refused by field.
import { describe, expect, it } from "vitest";
import { testShopForFile } from "../../test/app.ts";
import { milesBetween } from "./distance.ts";

const shop = testShopForFile();

const get = (url: string) => shop().app.inject({ method: "GET", url });
type Listed = { slug: string; distance_miles?: number; open_now: boolean; open_label: string; services: string[]; address: { postcode: string } };

describe("GET /api/branches", () => {
  it("lists the demo's four branches in the merchant's order, each with its address, services, hours and whether it is open", async () => {
    const res = await get("/api/branches");
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=60");
    const { data } = res.json() as { data: Listed[] };
    expect(data.map((b) => b.slug)).toEqual(["leeds", "york", "harrogate", "manchester"]);
    expect(data[0]).toMatchObject({ address: { postcode: "LS11 5PS" }, services: ["collect", "trade_counter", "hire"], open_label: expect.stringMatching(/^(Open until|Closed)/) });
    expect(data.every((b) => b.distance_miles === undefined)).toBe(true);
    expect(data.find((b) => b.slug === "harrogate")!.services).toContain("hire");
    expect(data.find((b) => b.slug === "york")!.services).toContain("showroom");
  });

  it("sorts nearest first from a postcode, with distances in miles", async () => {
    const leeds = (await get("/api/branches?near=ls1%201aa")).json() as { data: Listed[]; postcode: string };
    expect(leeds.postcode).toBe("LS1 1AA");
    expect(leeds.data.map((b) => b.slug)).toEqual(["leeds", "harrogate", "york", "manchester"]);
    expect(leeds.data[0]!.distance_miles).toBeLessThan(2);
    expect(leeds.data[3]!.distance_miles).toBeGreaterThan(30);
    const manchester = (await get("/api/branches?near=M1%201AA")).json() as { data: Listed[] };
    expect(manchester.data[0]!.slug).toBe("manchester");
  });

  it("places a postcode the table lacks at its district's centre", async () => {
    const res = await get("/api/branches?near=LS1%209ZZ");
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { data: Listed[] }).data[0]!.slug).toBe("leeds");
  });

  it("lets the shop's own pages ask for the visitor's position, and nobody else", async () => {
    expect((await get("/branches")).headers["permissions-policy"]).toContain("geolocation=(self)");
  });

  it("sorts from the browser's position, privately cached", async () => {
    const res = await get("/api/branches?lat=53.96&lng=-1.08");
    expect(res.headers["cache-control"]).toBe("private, max-age=60");
    expect((res.json() as { data: Listed[] }).data[0]!.slug).toBe("york");
  });

  it("refuses a postcode that is not one, or that nobody can place, naming the field", async () => {
    for (const near of ["not%20a%20postcode", "ZE3%209JZ"]) {
      const res = await get(`/api/branches?near=${near}`);
      expect(res.statusCode, near).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(["near"]);
    }
    expect((await get("/api/branches?lat=53.9")).statusCode).toBe(422);
  });
});

describe("GET /api/branches/{slug}", () => {
  it("answers one branch, and 404 for an unknown one", async () => {
    const res = await get("/api/branches/harrogate");
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ slug: "harrogate", name: "Harrogate hire depot", lat: expect.any(Number), opening_hours: expect.arrayContaining([{ day: 1, opens: "07:00", closes: "17:00" }]) });
    expect((await get("/api/branches/atlantis")).statusCode).toBe(404);
  });
});

describe("distances", () => {
  it("are as the crow flies, in miles to a tenth", () => {
    // Leeds (LS11 5PS) to York (YO31 7UL): 22.9 miles (11.8 north, 19.7 east); Leeds to London (SW1A): about 170.
    expect(milesBetween({ lat: 53.7906, lng: -1.5536 }, { lat: 53.9611, lng: -1.0705 })).toBe(22.9);
    expect(milesBetween({ lat: 53.7906, lng: -1.5536 }, { lat: 51.5014, lng: -0.1419 })).toBeGreaterThan(165);
    expect(milesBetween({ lat: 53.79, lng: -1.55 }, { lat: 53.79, lng: -1.55 })).toBe(0);
  });
});

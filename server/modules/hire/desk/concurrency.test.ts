// The hire desk with staff acting at once, on PostgreSQL (PGlite runs one
// query at a time, so it proves nothing here): two hand-overs of the same
// free unit, two members handing over one booked unit, and an approval that
// moves a booking racing a customer's request for the same unit and dates.
// The exclusion constraint `hire_allocations_no_overlap` and the per-item
// advisory lock decide; exactly one wins, the other hears a plain 409/422.
// TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx --no-install vitest run server/modules/hire/desk/concurrency.test.ts
import { and, eq, isNull, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { TestBrowser } from "../../../test/browser.ts";
import { shopWithStaff } from "../../../test/staff-browsers.ts";
import { testFleet } from "../test-fleet.ts";
import { addDays, londonDate } from "../pricing.ts";
import { hireAllocations } from "../schema.ts";

const day = (n: number) => addDays(londonDate(), n);

describe.skipIf(!process.env.TEST_DATABASE_URL)("the hire desk under concurrent staff (PostgreSQL)", () => {
  const { shop, as } = shopWithStaff("198.51.110", { desk: "hire@staff.example.com", manager: "manager@staff.example.com" });
  let ip = 1;
  const db = () => shop().database.db;
  const fleet = (prefix: string, units: number) => testFleet(db(), { name: `Mixer ${prefix}`, prefix, units });

  function customer() {
    return new TestBrowser(shop().app, `198.51.111.${ip++ % 250}`);
  }

  async function post(b: TestBrowser, itemId: number, start: string, end: string) {
    await b.csrf();
    const added = await b.post("/api/hire-basket", { hire_item_id: itemId, quantity: 1, start_date: start, end_date: end });
    expect(added.statusCode, added.body).toBe(200);
    return b.post("/api/hire-requests", { name: "Rae Racer", email: "rae.racer@example.co.uk", phone: "07700 900444", company: "", fulfilment: "collection" });
  }

  async function approved(itemId: number, start: string, end: string) {
    const made = await post(customer(), itemId, start, end);
    expect(made.statusCode, made.body).toBe(201);
    const number = made.json().number as string;
    expect((await as.desk.post(`/api/admin/hire/requests/${number}/approve`, {})).statusCode).toBe(200);
    const detail = (await as.desk.get(`/api/admin/hire/requests/${number}`)).json();
    return { number, allocation: detail.lines[0].units[0].allocation_id as number };
  }

  /** No unit is taken twice over overlapping dates by live allocations. */
  async function noOverlap(itemId: number) {
    const rows = (await db().execute(sql`
      select count(*)::int as n from hire_allocations a join hire_allocations b on a.unit_id = b.unit_id and a.id < b.id
      where a.released_at is null and b.released_at is null and a.period && b.period
        and a.unit_id in (select id from hire_units where hire_item_id = ${itemId})`)) as unknown as { rows: { n: number }[] };
    expect(rows.rows[0]!.n).toBe(0);
  }

  it("two hand-overs of the same free unit at once: exactly one goes out, the other hears 409", async () => {
    const { item, units } = await fleet("RACE", 3);
    const a = await approved(item.id, day(5), day(7));
    const b = await approved(item.id, day(5), day(7));
    const results = await Promise.all([
      as.desk.post(`/api/admin/hire/requests/${a.number}/handovers`, { allocation_id: a.allocation, asset_number: "RACE-3", condition: "Good", id_checked: false }),
      as.manager.post(`/api/admin/hire/requests/${b.number}/handovers`, { allocation_id: b.allocation, asset_number: "RACE-3", condition: "Good", id_checked: false }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const loser = results.find((r) => r.statusCode === 409)!;
    expect(loser.json().message).toBe("That unit is already out, booked or in service for those dates: choose another unit or other dates.");
    const out = await db().select().from(hireAllocations).where(and(eq(hireAllocations.unitId, units[2]!.id), isNull(hireAllocations.releasedAt)));
    expect(out).toHaveLength(1);
    expect(out[0]!.kind).toBe("out");
    // The loser's booking is as it was: its own unit, still booked.
    const loserNumber = results[0]!.statusCode === 409 ? a : b;
    const [kept] = await db().select().from(hireAllocations).where(eq(hireAllocations.id, loserNumber.allocation));
    expect(kept).toMatchObject({ kind: "booking", releasedAt: null });
    expect(kept!.unitId).not.toBe(units[2]!.id);
    await noOverlap(item.id);
  });

  it("two members handing over one booked unit at once: one hand-over, one 409", async () => {
    const { item } = await fleet("TWICE", 1);
    const a = await approved(item.id, day(9), day(10));
    const results = await Promise.all(
      [as.desk, as.manager].map((who) => who.post(`/api/admin/hire/requests/${a.number}/handovers`, { allocation_id: a.allocation, asset_number: "TWICE-1", condition: "Good", id_checked: false })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const handovers = (await db().execute(sql`select count(*)::int as n from hire_handovers where allocation_id = ${a.allocation}`)) as unknown as { rows: { n: number }[] };
    expect(handovers.rows[0]!.n).toBe(1);
  });

  it("an approval moving a booking races a customer's request for the same unit and dates: exactly one gets it", async () => {
    for (let round = 0; round < 4; round += 1) {
      const { item } = await fleet(`MOVE${round}`, 1);
      const made = await post(customer(), item.id, day(20), day(21));
      const number = made.json().number as string;
      const line = (await as.desk.get(`/api/admin/hire/requests/${number}`)).json().lines[0].id as number;
      const other = customer();
      await other.csrf();
      await other.post("/api/hire-basket", { hire_item_id: item.id, quantity: 1, start_date: day(30), end_date: day(32) });
      const [approve, request] = await Promise.all([
        as.desk.post(`/api/admin/hire/requests/${number}/approve`, { reason: "Moved to the later dates", lines: [{ line_id: line, start_date: day(30), end_date: day(32) }] }),
        other.post("/api/hire-requests", { name: "Other Customer", email: "other@example.co.uk", phone: "07700 900555", company: "", fulfilment: "collection" }),
      ]);
      const won = [approve.statusCode === 200, request.statusCode === 201];
      expect(won.filter(Boolean), `${approve.statusCode} ${approve.body} / ${request.statusCode} ${request.body}`).toHaveLength(1);
      if (approve.statusCode !== 200) expect(approve.statusCode).toBe(409);
      if (request.statusCode !== 201) expect(request.statusCode).toBe(422);
      await noOverlap(item.id);
    }
  });
});

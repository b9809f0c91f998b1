// Two members booking the same unit for the same dates at the same moment
// (issue 34), on PostgreSQL (PGlite runs one query at a time, so it proves
// nothing here): the per-item allocation lock and the exclusion constraint
// let exactly one booking through; the other hears a 409 naming the clash.
// TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx --no-install vitest run server/modules/hire/desk/bookings-concurrency.test.ts
import { and, eq, isNull, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { shopWithStaff } from "../../../test/staff-browsers.ts";
import { addDays, londonDate } from "../pricing.ts";
import { hireAllocations } from "../schema.ts";
import { testFleet } from "../test-fleet.ts";

const day = (n: number) => addDays(londonDate(), n);

describe.skipIf(!process.env.TEST_DATABASE_URL)("hires booked by two members at once (PostgreSQL)", () => {
  const { shop, as } = shopWithStaff("198.51.121", { desk: "hire@staff.example.com", manager: "manager@staff.example.com" });

  it("books the unit once: one 201, one 409", async () => {
    for (let round = 0; round < 5; round++) {
      const { item, units } = await testFleet(shop().database.db, { name: `Race ${round}`, prefix: `RB${round}`, units: 1 });
      const body = (name: string) => ({ hire_item: item.slug, unit_id: units[0]!.id, starts_on: day(3), ends_on: day(6), customer: { name, phone: "07700 900321" } });
      const answers = await Promise.all([as.desk.post("/api/admin/hire/bookings", body("Ada Desk")), as.manager.post("/api/admin/hire/bookings", body("Max Manager"))]);
      const codes = answers.map((a) => a.statusCode).sort();
      expect(codes, answers.map((a) => a.body).join(" / ")).toEqual([201, 409]);
      const lost = answers.find((a) => a.statusCode === 409)!;
      expect(lost.json().message).toMatch(new RegExp(`^Unit RB${round}-1 is booked for HR-\\d{6} \\((Ada Desk|Max Manager)\\)`));
      const live = await shop().database.db.select({ n: sql<number>`count(*)::int` }).from(hireAllocations).where(and(eq(hireAllocations.unitId, units[0]!.id), isNull(hireAllocations.releasedAt)));
      expect(live[0]!.n).toBe(1);
    }
  });
});

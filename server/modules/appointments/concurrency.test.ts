// Customers racing for a showroom's last places, on PostgreSQL (PGlite runs
// one query at a time, so it proves nothing here). The partial unique index
// on (branch, start, seat) decides: however many book at once, a slot never
// holds more appointments than the showroom has designers, and everyone else
// hears the plain 409.
// TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx --no-install vitest run server/modules/appointments/concurrency.test.ts
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestShop, createTestShop } from "../../test/app.ts";
import { TestBrowser } from "../../test/browser.ts";
import { appointments } from "./schema.ts";
import { SLOT_TAKEN } from "./service.ts";

describe.skipIf(!process.env.TEST_DATABASE_URL)("showroom slots under concurrent bookings (PostgreSQL)", () => {
  let shop: TestShop;
  let ip = 1;
  let slots: string[] = [];

  beforeAll(async () => {
    shop = await createTestShop();
    const res = await shop.app.inject({ method: "GET", url: "/api/appointments/slots?branch=york" });
    const next = await shop.app.inject({ method: "GET", url: `/api/appointments/slots?branch=york&from=${res.json().next}` });
    slots = [...res.json().days, ...next.json().days].flatMap((d: { slots: { start: string }[] }) => d.slots.map((s) => s.start));
    expect(slots.length).toBeGreaterThanOrEqual(3);
  }, 120_000);
  afterAll(() => shop?.close());

  async function customer() {
    const b = new TestBrowser(shop.app, `198.51.130.${ip++ % 250}`);
    await b.csrf();
    return b;
  }
  const booking = (start: string, n: number) => ({ branch: "york", start, name: `Racer ${n}`, email: `racer${n}@example.co.uk`, phone: "07700 900555" });
  const booked = async (start: string) =>
    (await shop.database.db.select().from(appointments).where(and(eq(appointments.startsAt, new Date(start)), eq(appointments.status, "booked")))).map((a) => a.seat).sort();

  it("gives the last place of a slot to exactly one of eight customers booking at once", async () => {
    const start = slots[0]!;
    expect((await (await customer()).post("/api/appointments", booking(start, 0))).statusCode).toBe(201);
    const racers = await Promise.all(Array.from({ length: 8 }, () => customer()));
    const answers = await Promise.all(racers.map((b, i) => b.post("/api/appointments", booking(start, i + 1))));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    for (const a of answers.filter((x) => x.statusCode === 409)) expect(a.json().message).toBe(SLOT_TAKEN);
    expect(await booked(start)).toEqual([1, 2]);
  });

  it("fills an empty two-designer slot with exactly two of ten at once, one seat each", async () => {
    const start = slots[1]!;
    const racers = await Promise.all(Array.from({ length: 10 }, () => customer()));
    const answers = await Promise.all(racers.map((b, i) => b.post("/api/appointments", booking(start, 100 + i))));
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(2);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(8);
    expect(await booked(start)).toEqual([1, 2]);
  });

  it("lets a customer moving into a slot and another booking it never both take its last place", async () => {
    const target = slots[2]!;
    const mover = await customer();
    const made = await mover.post("/api/appointments", booking(slots.at(-1)!, 200));
    expect(made.statusCode, made.body).toBe(201);
    const token = (made.json().manage_path as string).split("/").at(-1)!;
    expect((await (await customer()).post("/api/appointments", booking(target, 201))).statusCode).toBe(201);
    const [moved, newcomer] = await Promise.all([mover.patch(`/api/appointments/${token}`, { start: target }), (await customer()).post("/api/appointments", booking(target, 202))]);
    // Either may win; exactly one does.
    expect([moved.statusCode === 200, newcomer.statusCode === 201].filter(Boolean)).toHaveLength(1);
    expect([moved.statusCode, newcomer.statusCode]).toContain(409);
    expect(await booked(target)).toEqual([1, 2]);
  });
});

// Showroom appointments through the API (issue 30): York's free slots; a
// booking refused by field, a slot that is not offered, a third booking of a
// two-designer slot told plainly that it has gone; the confirmation delivered
// over SMTP with its calendar invite; the link's token stored only as its
// hash; a change (same UID, SEQUENCE up) and a cancellation (METHOD:CANCEL)
// from the link; staff's day list and audited cancel; and each showroom's
// settings through the branches API.
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEMO_STAFF } from "../../db/seed/index.ts";
import { type TestShop, createTestShop } from "../../test/app.ts";
import { TestBrowser } from "../../test/browser.ts";
import { auditLog } from "../audit/schema.ts";
import { sha256 } from "../auth/tokens.ts";
import { londonClock } from "../branches/hours.ts";
import { type ReceivedMail, type TestSmtpServer, startTestSmtpServer } from "../mail/smtp-test-server.ts";
import { appointments } from "./schema.ts";
import { SLOT_TAKEN } from "./service.ts";
import { HORIZON_DAYS, NOTICE_MINUTES } from "./slots.ts";

const PASSWORD = "demo-password-2026";
let shop: TestShop;
let smtp: TestSmtpServer;
let ip = 1;
const visitor = () => new TestBrowser(shop.app, `198.51.120.${ip++}`);
const staff = {} as Record<"manager" | "sales" | "warehouse", TestBrowser>;

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  shop = await createTestShop({ SMTP_URL: smtp.url });
  for (const role of ["manager", "sales", "warehouse"] as const) {
    const b = new TestBrowser(shop.app, `198.51.121.${ip++}`);
    await b.staffSignIn(DEMO_STAFF.find((s) => s.role === role)!.email, PASSWORD);
    staff[role] = b;
  }
}, 120_000);
afterAll(async () => {
  await shop?.close();
  await smtp?.close();
});

interface Slots {
  from: string;
  next: string | null;
  days: { date: string; label: string; slots: { start: string; time: string; free: number }[] }[];
}
const slotsOf = async (query: string) => (await visitor().get(`/api/appointments/slots?${query}`)).json() as Slots;

const details = { name: "Jo Fitter", email: "jo.fitter@example.co.uk", phone: "07700 900123", topic: "kitchen", notes: "A galley kitchen, 3 metres." };
async function book(start: string, overrides: Record<string, unknown> = {}) {
  const b = visitor();
  await b.csrf();
  return b.post("/api/appointments", { branch: "york", start, ...details, ...overrides });
}
const tokenOf = (managePath: string) => managePath.split("/").at(-1)!;

/** The newest message to `to` with `subject` in it, once the outbox has delivered it. */
async function mailTo(to: string, subject: RegExp): Promise<ReceivedMail> {
  let found: ReceivedMail | undefined;
  await vi.waitFor(
    () => {
      found = smtp.received.findLast((m) => m.envelopeTo.includes(to) && subject.test(m.subject));
      expect(found, `a mail to ${to} matching ${subject}`).toBeDefined();
    },
    { timeout: 15_000, interval: 100 },
  );
  return found!;
}
const invite = (m: ReceivedMail) => {
  const ics = m.attachments.find((a) => a.contentType.startsWith("text/calendar"));
  expect(ics, "the mail carries a calendar invite").toBeDefined();
  // The part's whole Content-Type header (the test server keeps only its type): the method tells a mail client what to do.
  const header = /Content-Type:\s*text\/calendar;[^\r\n]*(?:\r\n[ \t][^\r\n]*)*/i.exec(m.raw)?.[0].replace(/\r\n[ \t]+/g, " ") ?? "";
  return { contentType: header, filename: ics!.filename, lines: ics!.content.toString("utf8").replace(/\r\n /g, "").split("\r\n") };
};
const field = (lines: string[], name: string) => lines.find((l) => l.startsWith(`${name}:`))?.slice(name.length + 1);

let first: { start: string; time: string; date: string };
let other: string;

describe("free slots", () => {
  it("lists York as a showroom with its slot length and designers, and no branch without a showroom", async () => {
    const res = await visitor().get("/api/appointments/showrooms");
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("private, no-store");
    expect(res.json().data).toEqual([expect.objectContaining({ slug: "york", slot_minutes: 60, designers: 2 })]);
  });

  it("offers York's hours a week at a time, in the future with notice, within four weeks, two designers free", async () => {
    const week = await slotsOf("branch=york");
    const now = Date.now();
    const today = londonClock(new Date()).date;
    expect(week.from).toBe(today);
    expect(week.days.length).toBeGreaterThan(0);
    for (const day of week.days) {
      for (const s of day.slots) {
        expect(new Date(s.start).getTime()).toBeGreaterThanOrEqual(now + NOTICE_MINUTES * 60_000 - 60_000);
        expect(s.free).toBe(2);
        expect(londonClock(new Date(s.start)).date).toBe(day.date);
      }
    }
    const later = await slotsOf(`branch=york&from=${week.next}`);
    expect(later.days[0]!.date >= week.next!).toBe(true);
    const beyond = await slotsOf("branch=york&from=2999-01-01");
    const last = new Date(`${today}T12:00:00Z`);
    last.setUTCDate(last.getUTCDate() + HORIZON_DAYS - 1);
    for (const day of beyond.days) expect(day.date <= last.toISOString().slice(0, 10)).toBe(true);
    const day = week.days.find((d) => d.slots.length >= 2) ?? later.days.find((d) => d.slots.length >= 2)!;
    first = { ...day.slots[0]!, date: day.date };
    other = day.slots[1]!.start;
  });

  it("refuses a branch that is not a showroom, and a date that is not one", async () => {
    expect((await visitor().get("/api/appointments/slots?branch=leeds")).json().errors.branch).toEqual(["Choose one of our showrooms."]);
    expect((await visitor().get("/api/appointments/slots?branch=york&from=next-week")).statusCode).toBe(422);
    expect((await visitor().get("/api/appointments/slots?branch=york&from=2026-12-00")).json().errors.from).toEqual(["Give a real date as YYYY-MM-DD."]);
  });
});

describe("booking", () => {
  it("refuses missing details by field, and a time or branch that is not offered", async () => {
    const b = visitor();
    await b.csrf();
    const res = await b.post("/api/appointments", { branch: "york", email: "not-an-email" });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(["email", "name", "phone", "start"]);
    const between = new Date(new Date(first.start).getTime() + 30 * 60_000).toISOString();
    expect((await book(between)).json().errors).toEqual({ start: ["Choose one of the times offered."] });
    expect((await book("2020-01-06T09:00:00Z")).json().errors).toEqual({ start: ["Choose one of the times offered."] });
    expect((await book(first.start, { branch: "leeds" })).json().errors).toEqual({ branch: ["Choose one of our showrooms."] });
  });

  let token: string;
  it("books two customers into a two-designer slot, tells the third it has gone, and stops offering it", async () => {
    const one = await book(first.start);
    expect(one.statusCode, one.body).toBe(201);
    expect(one.json().data).toMatchObject({ status: "booked", branch: { slug: "york" }, time: first.time, date: first.date, topic: "kitchen", can_change: true });
    expect(one.json().message).toMatch(/^Your consultation is booked for \w+day \d+ \w+ \d{4} at \d\d:\d\d\./);
    token = tokenOf(one.json().manage_path);
    expect((await book(first.start, { email: "sam.second@example.co.uk" })).statusCode).toBe(201);
    const third = await book(first.start, { email: "terry.third@example.co.uk" });
    expect(third.statusCode).toBe(409);
    expect(third.json().message).toBe(SLOT_TAKEN);
    const week = await slotsOf(`branch=york&from=${first.date}`);
    expect(week.days.flatMap((d) => d.slots).map((s) => s.start)).not.toContain(first.start);
    // The two hold one seat each.
    const rows = await shop.database.db.select().from(appointments).where(and(eq(appointments.startsAt, new Date(first.start)), eq(appointments.status, "booked")));
    expect(rows.map((r) => r.seat).sort()).toEqual([1, 2]);
  });

  it("stores the link's token only as its SHA-256", async () => {
    const [row] = await shop.database.db.select().from(appointments).where(eq(appointments.tokenHash, sha256(token)));
    expect(row).toBeDefined();
    const dump = JSON.stringify(await shop.database.db.execute(sql`select * from appointments`));
    expect(dump).not.toContain(token);
  });

  it("emails the confirmation over SMTP with a calendar invite (METHOD:REQUEST) and the link", async () => {
    const mail = await mailTo(details.email, /^Your design consultation: /);
    expect(mail.text).toContain(`/appointments/${token}`);
    expect(mail.text).toContain("York, Foss Islands");
    const ics = invite(mail);
    expect(ics.filename).toBe("invite.ics");
    expect(ics.contentType).toMatch(/text\/calendar; charset=utf-8; method=REQUEST/i);
    expect(field(ics.lines, "METHOD")).toBe("REQUEST");
    expect(field(ics.lines, "SEQUENCE")).toBe("0");
    expect(field(ics.lines, "DTSTART")).toBe(new Date(first.start).toISOString().replace(/[-:]/g, "").replace(".000", ""));
    expect(field(ics.lines, "LOCATION")).toBe("Foss Islands Road\\, York\\, North Yorkshire\\, YO31 7UL");
    expect(field(ics.lines, "UID")).toMatch(/^appointment-\d+@/);
  });

  it("shows the appointment by its link, and knows no other token", async () => {
    const res = await visitor().get(`/api/appointments/${token}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ status: "booked", name: "Jo Fitter", when: expect.stringContaining(first.time) });
    expect((await visitor().get(`/api/appointments/${"x".repeat(43)}`)).statusCode).toBe(404);
  });

  it("moves it to another free slot with an updated invite (same UID, SEQUENCE 1), not to its own time nor a full one", async () => {
    const b = visitor();
    await b.csrf();
    expect((await b.patch(`/api/appointments/${token}`, { start: first.start })).json().errors.start).toEqual(["That is your time already: choose another."]);
    const before = invite(await mailTo(details.email, /^Your design consultation: /));
    const moved = await b.patch(`/api/appointments/${token}`, { start: other });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data.starts_at).toBe(new Date(other).toISOString());
    const mail = await mailTo(details.email, /has moved/);
    expect(mail.text).toContain(`/appointments/${token}`);
    const ics = invite(mail);
    expect(field(ics.lines, "METHOD")).toBe("REQUEST");
    expect(field(ics.lines, "SEQUENCE")).toBe("1");
    expect(field(ics.lines, "UID")).toBe(field(before.lines, "UID"));
    // The first slot has a seat again; fill it, then moving back finds it full.
    expect((await book(first.start, { email: "fran.fill@example.co.uk" })).statusCode).toBe(201);
    const full = await b.patch(`/api/appointments/${token}`, { start: first.start });
    expect(full.statusCode).toBe(409);
    expect(full.json().message).toBe(SLOT_TAKEN);
  });

  it("cancels from the link with METHOD:CANCEL, frees the seat, and cancelling again sends nothing more", async () => {
    const b = visitor();
    await b.csrf();
    const res = await b.post(`/api/appointments/${token}/cancel`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: "cancelled", can_change: false });
    const ics = invite(await mailTo(details.email, /is cancelled/));
    expect(ics.filename).toBe("cancelled.ics");
    expect(ics.contentType).toMatch(/method=CANCEL/);
    expect([field(ics.lines, "METHOD"), field(ics.lines, "STATUS"), field(ics.lines, "SEQUENCE")]).toEqual(["CANCEL", "CANCELLED", "2"]);
    const week = await slotsOf(`branch=york&from=${first.date}`);
    expect(week.days.flatMap((d) => d.slots).find((s) => s.start === other)?.free).toBe(2);
    const sent = smtp.received.length;
    expect((await b.post(`/api/appointments/${token}/cancel`)).json().data.status).toBe("cancelled");
    expect((await b.patch(`/api/appointments/${token}`, { start: other })).statusCode).toBe(409);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.received.length).toBe(sent);
  });

  it("refuses to change or cancel an appointment that has passed", async () => {
    const made = await book(other, { email: "pat.past@example.co.uk" });
    const past = tokenOf(made.json().manage_path);
    await shop.database.db.update(appointments).set({ startsAt: sql`now() - interval '2 hours'`, endsAt: sql`now() - interval '1 hour'` }).where(eq(appointments.tokenHash, sha256(past)));
    const b = visitor();
    await b.csrf();
    const res = await b.post(`/api/appointments/${past}/cancel`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe("This appointment has passed, so it can no longer be changed.");
    expect((await b.get(`/api/appointments/${past}`)).json().data.can_change).toBe(false);
  });
});

describe("the back office", () => {
  it("lists a showroom's day for sales and managers, not for the warehouse", async () => {
    const res = await staff.sales.get(`/api/admin/appointments?branch=york&date=${first.date}`);
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().data as { time: string; name: string; status: string; email: string }[];
    expect(rows.filter((r) => r.time === first.time && r.status === "booked").map((r) => r.email).sort()).toEqual(["fran.fill@example.co.uk", "sam.second@example.co.uk"]);
    expect(rows.some((r) => r.status === "cancelled")).toBe(true);
    expect((await staff.warehouse.get(`/api/admin/appointments?branch=york&date=${first.date}`)).statusCode).toBe(403);
    expect((await staff.manager.get("/api/admin/appointments?branch=york&date=2026-02-30")).json().errors.date).toEqual(["Give a real date as YYYY-MM-DD."]);
  });

  it("cancels one for the customer with a reason, audited, and the customer gets the cancellation", async () => {
    const rows = (await staff.manager.get(`/api/admin/appointments?branch=york&date=${first.date}`)).json().data as { id: number; email: string; status: string }[];
    const sam = rows.find((r) => r.email === "sam.second@example.co.uk" && r.status === "booked")!;
    expect((await staff.manager.post(`/api/admin/appointments/${sam.id}/cancel`, { reason: " " })).json().errors.reason).toBeDefined();
    const res = await staff.manager.post(`/api/admin/appointments/${sam.id}/cancel`, { reason: "Designer off sick" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: "cancelled", cancelled_by: "staff: Max Manager" });
    expect((await staff.manager.post(`/api/admin/appointments/${sam.id}/cancel`, { reason: "Again" })).statusCode).toBe(409);
    const [entry] = await shop.database.db.select().from(auditLog).where(and(eq(auditLog.entity, "appointment"), eq(auditLog.entityId, String(sam.id))));
    expect(entry).toMatchObject({ action: "appointment.cancelled", after: expect.objectContaining({ reason: "Designer off sick", status: "cancelled" }) });
    const mail = await mailTo("sam.second@example.co.uk", /is cancelled/);
    expect(mail.text).toContain("we have had to cancel");
    expect(mail.text).not.toContain("Designer off sick");
    expect(field(invite(mail).lines, "METHOD")).toBe("CANCEL");
  });

  it("sets a showroom's slot length and designers through the branches API, refused by field when out of range", async () => {
    const bad = await staff.manager.patch("/api/admin/branches/york", { appointment_minutes: 5, appointment_designers: 0 });
    expect(Object.keys(bad.json().errors).sort()).toEqual(["appointment_designers", "appointment_minutes"]);
    const res = await staff.manager.patch("/api/admin/branches/york", { appointment_minutes: 90, appointment_designers: 3 });
    expect(res.json().data).toMatchObject({ appointment_minutes: 90, appointment_designers: 3 });
    const week = await slotsOf(`branch=york&from=${first.date}`);
    const later = week.days.find((d) => d.date > first.date)!;
    const [a, b] = later.slots;
    expect(new Date(b!.start).getTime() - new Date(a!.start).getTime()).toBe(90 * 60_000);
    expect(a!.free).toBe(3);
  });
});

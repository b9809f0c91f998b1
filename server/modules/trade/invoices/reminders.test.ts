// Payment reminders (issue 21): on the due date, 7 and 14 days after, each
// stage once however often the job runs (and from two "processes" at once on
// PostgreSQL), a missed stage made up with the latest one only and never an
// earlier one after it; paid, part-paid and pending invoices; the hold after.
import { eq, inArray, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type Db, openPostgres } from "../../../db/client.ts";
import { testShopForFile } from "../../../test/app.ts";
import { SCHEDULED_JOBS } from "../../jobs/schedule.ts";
import { mailOutbox } from "../../mail/schema.ts";
import { tradeInvoices } from "./invoice-schema.ts";
import { outboxOn, payment } from "../credit/ledger-fixtures.ts";
import { tradeReminders } from "../credit/ledger-schema.ts";
import { type ReminderOptions, sendDueReminders, stageFor } from "./reminders.ts";
import { tradeAccounts } from "../schema.ts";
import { tradeFixtures } from "../test-fixtures.ts";

const shop = testShopForFile();

const db = () => shop().database.db;
const { company, invoiceFor } = tradeFixtures(shop);
const options = (): ReminderOptions => ({ mail: outboxOn(), appName: "Tradecounter", publicUrl: "http://shop.test" });

async function setup(name: string) {
  const c = await company(name);
  const inv = (dueDate: string, pence: number, po = "", status: "unpaid" | "payment_pending" = "unpaid") =>
    invoiceFor(c.accountId, c.buyer.id, { po, status, invoiceDate: "2026-01-02", dueDate, lines: [{ name: "Timber", qty: 1, unit: pence, rate: 0 }] });
  return { ...c, inv };
}

async function stagesOf(ids: number[]) {
  const rows = await db().select().from(tradeReminders).where(inArray(tradeReminders.invoiceId, ids));
  return rows.map((r) => `${r.invoiceId}:${r.stage}`).sort();
}

async function mailsNaming(number: string) {
  return db().select().from(mailOutbox).where(like(mailOutbox.subject, `%${number}%`)).orderBy(mailOutbox.id);
}

const mine = (sent: { invoiceId: number; stage: string }[], ids: number[]) => sent.filter((s) => ids.includes(s.invoiceId)).map((s) => `${s.invoiceId}:${s.stage}`).sort();

describe("the stage of an invoice", () => {
  it("is due on the day, overdue_7 from a week after, overdue_14 from two weeks after", () => {
    expect([-1, 0, 6, 7, 13, 14, 90].map(stageFor)).toEqual([null, "due", "due", "overdue_7", "overdue_7", "overdue_14", "overdue_14"]);
  });
});

describe("the trade desk's jobs", () => {
  it("remind daily at 07:00 London and check for the monthly statements daily at 06:00", () => {
    const jobs = Object.fromEntries(SCHEDULED_JOBS.map((job) => [job.name, job.schedule]));
    expect(jobs["trade.invoice-reminders"]).toEqual({ cron: "0 7 * * *" });
    expect(jobs["trade.monthly-statements"]).toEqual({ cron: "0 6 * * *" });
  });
});

describe("payment reminders", () => {
  it("send each stage once, late stages alone, one email per account naming its invoices, then hold the account", async () => {
    const r = await setup("Reminder Stages Ltd");
    const today = await r.inv("2026-06-10", 10000, "PO-R1");
    const missed = await r.inv("2026-06-01", 5000);
    const paid = await r.inv("2026-06-10", 2000);
    const pending = await r.inv("2026-06-10", 3000, "", "payment_pending");
    const later = await r.inv("2026-06-20", 4000);
    await payment(db(), r.accountId, "2026-06-05", 3000, [{ invoiceId: today.id, amount: 3000 }]);
    await payment(db(), r.accountId, "2026-06-05", 2000, [{ invoiceId: paid.id, amount: 2000 }]);
    const ids = [today.id, missed.id, paid.id, pending.id, later.id];

    const first = await sendDueReminders(db(), options(), "2026-06-10");
    expect(mine(first.sent, ids)).toEqual([`${today.id}:due`, `${missed.id}:overdue_7`].sort());
    expect(first.held.map((h) => h.id)).toContain(r.accountId);
    const [account] = await db().select().from(tradeAccounts).where(eq(tradeAccounts.id, r.accountId));
    expect(account).toMatchObject({ onHold: true, holdReason: "overdue" });

    const [mail, ...more] = await mailsNaming(today.number);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe(`Overdue: ${missed.number}, ${today.number}`);
    expect(mail!.to).toBe("accounts@fitters.example.com");
    expect(mail!.text).toContain(`Invoice ${missed.number}: £50.00, due on 1 June 2026, now 9 days overdue.`);
    expect(mail!.text).toContain(`Invoice ${today.number} (your PO PO-R1): £70.00, due today, 10 June 2026.`);
    expect(mail!.text).toContain("Together: £120.00.");
    expect(mail!.text).toContain("http://shop.test/trade/invoices/pay");
    expect(mail!.text).not.toContain(paid.number);
    expect(mail!.text).not.toContain(pending.number);

    // The same day again, and two days on: nothing new.
    expect(mine((await sendDueReminders(db(), options(), "2026-06-10")).sent, ids)).toEqual([]);
    expect(mine((await sendDueReminders(db(), options(), "2026-06-12")).sent, ids)).toEqual([]);
    expect(await stagesOf(ids)).toEqual([`${today.id}:due`, `${missed.id}:overdue_7`].sort());

    // A week on: the first invoice's 7-day reminder and the missed one's 14-day; then the last ones.
    expect(mine((await sendDueReminders(db(), options(), "2026-06-17")).sent, ids)).toEqual([`${today.id}:overdue_7`, `${missed.id}:overdue_14`].sort());
    expect(mine((await sendDueReminders(db(), options(), "2026-06-30")).sent, ids)).toEqual([`${today.id}:overdue_14`, `${later.id}:overdue_7`].sort());
    expect(mine((await sendDueReminders(db(), options(), "2026-07-31")).sent, ids)).toEqual([`${later.id}:overdue_14`]);
    expect(mine((await sendDueReminders(db(), options(), "2026-08-31")).sent, ids)).toEqual([]);
    expect(await stagesOf(ids)).toEqual([`${today.id}:due`, `${today.id}:overdue_7`, `${today.id}:overdue_14`, `${missed.id}:overdue_7`, `${missed.id}:overdue_14`, `${later.id}:overdue_14`, `${later.id}:overdue_7`].sort());
    const subjects = (await mailsNaming(later.number)).map((m) => m.subject);
    expect(subjects).toEqual([`Overdue: ${today.number}, ${later.number}`, `Overdue: ${later.number}`]);
  });

  it("never sends an earlier stage once a later one went out, even if the job runs with an earlier day", async () => {
    const r = await setup("Reminder Order Ltd");
    const old = await r.inv("2026-03-01", 9900);
    expect(mine((await sendDueReminders(db(), options(), "2026-03-21")).sent, [old.id])).toEqual([`${old.id}:overdue_14`]);
    expect(mine((await sendDueReminders(db(), options(), "2026-03-01")).sent, [old.id])).toEqual([]);
    expect(mine((await sendDueReminders(db(), options(), "2026-03-09")).sent, [old.id])).toEqual([]);
    expect(await stagesOf([old.id])).toEqual([`${old.id}:overdue_14`]);
    const [mail] = await mailsNaming(old.number);
    expect(mail!.text).toContain("now 20 days overdue");
  });

  it("stops once the invoice is paid", async () => {
    const r = await setup("Reminder Paid Ltd");
    const inv = await r.inv("2026-04-01", 1500);
    expect(mine((await sendDueReminders(db(), options(), "2026-04-01")).sent, [inv.id])).toEqual([`${inv.id}:due`]);
    await payment(db(), r.accountId, "2026-04-03", 1500, [{ invoiceId: inv.id, amount: 1500 }]);
    const [row] = await db().select({ status: tradeInvoices.status }).from(tradeInvoices).where(eq(tradeInvoices.id, inv.id));
    expect(row!.status).toBe("paid");
    expect(mine((await sendDueReminders(db(), options(), "2026-04-08")).sent, [inv.id])).toEqual([]);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("two shop processes sending reminders at once (PostgreSQL)", () => {
  it("send each stage of each invoice once", async () => {
    const r = await setup("Reminder Two Processes Ltd");
    const a = await r.inv("2026-09-01", 1000);
    const b = await r.inv("2026-08-10", 2000);
    const second = await openPostgres(shop().database.url!, { max: 4 });
    try {
      for (const day of ["2026-09-01", "2026-09-08", "2026-09-15"]) {
        const runs = await Promise.all([sendDueReminders(db(), options(), day), sendDueReminders(second.db as Db, options(), day), sendDueReminders(db(), options(), day)]);
        const sent = runs.flatMap((x) => mine(x.sent, [a.id, b.id]));
        expect(sent).toEqual([...new Set(sent)]);
      }
      expect(await stagesOf([a.id, b.id])).toEqual([`${a.id}:due`, `${a.id}:overdue_7`, `${a.id}:overdue_14`, `${b.id}:overdue_14`].sort());
      expect((await mailsNaming(a.number)).length).toBe(3);
      expect((await mailsNaming(b.number)).length).toBe(1);
    } finally {
      await second.close();
    }
  });
});

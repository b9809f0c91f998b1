import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onDataDir, runShop } from "./lib/shop-cli-test.ts";
import { users } from "../server/modules/auth/schema.ts";
import { mailOutbox } from "../server/modules/mail/schema.ts";
import { tableOutbox } from "../server/test/outbox.ts";
import { createTradeService } from "../server/modules/trade/service.ts";
import { tradeAccounts } from "../server/modules/trade/schema.ts";
import { tradeInvoices } from "../server/modules/trade/invoices/invoice-schema.ts";
import { tradeRemittanceInvoices, tradeRemittances } from "../server/modules/trade/credit/remittance-schema.ts";
import { orders } from "../server/modules/orders/schema.ts";
import { auditLog } from "../server/modules/audit/schema.ts";
import type { Db } from "../server/db/client.ts";

let dataDir: string;
/** The staff CLI on a PGlite DATA_DIR of its own (it opens the database as the server would). */
const shop = (...args: string[]) => runShop(dataDir, ...args);
const withDb = <T>(work: (db: Db) => Promise<T>) => onDataDir(dataDir, work, { migrate: true });

const outbox = tableOutbox;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "tc-shop-cli-"));
  await withDb(async (db) => {
    const [user] = await db.insert(users).values({ email: "owner@example.com", firstname: "Olu", lastname: "Owner", passwordHash: "x" }).returning();
    const trade = createTradeService(db, { mail: outbox, appName: "Tradecounter", publicUrl: "http://shop.test", shopEmail: "shop@example.com" });
    await trade.apply(user!.id, {
      company_name: "Owner Joinery",
      company_type: "sole_trader",
      company_number: "",
      vat_number: "",
      trade: "Joiner",
      line1: "2 Mill Lane",
      line2: "",
      town: "Leeds",
      county: "",
      postcode: "LS1 4AP",
      phone: "0113 496 0999",
      accounts_email: "owner@example.com",
      expected_monthly_spend: 1000,
      requested_credit_limit: 2000,
    });
  });
}, 60_000);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

// Each CLI run starts Node and opens the database anew: seconds each on a busy machine.
const SEVERAL_RUNS = 180_000;

describe("npm run shop -- trade:*", () => {
  it("shows the usage without the terms of an approval", async () => {
    const res = await shop("trade:approve", "owner@example.com", "--terms", "30");
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("trade:approve EMAIL --credit-limit POUNDS --terms DAYS --discount PERCENT");
  });

  it("refuses bad terms with the reason", async () => {
    const res = await shop("trade:approve", "owner@example.com", "--credit-limit", "5000", "--terms", "30", "--discount", "150");
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("The discount must be a percentage from 0 to 99.99 with at most 2 decimals.");
  });

  it("approves, then suspends, emailing the owner each time", async () => {
    const approved = await shop("trade:approve", "owner@example.com", "--credit-limit", "5000", "--terms", "30", "--discount", "12.5");
    expect(approved.stderr).toBe("");
    expect(approved.stdout).toContain("Trade account Owner Joinery (owner@example.com) is now approved: credit limit £5000.00, 30 days, 12.5% discount.");
    const suspended = await shop("trade:suspend", "owner@example.com");
    expect(suspended.stdout).toContain("is now suspended.");
    const declined = await shop("trade:decline", "owner@example.com");
    expect(declined.code).toBe(1);
    expect(declined.stderr).toContain("is suspended; it cannot be declined.");
    await withDb(async (db) => {
      const [account] = await db.select().from(tradeAccounts).where(eq(tradeAccounts.companyName, "Owner Joinery"));
      expect(account).toMatchObject({ state: "suspended", creditLimit: 500_000, termsDays: 30, discountBasisPoints: 1250 });
      const mails = await db.select({ subject: mailOutbox.subject }).from(mailOutbox).where(eq(mailOutbox.to, "owner@example.com"));
      expect(mails.map((m) => m.subject)).toEqual(["Your trade account application", "Trade account: approved", "Trade account: suspended"]);
      // Each decision is in the audit log, made by system through the CLI; the refused one is not.
      const audit = await db.select().from(auditLog).where(eq(auditLog.entity, "trade_account")).orderBy(auditLog.id);
      expect(audit.map((e) => [e.action, e.staffName, e.via])).toEqual([
        ["trade_account.approve", "system", "cli"],
        ["trade_account.suspend", "system", "cli"],
      ]);
      expect(audit[0]!.after).toMatchObject({ state: "approved", credit_limit: 500_000, terms_days: 30, discount_basis_points: 1250 });
    });
  }, SEVERAL_RUNS);
});

describe("npm run shop -- trade:po-required and invoice:paid", () => {
  /** Two invoices of £12 and £30 (on one remittance) and one of £5, on a balance of £47. */
  async function invoices() {
    return withDb(async (db) => {
      const [account] = await db.select().from(tradeAccounts).where(eq(tradeAccounts.companyName, "Owner Joinery"));
      const [user] = await db.select().from(users).where(eq(users.email, "owner@example.com"));
      await db.update(tradeAccounts).set({ balance: 4700, accountsEmail: "accounts@joinery.example.com" }).where(eq(tradeAccounts.id, account!.id));
      const made = [];
      for (const [i, total] of [1200, 3000, 500].entries()) {
        const [order] = await db
          .insert(orders)
          .values({ number: `TC-CLI-${i}`, userId: user!.id, email: "owner@example.com", status: "processing", deliveryMethod: "collect", deliveryName: "Click & collect", subtotal: total, vat: 0, delivery: 0, total, paymentMethod: "pay_on_account" })
          .returning();
        const [invoice] = await db
          .insert(tradeInvoices)
          .values({ number: `INV-90000${i}`, tradeAccountId: account!.id, orderId: order!.id, invoiceDate: "2026-10-01", dueDate: "2026-10-31", subtotal: total, vat: 0, delivery: 0, total, poReference: i === 0 ? "PO-77" : "", status: i < 2 ? "payment_pending" : "unpaid" })
          .returning();
        made.push(invoice!);
      }
      const [remittance] = await db.insert(tradeRemittances).values({ reference: "REM-900000", tradeAccountId: account!.id, amount: 4200, provider: "bank_transfer", createdBy: user!.id }).returning();
      await db.insert(tradeRemittanceInvoices).values(made.slice(0, 2).map((inv) => ({ remittanceId: remittance!.id, invoiceId: inv.id })));
      return account!.id;
    });
  }

  it("switches the PO requirement on and off; refuses a bad value or an unknown owner", async () => {
    const on = await shop("trade:po-required", "owner@example.com", "on");
    expect(on.stdout).toContain("Trade account Owner Joinery (owner@example.com) now requires a PO reference on orders on account.");
    expect(await withDb(async (db) => (await db.select().from(tradeAccounts).where(eq(tradeAccounts.companyName, "Owner Joinery")))[0]!.poRequired)).toBe(true);
    const off = await shop("trade:po-required", "owner@example.com", "off");
    expect(off.stdout).toContain("no longer requires a PO reference");
    expect(await withDb(async (db) => (await db.select().from(tradeAccounts).where(eq(tradeAccounts.companyName, "Owner Joinery")))[0]!.poRequired)).toBe(false);
    const audited = await withDb((db) => db.select().from(auditLog).where(eq(auditLog.action, "trade_account.po_required")).orderBy(auditLog.id));
    expect(audited.map((e) => [e.before, e.after, e.staffName])).toEqual([
      [{ po_required: false }, { po_required: true }, "system"],
      [{ po_required: true }, { po_required: false }, "system"],
    ]);
    const bad = await shop("trade:po-required", "owner@example.com", "maybe");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("trade:po-required EMAIL on|off");
    const nobody = await shop("trade:po-required", "nobody@example.com", "on");
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toContain("No trade account is owned by nobody@example.com.");
  }, SEVERAL_RUNS);

  it("marks invoices paid, lowers the balance, confirms the remittance when all its invoices are paid, and sends receipts", async () => {
    const accountId = await invoices();
    const first = await shop("invoice:paid", "inv-900000");
    expect(first.stderr).toBe("");
    expect(first.stdout).toContain("Invoice INV-900000 of Owner Joinery is now paid; the account owes £35.00.");
    expect(first.stdout).not.toContain("Remittance");
    const second = await shop("invoice:paid", "INV-900001");
    expect(second.stdout).toContain("the account owes £5.00. Remittance REM-900000 is confirmed.");
    // From unpaid too; the balance is the ledger's sum (ADR 0040).
    const third = await shop("invoice:paid", "INV-900002");
    expect(third.stdout).toContain("the account owes £0.00.");
    const again = await shop("invoice:paid", "INV-900002");
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("INV-900002 is already paid.");
    const unknown = await shop("invoice:paid", "INV-999999");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No invoice is numbered INV-999999.");
    await withDb(async (db) => {
      const paid = await db.select().from(tradeInvoices).where(eq(tradeInvoices.tradeAccountId, accountId));
      expect(paid.map((i) => i.status)).toEqual(["paid", "paid", "paid"]);
      expect(paid.every((i) => i.paidAt instanceof Date)).toBe(true);
      const [remittance] = await db.select().from(tradeRemittances).where(eq(tradeRemittances.reference, "REM-900000"));
      expect(remittance).toMatchObject({ status: "confirmed" });
      expect(remittance!.confirmedAt).toBeInstanceOf(Date);
      const mails = await db.select().from(mailOutbox).where(eq(mailOutbox.to, "accounts@joinery.example.com"));
      expect(mails.map((m) => m.subject)).toEqual(["Receipt: INV-900000 paid", "Receipt: INV-900001 paid", "Receipt: INV-900002 paid"]);
      expect(mails[0]!.text).toContain("we have received £12.00 for invoice INV-900000 (your PO PO-77)");
      expect(mails[1]!.text).toContain("This completes your payment REM-900000.");
      const audit = await db.select().from(auditLog).where(eq(auditLog.action, "invoice.paid")).orderBy(auditLog.id);
      expect(audit.map((e) => [e.entityId, e.staffName, e.via])).toEqual([
        ["INV-900000", "system", "cli"],
        ["INV-900001", "system", "cli"],
        ["INV-900002", "system", "cli"],
      ]);
      expect(audit[1]!.after).toEqual({ status: "paid", remittances_confirmed: ["REM-900000"] });
    });
  }, SEVERAL_RUNS);
});

describe("npm run shop -- order:status", () => {
  it("moves an order through the orders desk's state machine, audited as the staff member system", async () => {
    await withDb((db) =>
      db.insert(orders).values({ number: "TC-CLI-77", email: "cli-order@example.com", status: "awaiting_payment", deliveryMethod: "standard", deliveryName: "Standard delivery", subtotal: 1000, vat: 200, delivery: 695, total: 1895, paymentMethod: "bank_transfer" }),
    );
    const paid = await shop("order:status", "tc-cli-77", "paid");
    expect(paid.stderr).toBe("");
    expect(paid.stdout).toContain("Order TC-CLI-77 is now paid.");
    const skipped = await shop("order:status", "TC-CLI-77", "dispatched", "--carrier", "DPD", "--tracking", "15501234567890");
    expect(skipped.code).toBe(1);
    expect(skipped.stderr).toContain("Order TC-CLI-77 is paid; it cannot move to dispatched.");
    expect((await shop("order:status", "TC-CLI-77", "processing")).stdout).toContain("Order TC-CLI-77 is now processing.");
    const sent = await shop("order:status", "TC-CLI-77", "dispatched", "--carrier", "DPD", "--tracking", "15501234567890", "Two pallets");
    expect(sent.stdout).toContain("Order TC-CLI-77 is now dispatched.");
    await withDb(async (db) => {
      const [order] = await db.select().from(orders).where(eq(orders.number, "TC-CLI-77"));
      expect(order).toMatchObject({ status: "dispatched", carrier: "DPD", trackingNumber: "15501234567890" });
      const audit = await db.select().from(auditLog).where(eq(auditLog.entityId, "TC-CLI-77")).orderBy(auditLog.id);
      expect(audit.map((e) => [e.staffName, e.via, e.action, (e.after as { status: string }).status])).toEqual([
        ["system", "cli", "order.transition", "paid"],
        ["system", "cli", "order.transition", "processing"],
        ["system", "cli", "order.transition", "dispatched"],
      ]);
      const mails = await db.select({ subject: mailOutbox.subject }).from(mailOutbox).where(eq(mailOutbox.to, "cli-order@example.com"));
      expect(mails.map((m) => m.subject)).toEqual(["Order TC-CLI-77: payment received", "Order TC-CLI-77 is on its way"]);
    });
  }, SEVERAL_RUNS);
});

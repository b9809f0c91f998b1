import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPglite } from "../server/db/client.ts";
import { users } from "../server/modules/auth/schema.ts";
import { mailOutbox } from "../server/modules/mail/schema.ts";
import { createTradeService } from "../server/modules/trade/service.ts";
import { tradeAccounts } from "../server/modules/trade/schema.ts";
import type { Db } from "../server/db/client.ts";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "..");
const node = path.join(root, "node_modules/.bin/node");
let dataDir: string;

/** The staff CLI on a PGlite DATA_DIR of its own (it opens the database as the server would). */
function shop(...args: string[]) {
  return run(node, ["scripts/shop.ts", ...args], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: "test", DATABASE_URL: "", COOKIE_SECRET: "x".repeat(32) },
  }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}

async function withDb<T>(work: (db: Db) => Promise<T>): Promise<T> {
  const database = await openPglite(dataDir);
  try {
    await database.migrate();
    return await work(database.db);
  } finally {
    await database.close();
  }
}

const outbox = {
  async enqueue(tx: Db, m: { to: string; subject: string; html: string; text: string }) {
    const [row] = await tx.insert(mailOutbox).values(m).returning({ id: mailOutbox.id });
    return row!.id;
  },
};

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
    });
  });
});

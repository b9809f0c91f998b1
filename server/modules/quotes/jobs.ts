// The quotes' daily job (issue 32): a reminder a few days before a sent
// quote's last day, once per sent version, and expiry after it. Safe to run
// again and in several processes: each reminder is claimed by a conditional
// update in the transaction that writes its email, and expiring is one update.
// Acceptance checks the last day itself, so a quote is never accepted late
// while it waits for this job.
import { and, eq, gte, isNull, lt, lte, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { users } from "../auth/schema.ts";
import { addDays } from "../hire/calendar.ts";
import { type QuoteMailOptions, mailReminder } from "./emails.ts";
import { quoteEvent } from "./read.ts";
import { quotes } from "./schema.ts";
import { QUOTE_TRANSITIONS } from "./statuses.ts";

/** Days before the last day that the reminder goes. */
export const QUOTE_REMINDER_DAYS = 3;

export async function sweepQuotes(db: Db, options: QuoteMailOptions, today: string): Promise<{ reminded: string[]; expired: string[] }> {
  const expired = await db.transaction(async (t) => {
    const tx = t as unknown as Db;
    const rows = await tx
      .update(quotes)
      .set({ status: QUOTE_TRANSITIONS.expire.to, updatedAt: sql`now()` })
      .where(and(eq(quotes.status, "sent"), lt(quotes.validUntil, today)))
      .returning({ id: quotes.id, number: quotes.number, validUntil: quotes.validUntil });
    for (const r of rows) await quoteEvent(tx, r.id, "expired", "system", `Expired: its prices held until ${r.validUntil}.`);
    return rows.map((r) => r.number);
  });

  const due = await db
    .select({ id: quotes.id, number: quotes.number, validUntil: quotes.validUntil, email: users.email, firstname: users.firstname, lastname: users.lastname })
    .from(quotes)
    .innerJoin(users, eq(users.id, quotes.userId))
    .where(and(eq(quotes.status, "sent"), isNull(quotes.remindedAt), gte(quotes.validUntil, today), lte(quotes.validUntil, addDays(today, QUOTE_REMINDER_DAYS))));
  const reminded: string[] = [];
  for (const q of due) {
    const claimed = await db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const [won] = await tx
        .update(quotes)
        .set({ remindedAt: sql`now()` })
        .where(and(eq(quotes.id, q.id), eq(quotes.status, "sent"), isNull(quotes.remindedAt)))
        .returning({ id: quotes.id });
      if (!won) return false;
      await mailReminder(tx, options, { number: q.number, email: q.email, name: `${q.firstname} ${q.lastname}`.trim(), validUntil: q.validUntil! });
      await quoteEvent(tx, q.id, "sent", "system", `Reminded that it ends on ${q.validUntil}.`);
      return true;
    });
    if (claimed) reminded.push(q.number);
  }
  if (reminded.length) options.mail.kick?.();
  return { reminded, expired };
}

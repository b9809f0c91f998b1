// The demo's quotes (issue 32), so a newcomer sees the desk and the customer's
// page at work: the demo trade account's owner has one quote sent, priced a
// little below their trade price with delivery to site, valid for 30 days,
// and one just asked for, waiting on the desk.
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { users } from "../../modules/auth/schema.ts";
import { lineVariants } from "../../modules/basket/line-variants.ts";
import { products } from "../../modules/catalog/schema.ts";
import { addDays, londonDate } from "../../modules/hire/calendar.ts";
import { customerPricing, newLineOf } from "../../modules/quotes/lines.ts";
import { quoteEvents, quoteLines, quoteRevisions, quotes } from "../../modules/quotes/schema.ts";
import { snapshotOf } from "../../modules/quotes/read.ts";
import { tradeSites } from "../../modules/trade/accounts/sites-schema.ts";
import { DEMO_TRADE, DEMO_TRADE_SITES } from "./demo-trade.ts";

export async function seedDemoQuotes(tx: Db): Promise<void> {
  const [owner] = await tx.select({ id: users.id }).from(users).where(eq(users.email, DEMO_TRADE.email));
  if (!owner) return;
  const { prices, tradeAccountId } = await customerPricing(tx, owner.id);
  // Four cheap-to-stock lines a builder would price together: published products of one variant.
  const variants = (await lineVariants(tx, and(eq(products.status, "published"), sql`(select count(*) from product_variants o where o.product_id = ${products.id}) = 1`))).slice(0, 4);
  if (variants.length < 4) return;
  const today = londonDate();
  // The sent quote is for the company's Mill Lane job.
  const [site] = tradeAccountId === null ? [] : await tx.select({ id: tradeSites.id }).from(tradeSites).where(and(eq(tradeSites.tradeAccountId, tradeAccountId), eq(tradeSites.name, DEMO_TRADE_SITES[0].name)));

  const sentLines = variants.slice(0, 3).map((v, i) => {
    const line = newLineOf(v, [40, 12, 6][i]!, prices);
    // 5% off the trade price: within what the sales desk may give.
    return { ...line, unitPrice: Math.round(line.basePrice * 0.95) };
  });
  const [sent] = await tx
    .insert(quotes)
    .values({ status: "sent", userId: owner.id, tradeAccountId, siteId: site?.id ?? null, notes: "Rear extension, 14 Mill Lane: deliver to site please.", neededBy: addDays(today, 14), validUntil: addDays(today, 30), terms: "Delivery to site, kerbside, within 3 working days of acceptance.", deliveryExVat: 2500, sentAt: new Date() })
    .returning();
  const made = await tx.insert(quoteLines).values(sentLines.map((l) => ({ ...l, quoteId: sent!.id }))).returning();
  await tx.insert(quoteRevisions).values({ quoteId: sent!.id, revision: 1, snapshot: snapshotOf(sent!, made) });
  await tx.insert(quoteEvents).values([
    { quoteId: sent!.id, status: "requested", by: "customer", note: "Asked for from the basket." },
    { quoteId: sent!.id, status: "sent", by: "staff", note: `Sent revision 1, valid until ${addDays(today, 30)}.` },
  ]);

  const [asked] = await tx.insert(quotes).values({ status: "requested", userId: owner.id, tradeAccountId, notes: "Price for 20 if we take the lot?" }).returning({ id: quotes.id });
  await tx.insert(quoteLines).values([{ ...newLineOf(variants[3]!, 20, prices), quoteId: asked!.id }]);
  await tx.insert(quoteEvents).values({ quoteId: asked!.id, status: "requested", by: "customer", note: "Asked for from the basket: Price for 20 if we take the lot?" });
}

import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { COMPANY_ORDER_READERS } from "../trade/dashboard.ts";
import { type TradeRole, tradeMembers } from "../trade/schema.ts";

/** Of the quote's company, who may accept, decline or ask for changes to a colleague's quote: those who may buy for it and manage its buying. */
export const COMPANY_QUOTE_ACTORS: readonly TradeRole[] = ["owner", "admin"];

/**
 * What a signed-in customer may do with a quote: the customer it is for may
 * do everything; of its company, owners and admins may too, accounts users
 * may read it (as they read the company's orders), and a buyer sees only
 * their own. Anyone else: nothing, and the quote answers 404.
 */
export async function customerAccess(q: Db, userId: number, quote: { userId: number; tradeAccountId: number | null }): Promise<"act" | "read" | "none"> {
  if (quote.userId === userId) return "act";
  if (quote.tradeAccountId === null) return "none";
  const [member] = await q
    .select({ role: tradeMembers.role })
    .from(tradeMembers)
    .where(and(eq(tradeMembers.userId, userId), eq(tradeMembers.tradeAccountId, quote.tradeAccountId)))
    .limit(1);
  if (!member) return "none";
  if (COMPANY_QUOTE_ACTORS.includes(member.role)) return "act";
  return COMPANY_ORDER_READERS.includes(member.role) ? "read" : "none";
}

import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { HttpError } from "../../../http-errors.ts";
import type { Outbox } from "../../auth/service.ts";
import { pounds } from "../../catalog/products/products.ts";
import { renderEmail } from "../../mail/templates.ts";
import type { MailAttachment } from "../../mail/service.ts";
import { BUYING_ROLES } from "../../trade/credit/credit.ts";
import type { ShopDetails } from "../../trade/invoices/invoices.ts";
import { tradeAccounts, tradeMembers } from "../../trade/schema.ts";
import type { PricingSettings } from "../pricing.ts";
import type { HireRequestService } from "../requests.ts";
import { hireRequests } from "../schema.ts";

export type HireRequestRow = typeof hireRequests.$inferSelect;

export interface HireOperationsOptions {
  mail: Outbox;
  appName: string;
  publicUrl: string;
  shop: ShopDetails;
  requests: HireRequestService;
  settings?: PricingSettings;
  /** Whether card payment is offered: the final charges' payment link. */
  cardPayments: boolean;
  /** Gives back by card what a hire paid up front beyond its final charges (the payments module's refund). */
  refundHire?: (number: string, amount: number, reason: string) => Promise<void>;
}

export const money = (pence: number) => `${pence < 0 ? "-" : ""}£${pounds(Math.abs(pence)).toFixed(2)}`;

/** A readable reference from a row id: `OH-000123`. */
export const reference = (prefix: string, id: number) => `${prefix}-${String(id).padStart(6, "0")}`;

/** The request by number, locked for the transaction, or 404. */
export async function lockRequest(tx: Db, number: string): Promise<HireRequestRow> {
  const [row] = await tx.select().from(hireRequests).where(eq(hireRequests.number, number)).for("update");
  if (!row) throw new HttpError(404, `No hire request ${number}.`);
  return row;
}

/** The approved trade account a customer buys for, when they do: their hire charges go on its invoice. */
export async function tradeAccountOf(tx: Db, userId: number | null) {
  if (userId === null) return null;
  const [row] = await tx
    .select({ id: tradeAccounts.id, companyName: tradeAccounts.companyName, accountsEmail: tradeAccounts.accountsEmail })
    .from(tradeMembers)
    .innerJoin(tradeAccounts, eq(tradeAccounts.id, tradeMembers.tradeAccountId))
    .where(and(eq(tradeMembers.userId, userId), eq(tradeAccounts.state, "approved"), inArray(tradeMembers.role, [...BUYING_ROLES])))
    .limit(1);
  return row ?? null;
}

export async function emailCustomer(
  options: HireOperationsOptions,
  tx: Db,
  request: HireRequestRow,
  subject: string,
  title: string,
  paragraphs: string[],
  action?: { label: string; url: string },
  attachments?: MailAttachment[],
): Promise<void> {
  const body = renderEmail({ appName: options.appName, publicUrl: options.publicUrl, title, paragraphs: [`Hello ${request.name},`, ...paragraphs], ...(action ? { action } : {}) });
  await options.mail.enqueue(tx, { to: request.email, subject, ...body, ...(attachments ? { attachments } : {}) });
}

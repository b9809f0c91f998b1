import { and, asc, desc, eq, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import { ValidationError } from "../../../http-errors.ts";
import { users } from "../../auth/schema.ts";
import type { StaffActor } from "../../staff/actor.ts";
import { staff } from "../../staff/schema.ts";
import { siteJsonOf, sitesOf } from "../accounts/sites.ts";
import { creditableLines } from "../credit/ledger.ts";
import { tradeAccountNotes, tradeCreditNotes, tradePaymentAllocations, tradePayments } from "../credit/ledger-schema.ts";
import { tradeRemittanceInvoices, tradeRemittances } from "../credit/remittance-schema.ts";
import type { AccountSort } from "../desk-labels.ts";
import { creditNotesOf } from "../invoices/credit-notes.ts";
import { tradeInvoices } from "../invoices/invoice-schema.ts";
import { invoiceByNumber } from "../invoices/invoices.ts";
import { type TradeAccountState, tradeAccounts, tradeMembers } from "../schema.ts";
import { type AccountRowJson, type DeskContext, authorizeDesk, invoicesWhere, oldestDueOf, overdueDaysOf, overdueOf, pounds, rowJson, withInvoices } from "./common.ts";

/**
 * The trade desk's reads (ADR 0040), for either permission: the accounts list a
 * keyset page at a time, an account's page with everything on it, and an
 * invoice with what of it can still be credited.
 */

export const DESK_PAGE_MAX = 100;

export interface AccountListQuery {
  sort?: AccountSort;
  state?: TradeAccountState;
  on_hold?: boolean;
  q?: string;
  cursor?: string;
  limit?: number;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function encodeCursor(values: (string | number)[]): string {
  return Buffer.from(JSON.stringify(values)).toString("base64url");
}
function decodeCursor(cursor: string | undefined, shape: ("string" | "number")[]): (string | number)[] | null {
  if (!cursor) return null;
  try {
    const values: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString());
    if (Array.isArray(values) && values.length === shape.length && values.every((v, i) => typeof v === shape[i])) return values as (string | number)[];
  } catch {
    // A cursor that is not ours reads as the first page's refusal below.
  }
  throw new ValidationError({ cursor: ["The cursor is not one this list gave."] });
}

export function deskAccountReads({ db, options }: DeskContext) {
  /** The accounts, a keyset page at a time; most overdue first by default (ties: oldest due date, then id). */
  async function accounts(actor: StaffActor, query: AccountListQuery): Promise<{ data: AccountRowJson[]; next_cursor: string | null }> {
    authorizeDesk(actor);
    const sort = query.sort ?? "overdue";
    const limit = Math.min(Math.max(query.limit ?? 50, 1), DESK_PAGE_MAX);
    const where: SQL[] = [];
    if (query.state) where.push(eq(tradeAccounts.state, query.state));
    if (query.on_hold !== undefined) where.push(eq(tradeAccounts.onHold, query.on_hold));
    const q = query.q?.trim();
    if (q) where.push(or(ilike(tradeAccounts.companyName, `%${escapeLike(q)}%`), ilike(tradeAccounts.accountsEmail, `%${escapeLike(q)}%`))!);
    const a = db
      .select({
        id: tradeAccounts.id,
        name: sql<string>`lower(${tradeAccounts.companyName})`.as("name_key"),
        balance: sql<number>`${tradeAccounts.balance}`.as("balance_key"),
        overdue: overdueOf.as("overdue"),
        oldestDue: oldestDueOf.as("oldest_due"),
        overdueDays: overdueDaysOf.as("overdue_days"),
      })
      .from(tradeAccounts)
      .where(where.length ? and(...where) : undefined)
      .as("a");
    const keys: Record<AccountSort, { order: SQL[]; shape: ("string" | "number")[]; after: (c: (string | number)[]) => SQL; of: (r: { id: number; name: string; balance: number; overdue: number; oldestDue: string }) => (string | number)[] }> = {
      overdue: {
        order: [desc(a.overdue), asc(a.oldestDue), asc(a.id)],
        shape: ["number", "string", "number"],
        after: (c) => sql`(-${a.overdue}, ${a.oldestDue}, ${a.id}) > (${-Number(c[0])}, ${String(c[1])}, ${Number(c[2])})`,
        of: (r) => [Number(r.overdue), r.oldestDue, r.id],
      },
      name: {
        order: [asc(a.name), asc(a.id)],
        shape: ["string", "number"],
        after: (c) => sql`(${a.name}, ${a.id}) > (${String(c[0])}, ${Number(c[1])})`,
        of: (r) => [r.name, r.id],
      },
      balance: {
        order: [desc(a.balance), asc(a.id)],
        shape: ["number", "number"],
        after: (c) => sql`(-${a.balance}, ${a.id}) > (${-Number(c[0])}, ${Number(c[1])})`,
        of: (r) => [Number(r.balance), r.id],
      },
    };
    const key = keys[sort];
    const cursor = decodeCursor(query.cursor, key.shape);
    const page = await db
      .select()
      .from(a)
      .where(cursor ? key.after(cursor) : undefined)
      .orderBy(...key.order)
      .limit(limit + 1);
    const shown = page.slice(0, limit);
    const full = shown.length ? await db.select().from(tradeAccounts).where(inArray(tradeAccounts.id, shown.map((r) => r.id))) : [];
    const byId = new Map(full.map((f) => [f.id, f]));
    return {
      data: shown.map((r) => rowJson(byId.get(r.id)!, { overdue: Number(r.overdue), oldestDue: r.oldestDue, overdueDays: Number(r.overdueDays) })),
      next_cursor: page.length > limit ? encodeCursor(key.of(shown.at(-1)!)) : null,
    };
  }

  /** Everything on an account's page. */
  async function account(actor: StaffActor, accountId: number) {
    authorizeDesk(actor);
    const base = await withInvoices(db, accountId);
    const [a] = await db.select().from(tradeAccounts).where(eq(tradeAccounts.id, accountId));
    const members = await db
      .select({ name: sql<string>`${users.firstname} || ' ' || ${users.lastname}`, email: users.email, role: tradeMembers.role })
      .from(tradeMembers)
      .innerJoin(users, eq(users.id, tradeMembers.userId))
      .where(eq(tradeMembers.tradeAccountId, accountId))
      .orderBy(asc(tradeMembers.id));
    const payments = await db.select().from(tradePayments).where(eq(tradePayments.tradeAccountId, accountId)).orderBy(desc(tradePayments.receivedOn), desc(tradePayments.id)).limit(100);
    const allocations = payments.length
      ? await db
          .select({ paymentId: tradePaymentAllocations.paymentId, number: tradeInvoices.number, amount: tradePaymentAllocations.amount })
          .from(tradePaymentAllocations)
          .innerJoin(tradeInvoices, eq(tradeInvoices.id, tradePaymentAllocations.invoiceId))
          .where(inArray(tradePaymentAllocations.paymentId, payments.map((p) => p.id)))
          .orderBy(asc(tradeInvoices.id))
      : [];
    // Payments' money not yet set against an invoice: what "use credit on account" may allocate.
    const [unallocated] = await db.select({ pence: sql<number>`coalesce(sum(${tradePayments.unallocated}), 0)::int` }).from(tradePayments).where(eq(tradePayments.tradeAccountId, accountId));
    const creditNotes = await creditNotesOf(db, eq(tradeCreditNotes.tradeAccountId, accountId));
    const waiting = await db
      .select()
      .from(tradeRemittances)
      .where(and(eq(tradeRemittances.tradeAccountId, accountId), eq(tradeRemittances.status, "pending")))
      .orderBy(asc(tradeRemittances.id));
    const links = waiting.length
      ? await db
          .select({ remittanceId: tradeRemittanceInvoices.remittanceId, number: tradeInvoices.number })
          .from(tradeRemittanceInvoices)
          .innerJoin(tradeInvoices, eq(tradeInvoices.id, tradeRemittanceInvoices.invoiceId))
          .where(inArray(tradeRemittanceInvoices.remittanceId, waiting.map((r) => r.id)))
          // Invoice numbers in order: the same list whichever order the rows come back in.
          .orderBy(asc(tradeInvoices.number))
      : [];
    const notes = await db
      .select({ id: tradeAccountNotes.id, body: tradeAccountNotes.body, staffName: staff.name, createdAt: tradeAccountNotes.createdAt })
      .from(tradeAccountNotes)
      .leftJoin(staff, eq(staff.id, tradeAccountNotes.staffId))
      .where(eq(tradeAccountNotes.tradeAccountId, accountId))
      .orderBy(desc(tradeAccountNotes.id))
      .limit(100);
    return {
      ...base,
      company_type: a!.companyType,
      company_number: a!.companyNumber,
      vat_number: a!.vatNumber,
      trade: a!.trade,
      address: [a!.line1, a!.line2, a!.town, a!.county, a!.postcode].filter((x) => x !== ""),
      phone: a!.phone,
      discount_percent: a!.discountBasisPoints / 100,
      po_required: a!.poRequired,
      available_credit: pounds(Math.max(a!.creditLimit - a!.balance, 0)),
      unallocated_credit: pounds(Number(unallocated?.pence ?? 0)),
      held_at: a!.heldAt?.toISOString() ?? null,
      decision_note: a!.decisionNote,
      members,
      // The company's sites (sites.ts), live first: staff see what its orders name.
      sites: (await sitesOf(db, accountId, true)).map(siteJsonOf),
      payments: payments.map((p) => ({
        number: p.number,
        amount: pounds(p.amount),
        method: p.method,
        reference: p.reference,
        received_on: p.receivedOn,
        unallocated: pounds(p.unallocated),
        allocations: allocations.filter((x) => x.paymentId === p.id).map((x) => ({ invoice_number: x.number, amount: pounds(x.amount) })),
      })),
      credit_notes: creditNotes,
      remittances_waiting: waiting.map((r) => ({
        reference: r.reference,
        amount: pounds(r.amount),
        provider: r.provider,
        created_at: r.createdAt.toISOString(),
        invoices: links.filter((l) => l.remittanceId === r.id).map((l) => l.number),
      })),
      notes: notes.map((n) => ({ id: n.id, body: n.body, staff_name: n.staffName ?? "A former member of staff", created_at: n.createdAt.toISOString() })),
      audit: await options.audit.forEntity("trade_account", accountId, 50),
    };
  }

  /** An invoice by number with what of it can still be credited: the credit note form's lines. */
  async function invoice(actor: StaffActor, number: string) {
    authorizeDesk(actor);
    const found = await invoiceByNumber(db, number);
    const lines = await creditableLines(db, found);
    const [withSource] = await invoicesWhere(db, eq(tradeInvoices.id, found.id));
    return {
      ...withSource!,
      account_id: found.tradeAccountId,
      creditable: lines.map((l) => ({ source: l.source, description: l.description, quantity: l.quantity, remaining: l.quantity - l.creditedQuantity, net: pounds(l.net), vat: pounds(l.vat) })),
      whole_only: found.orderId === null,
    };
  }

  return { accounts, account, invoice };
}

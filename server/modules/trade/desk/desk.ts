import { and, asc, desc, eq, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { HttpError, ValidationError } from "../../../http-errors.ts";
import { LONDON_TODAY } from "../../../lib/london.ts";
import { recordAudit } from "../../audit/service.ts";
import type { AuditService } from "../../audit/service.ts";
import type { Outbox } from "../../auth/service.ts";
import { users } from "../../auth/schema.ts";
import { renderEmail } from "../../mail/templates.ts";
import { hireRequests } from "../../hire/schema.ts";
import { orders } from "../../orders/schema.ts";
import { type StaffActor, authorize } from "../../staff/actor.ts";
import { can } from "../../staff/permissions.ts";
import { staff } from "../../staff/schema.ts";
import { holdManually, releaseHold } from "../credit/holds.ts";
import { type TradeInvoice, tradeInvoices } from "../invoices/invoice-schema.ts";
import { INVOICE_READERS, type ShopDetails } from "../invoices/invoices.ts";
import { creditNotePdf } from "../invoices/credit-note-pdf.ts";
import { type CreditNoteInput, type IssuedCreditNote, allocateCredit, creditableLines, issueCreditNote, lockAccount, outstandingOf, recordPayment } from "../credit/ledger.ts";
import { TRADE_PAYMENT_METHODS, type TradePaymentMethod, tradeAccountNotes, tradeCreditNoteLines, tradeCreditNotes, tradePaymentAllocations, tradePayments } from "../credit/ledger-schema.ts";
import { tradeRemittanceInvoices, tradeRemittances } from "../credit/remittance-schema.ts";
import { type TradeAccount, type TradeAccountState, tradeAccounts, tradeMembers } from "../schema.ts";
import { checkTerms, type TradeService } from "../service.ts";
import type { AccountSort } from "../desk-labels.ts";
import { type ReceiptOptions, sendReceipt } from "../credit/receipts.ts";
import { memberWithRole } from "../accounts/users.ts";
import { siteJsonOf, sitesOf } from "../accounts/sites.ts";

/**
 * The trade desk (issue 21, ADR 0040): applications, the accounts list, an
 * account's page, payments with allocation, remittances confirmed, credit
 * notes, notes and holds. `trade.manage` for applications, terms, notes and
 * holds; `invoices.manage` for money; either reads. Every write is audited
 * against the account (`trade_account`, its id), so its page shows one history.
 */

export { ACCOUNT_SORTS, type AccountSort } from "../desk-labels.ts";
export const DESK_PAGE_MAX = 100;

const pounds = (pence: number) => pence / 100;
const pence = (p: number) => Math.round(p * 100);
const money = (p: number) => `£${pounds(p).toLocaleString("en-GB", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const NO_DUE = "9999-12-31";

/**
 * A credit note against an invoice (ledger.ts `issueCreditNote`, in the
 * caller's transaction), audited against the account and emailed to its
 * accounts address with its PDF attached (and a link to it). The desk's "credit" and the orders
 * desk's cancellation of an order on account both go through here.
 */
export async function creditInvoice(
  tx: Db,
  options: ReceiptOptions & { shop: ShopDetails },
  actor: StaffActor,
  invoice: Pick<TradeInvoice, "id" | "number">,
  input: Omit<CreditNoteInput, "invoiceId" | "createdBy">,
): Promise<IssuedCreditNote> {
  const issued = await issueCreditNote(tx, { ...input, invoiceId: invoice.id, createdBy: actor.staffId });
  const n = issued.creditNote;
  await recordAudit(tx, actor, {
    action: "trade_account.credit_note",
    entity: "trade_account",
    entityId: issued.account.id,
    after: { credit_note: n.number, invoice: invoice.number, total: n.total, applied: n.applied, reason: n.reason, lines: issued.lines.map((l) => ({ source: l.source, quantity: l.quantity })) },
  });
  const url = `${options.publicUrl}/api/trade/credit-notes/${n.number}/pdf`;
  const mail = renderEmail({
    appName: options.appName,
    publicUrl: options.publicUrl,
    title: `Credit note ${n.number}`,
    paragraphs: [
      `We have issued credit note ${n.number} for ${money(n.total)} against invoice ${invoice.number}: ${n.reason}`,
      n.applied === n.total
        ? `It comes off what is left to pay on ${invoice.number}.`
        : n.applied > 0
          ? `${money(n.applied)} comes off ${invoice.number}; the other ${money(n.total - n.applied)} is credit on your account.`
          : `${invoice.number} was already paid, so it is credit on your account.`,
      issued.account.balance < 0 ? `${issued.account.companyName} has ${money(-issued.account.balance)} in credit.` : `${issued.account.companyName} now owes ${money(issued.account.balance)}.`,
      `The credit note is attached as a PDF.`,
    ],
    action: { label: "Download the credit note (PDF)", url },
  });
  // The PDF as the download route makes it, from this transaction's rows.
  const doc = await creditNoteDocument(tx, options.shop, eq(tradeCreditNotes.id, n.id));
  const attachments = [{ filename: `${n.number}.pdf`, contentType: "application/pdf", content: await creditNotePdf(doc!) }];
  await options.mail.enqueue(tx, { to: issued.account.accountsEmail, subject: `Credit note ${n.number} for ${invoice.number}`, ...mail, attachments });
  return issued;
}

async function creditNotesOf(handle: Db, where: SQL): Promise<CreditNoteJson[]> {
  const notes = await handle
    .select({ note: tradeCreditNotes, invoiceNumber: tradeInvoices.number, companyName: tradeAccounts.companyName })
    .from(tradeCreditNotes)
    .innerJoin(tradeInvoices, eq(tradeInvoices.id, tradeCreditNotes.invoiceId))
    .innerJoin(tradeAccounts, eq(tradeAccounts.id, tradeCreditNotes.tradeAccountId))
    .where(where)
    .orderBy(desc(tradeCreditNotes.id))
    .limit(100);
  const lines = notes.length ? await handle.select().from(tradeCreditNoteLines).where(inArray(tradeCreditNoteLines.creditNoteId, notes.map((n) => n.note.id))).orderBy(asc(tradeCreditNoteLines.id)) : [];
  return notes.map(({ note: n, invoiceNumber, companyName }) => ({
    number: n.number,
    invoice_number: invoiceNumber,
    company_name: companyName,
    reason: n.reason,
    issued_on: n.issuedOn,
    subtotal: pounds(n.subtotal),
    vat: pounds(n.vat),
    delivery: pounds(n.delivery),
    total: pounds(n.total),
    applied: pounds(n.applied),
    on_account: pounds(n.total - n.applied),
    lines: lines.filter((l) => l.creditNoteId === n.id).map((l) => ({ source: l.source, description: l.description, quantity: l.quantity, net: pounds(l.net), vat: pounds(l.vat), discount: pounds(l.discount) })),
  }));
}

/** A credit note and what its PDF prints: the shop, the company, the lines. */
async function creditNoteDocument(handle: Db, shop: ShopDetails, where: SQL) {
  const [found] = await handle.select({ note: tradeCreditNotes, account: tradeAccounts }).from(tradeCreditNotes).innerJoin(tradeAccounts, eq(tradeAccounts.id, tradeCreditNotes.tradeAccountId)).where(where);
  if (!found) return null;
  const [json] = await creditNotesOf(handle, eq(tradeCreditNotes.id, found.note.id));
  const s = shop;
  const a = found.account;
  return {
    ...json!,
    account_id: a.id,
    shop: { name: s.name, email: s.email, address: s.address, vat_number: s.vatNumber },
    company: { name: a.companyName, address: [a.line1, a.line2, a.town, a.county, a.postcode].filter((x) => x !== ""), company_number: a.companyNumber, vat_number: a.vatNumber },
  };
}

/** Staff who may open the trade desk: either permission. */
export function authorizeDesk(actor: StaffActor | null | undefined): StaffActor {
  if (actor && !can(actor.role, "trade.manage")) return authorize(actor, "invoices.manage");
  return authorize(actor, "trade.manage");
}

export interface AccountRowJson {
  id: number;
  company_name: string;
  accounts_email: string;
  state: TradeAccountState;
  /** Pounds owed; negative is credit on account. */
  balance: number;
  credit_limit: number;
  /** Pounds: outstanding on invoices past their due date. */
  overdue: number;
  /** Days since the oldest overdue invoice fell due; 0 when none. */
  overdue_days: number;
  oldest_due_date: string | null;
  terms_days: number;
  on_hold: boolean;
  hold_reason: "" | "overdue" | "manual";
}

export interface DeskInvoiceJson {
  number: string;
  invoice_date: string;
  due_date: string;
  /** The order's number, or the hire request's. */
  source: string;
  po_reference: string;
  total: number;
  paid: number;
  credited: number;
  outstanding: number;
  status: TradeInvoice["status"];
  overdue: boolean;
}

export interface AccountWithInvoicesJson extends AccountRowJson {
  invoices: DeskInvoiceJson[];
}

export interface CreditNoteJson {
  number: string;
  invoice_number: string;
  company_name: string;
  reason: string;
  issued_on: string;
  subtotal: number;
  vat: number;
  delivery: number;
  total: number;
  /** Set against the invoice; the rest is credit on account. */
  applied: number;
  on_account: number;
  /** Pounds; `discount` is what promotions took off the quantity credited (ex VAT), `net` is after it. */
  lines: { source: string; description: string; quantity: number; net: number; vat: number; discount: number }[];
}

export interface AccountListQuery {
  sort?: AccountSort;
  state?: TradeAccountState;
  on_hold?: boolean;
  q?: string;
  cursor?: string;
  limit?: number;
}

export interface PaymentBody {
  amount: number;
  method: TradePaymentMethod;
  reference?: string;
  received_on?: string;
  allocations: { invoice_number: string; amount: number }[];
}

export interface CreditAllocationBody {
  /** Pounds of credit on account per invoice. */
  allocations: { invoice_number: string; amount: number }[];
}

export interface TermsBody {
  credit_limit?: number;
  terms_days?: number;
  discount_percent?: number;
  po_required?: boolean;
}

export interface CreditNoteBody {
  reason: string;
  whole?: boolean;
  lines?: { source: string; quantity: number }[];
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

// Spelt out: inside a one-table select drizzle writes a column unqualified, which the correlated subqueries would read as i.id.
const ACCOUNT_ID = sql.raw(`"trade_accounts"."id"`);

/** Outstanding pence past due, the oldest due date (text, `9999-12-31` when none) and its age in days, per account. */
const overdueOf = sql<number>`coalesce((select sum(i.total_pence - i.paid_pence - i.credited_pence) from trade_invoices i where i.trade_account_id = ${ACCOUNT_ID} and i.status <> 'paid' and i.due_date < ${LONDON_TODAY}), 0)::int`;
const oldestDueOf = sql<string>`coalesce((select to_char(min(i.due_date), 'YYYY-MM-DD') from trade_invoices i where i.trade_account_id = ${ACCOUNT_ID} and i.status <> 'paid' and i.due_date < ${LONDON_TODAY}), ${NO_DUE})`;
const overdueDaysOf = sql<number>`coalesce((select ${LONDON_TODAY} - min(i.due_date) from trade_invoices i where i.trade_account_id = ${ACCOUNT_ID} and i.status <> 'paid' and i.due_date < ${LONDON_TODAY}), 0)::int`;

function invoiceJson(i: TradeInvoice & { source: string | null; overdue: boolean }): DeskInvoiceJson {
  return {
    number: i.number,
    invoice_date: i.invoiceDate,
    due_date: i.dueDate,
    source: i.source ?? "",
    po_reference: i.poReference,
    total: pounds(i.total),
    paid: pounds(i.paidAmount),
    credited: pounds(i.creditedAmount),
    outstanding: pounds(outstandingOf(i)),
    status: i.status,
    overdue: Boolean(i.overdue),
  };
}

export function createTradeDesk(db: Db, options: { mail: Outbox; appName: string; publicUrl: string; shopEmail: string; shop: ShopDetails; trade: TradeService; audit: AuditService }) {
  const receipts = { mail: options.mail, appName: options.appName, publicUrl: options.publicUrl, shop: options.shop };

  const inTx = <T>(work: (tx: Db) => Promise<T>): Promise<T> => db.transaction(async (t) => work(t as unknown as Db));

  async function row(handle: Db, accountId: number): Promise<AccountRowJson> {
    const [r] = await handle
      .select({ account: tradeAccounts, overdue: overdueOf, oldestDue: oldestDueOf, overdueDays: overdueDaysOf })
      .from(tradeAccounts)
      .where(eq(tradeAccounts.id, accountId));
    if (!r) throw new HttpError(404, "No such trade account.");
    return rowJson(r.account, r);
  }

  function rowJson(a: TradeAccount, agg: { overdue: number; oldestDue: string; overdueDays: number }): AccountRowJson {
    return {
      id: a.id,
      company_name: a.companyName,
      accounts_email: a.accountsEmail,
      state: a.state,
      balance: pounds(a.balance),
      credit_limit: pounds(a.creditLimit),
      overdue: pounds(Number(agg.overdue)),
      overdue_days: Number(agg.overdueDays),
      oldest_due_date: agg.oldestDue === NO_DUE ? null : agg.oldestDue,
      terms_days: a.termsDays,
      on_hold: a.onHold,
      hold_reason: a.holdReason as AccountRowJson["hold_reason"],
    };
  }

  /** Invoices with their order's or hire request's number: an account's (open first, oldest due first; then paid, newest first), or some by id. */
  async function invoicesWhere(handle: Db, where: SQL, limit = 200): Promise<DeskInvoiceJson[]> {
    const rows = await handle
      .select({
        invoice: tradeInvoices,
        source: sql<string | null>`coalesce(${orders.number}, ${hireRequests.number})`,
        overdue: sql<boolean>`(${tradeInvoices.status} <> 'paid' and ${tradeInvoices.dueDate} < ${LONDON_TODAY})`,
      })
      .from(tradeInvoices)
      .leftJoin(orders, eq(orders.id, tradeInvoices.orderId))
      .leftJoin(hireRequests, eq(hireRequests.id, tradeInvoices.hireRequestId))
      .where(where)
      .orderBy(sql`(${tradeInvoices.status} = 'paid')`, sql`case when ${tradeInvoices.status} <> 'paid' then ${tradeInvoices.dueDate} end asc`, desc(tradeInvoices.id))
      .limit(limit);
    return rows.map((r) => invoiceJson({ ...r.invoice, source: r.source, overdue: r.overdue }));
  }

  const invoicesOf = (handle: Db, accountId: number) => invoicesWhere(handle, eq(tradeInvoices.tradeAccountId, accountId));

  async function withInvoices(handle: Db, accountId: number): Promise<AccountWithInvoicesJson> {
    return { ...(await row(handle, accountId)), invoices: await invoicesOf(handle, accountId) };
  }

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

  /** Applications waiting for a decision, oldest first, with the applicant. */
  async function applications(actor: StaffActor) {
    authorize(actor, "trade.manage");
    const rows = await db
      .select({ account: tradeAccounts, user: users })
      .from(tradeAccounts)
      .innerJoin(tradeMembers, and(eq(tradeMembers.tradeAccountId, tradeAccounts.id), eq(tradeMembers.role, "owner")))
      .innerJoin(users, eq(users.id, tradeMembers.userId))
      .where(eq(tradeAccounts.state, "pending"))
      .orderBy(asc(tradeAccounts.createdAt), asc(tradeAccounts.id))
      .limit(200);
    return rows.map(({ account: a, user: u }) => ({
      id: a.id,
      company_name: a.companyName,
      company_type: a.companyType,
      company_number: a.companyNumber,
      vat_number: a.vatNumber,
      trade: a.trade,
      address: [a.line1, a.line2, a.town, a.county, a.postcode].filter((x) => x !== "").join(", "),
      phone: a.phone,
      accounts_email: a.accountsEmail,
      applicant: { name: `${u.firstname} ${u.lastname}`, email: u.email },
      expected_monthly_spend: pounds(a.expectedMonthlySpend),
      requested_credit_limit: pounds(a.requestedCreditLimit),
      applied_at: a.createdAt.toISOString(),
      info_requested_at: a.infoRequestedAt?.toISOString() ?? null,
      decision_note: a.decisionNote,
    }));
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

  async function invoiceByNumber(handle: Db, number: string): Promise<TradeInvoice> {
    const [found] = await handle.select().from(tradeInvoices).where(eq(tradeInvoices.number, number.trim().toUpperCase()));
    if (!found) throw new HttpError(404, `No invoice is numbered ${number.trim().toUpperCase()}.`);
    return found;
  }

  async function decide(actor: StaffActor, accountId: number, decision: "approve" | "decline" | "request_info", input: { terms?: TermsBody; note?: string }) {
    authorize(actor, "trade.manage");
    if (decision === "decline" && !input.note?.trim()) throw new ValidationError({ reason: ["Give the reason for declining."] });
    const t = input.terms;
    const terms = t ? { creditLimit: t.credit_limit ?? 0, termsDays: t.terms_days ?? 30, discountPercent: t.discount_percent ?? 0, poRequired: t.po_required ?? false } : undefined;
    await options.trade.decide({ accountId }, decision, terms, actor, input.note ?? "");
    return row(db, accountId);
  }

  /** New terms for an account: only the fields given change. */
  async function updateTerms(actor: StaffActor, accountId: number, body: TermsBody) {
    authorize(actor, "trade.manage");
    return inTx(async (tx) => {
      const [before] = await tx.select().from(tradeAccounts).where(eq(tradeAccounts.id, accountId)).for("update");
      if (!before) throw new HttpError(404, "No such trade account.");
      const terms = {
        creditLimit: body.credit_limit ?? pounds(before.creditLimit),
        termsDays: body.terms_days ?? before.termsDays,
        discountPercent: body.discount_percent ?? before.discountBasisPoints / 100,
      };
      checkTerms(terms);
      const [after] = await tx
        .update(tradeAccounts)
        .set({ creditLimit: pence(terms.creditLimit), termsDays: terms.termsDays, discountBasisPoints: Math.round(terms.discountPercent * 100), poRequired: body.po_required ?? before.poRequired, updatedAt: sql`now()` })
        .where(eq(tradeAccounts.id, accountId))
        .returning();
      const audited = (a: TradeAccount) => ({ credit_limit: a.creditLimit, terms_days: a.termsDays, discount_basis_points: a.discountBasisPoints, po_required: a.poRequired });
      await recordAudit(tx, actor, { action: "trade_account.terms", entity: "trade_account", entityId: accountId, before: audited(before), after: audited(after!) });
      return row(tx, accountId);
    });
  }

  /** Staff put an account on hold, with their reason in the account's notes. */
  async function hold(actor: StaffActor, accountId: number, reason: string) {
    authorize(actor, "trade.manage");
    const why = reason.trim();
    if (!why) throw new ValidationError({ reason: ["Say why the account is on hold."] });
    return inTx(async (tx) => {
      const [before] = await tx.select().from(tradeAccounts).where(eq(tradeAccounts.id, accountId)).for("update");
      if (!before) throw new HttpError(404, "No such trade account.");
      if (before.holdReason === "manual") throw new HttpError(409, `${before.companyName} is already on hold.`);
      await holdManually(tx, accountId);
      await tx.insert(tradeAccountNotes).values({ tradeAccountId: accountId, staffId: actor.staffId, body: `Put on hold: ${why}` });
      await recordAudit(tx, actor, { action: "trade_account.hold", entity: "trade_account", entityId: accountId, before: { on_hold: before.onHold, hold_reason: before.holdReason }, after: { on_hold: true, hold_reason: "manual", reason: why } });
      return row(tx, accountId);
    });
  }

  async function release(actor: StaffActor, accountId: number) {
    authorize(actor, "trade.manage");
    return inTx(async (tx) => {
      const [before] = await tx.select().from(tradeAccounts).where(eq(tradeAccounts.id, accountId)).for("update");
      if (!before) throw new HttpError(404, "No such trade account.");
      if (!before.onHold) throw new HttpError(409, `${before.companyName} is not on hold.`);
      await releaseHold(tx, accountId);
      await recordAudit(tx, actor, { action: "trade_account.release", entity: "trade_account", entityId: accountId, before: { on_hold: true, hold_reason: before.holdReason }, after: { on_hold: false, hold_reason: "" } });
      return row(tx, accountId);
    });
  }

  async function addNote(actor: StaffActor, accountId: number, body: string) {
    authorize(actor, "trade.manage");
    const text = body.trim();
    if (!text) throw new ValidationError({ body: ["Write the note."] });
    if (text.length > 4000) throw new ValidationError({ body: ["Keep the note under 4,000 characters."] });
    return inTx(async (tx) => {
      const [a] = await tx.select({ id: tradeAccounts.id }).from(tradeAccounts).where(eq(tradeAccounts.id, accountId));
      if (!a) throw new HttpError(404, "No such trade account.");
      const [note] = await tx.insert(tradeAccountNotes).values({ tradeAccountId: accountId, staffId: actor.staffId, body: text }).returning();
      await recordAudit(tx, actor, { action: "trade_account.note", entity: "trade_account", entityId: accountId, after: { note: text } });
      return { id: note!.id, body: note!.body, staff_name: actor.name, created_at: note!.createdAt.toISOString() };
    });
  }

  /** Allocations by invoice number as ids and pence; 422 naming any number that is no invoice. */
  async function allocationsByNumber(tx: Db, allocations: { invoice_number: string; amount: number }[]): Promise<{ invoiceId: number; amount: number }[]> {
    const numbers = allocations.map((a) => a.invoice_number.trim().toUpperCase());
    const found = numbers.length ? await tx.select({ id: tradeInvoices.id, number: tradeInvoices.number }).from(tradeInvoices).where(inArray(tradeInvoices.number, numbers)) : [];
    const idOf = new Map(found.map((f) => [f.number, f.id]));
    const unknown = numbers.filter((n) => !idOf.has(n));
    if (unknown.length) throw new ValidationError({ allocations: unknown.map((n) => `No invoice is numbered ${n}.`) });
    return allocations.map((a, i) => ({ invoiceId: idOf.get(numbers[i]!)!, amount: pence(a.amount) }));
  }

  /**
   * Credit on account (payments' unallocated money, oldest first) set against
   * open invoices by number (ledger.ts `allocateCredit`). Audited; no receipt:
   * no money arrived. Answers the account with its invoices.
   */
  async function allocateCreditOnAccount(actor: StaffActor, accountId: number, body: CreditAllocationBody): Promise<AccountWithInvoicesJson> {
    authorize(actor, "invoices.manage");
    // Screens call this directly, without the route's schema: the same refusal.
    for (const a of body.allocations) {
      if (!Number.isFinite(a.amount) || Math.abs(pence(a.amount) - a.amount * 100) > 1e-6) throw new ValidationError({ allocations: ["Enter each amount in pounds with at most 2 decimals."] });
    }
    return inTx(async (tx) => {
      // No such account answers 404 before its invoices' numbers are read (the ledger locks it first anyway).
      await lockAccount(tx, accountId);
      const done = await allocateCredit(tx, { accountId, allocations: await allocationsByNumber(tx, body.allocations) });
      await recordAudit(tx, actor, {
        action: "trade_account.credit_allocation",
        entity: "trade_account",
        entityId: accountId,
        after: {
          allocations: body.allocations,
          from: done.drawn.map((d) => ({ payment: d.paymentNumber, invoice: done.invoices.find((i) => i.id === d.invoiceId)?.number ?? d.invoiceId, amount: d.amount })),
          remittances_confirmed: done.confirmed,
        },
      });
      return withInvoices(tx, accountId);
    });
  }

  /**
   * Money received, allocated to invoices by number (ledger.ts does the rest);
   * the accounts email gets a receipt. Answers the account with its invoices.
   */
  async function pay(actor: StaffActor, accountId: number, body: PaymentBody): Promise<AccountWithInvoicesJson> {
    authorize(actor, "invoices.manage");
    // Screens call this directly, without the route's schema: the same refusals.
    if (!(TRADE_PAYMENT_METHODS as readonly string[]).includes(body.method)) throw new ValidationError({ method: ["Choose bacs, cheque, card or cash."] });
    if (body.received_on !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(body.received_on)) throw new ValidationError({ received_on: ["Give the date as YYYY-MM-DD."] });
    if (!Number.isFinite(body.amount) || Math.abs(pence(body.amount) - body.amount * 100) > 1e-6) throw new ValidationError({ amount: ["Enter the amount in pounds with at most 2 decimals."] });
    const result = await inTx(async (tx) => {
      const done = await recordPayment(tx, {
        accountId,
        amount: pence(body.amount),
        method: body.method,
        reference: body.reference ?? "",
        receivedOn: body.received_on,
        allocations: await allocationsByNumber(tx, body.allocations),
        recordedBy: actor.staffId,
      });
      await recordAudit(tx, actor, {
        action: "trade_account.payment",
        entity: "trade_account",
        entityId: accountId,
        after: { payment: done.payment.number, amount: done.payment.amount, method: done.payment.method, reference: done.payment.reference, allocations: body.allocations, remittances_confirmed: done.confirmed },
      });
      await sendReceipt(tx, receipts, done.account, {
        amount: done.payment.amount,
        invoices: done.invoices,
        references: done.confirmed,
        how: ` by ${body.method === "bacs" ? "bank transfer" : body.method}`,
        settled: done.invoices.every((i) => i.status === "paid"),
      });
      return withInvoices(tx, accountId);
    });
    options.mail.kick?.();
    return result;
  }

  /**
   * A customer's remittance whose money has arrived: one payment of what is
   * still outstanding on its invoices, allocated to them, which confirms it.
   */
  async function confirmRemittance(actor: StaffActor, reference: string, body: { method?: TradePaymentMethod; received_on?: string }) {
    authorize(actor, "invoices.manage");
    const result = await inTx(async (tx) => {
      const wanted = reference.trim().toUpperCase();
      const [remittance] = await tx.select().from(tradeRemittances).where(eq(tradeRemittances.reference, wanted));
      if (!remittance) throw new HttpError(404, `No remittance is numbered ${wanted}.`);
      if (remittance.status === "confirmed") throw new HttpError(409, `${wanted} is already confirmed.`);
      const linked = await tx.select({ id: tradeRemittanceInvoices.invoiceId }).from(tradeRemittanceInvoices).where(eq(tradeRemittanceInvoices.remittanceId, remittance.id));
      // The account, then its invoices: the ledger's lock order.
      await tx.select({ id: tradeAccounts.id }).from(tradeAccounts).where(eq(tradeAccounts.id, remittance.tradeAccountId)).for("update");
      const open = linked.length
        ? (await tx.select().from(tradeInvoices).where(inArray(tradeInvoices.id, linked.map((l) => l.id))).orderBy(asc(tradeInvoices.id)).for("update")).filter((i) => outstandingOf(i) > 0)
        : [];
      // Then the remittance itself, and again: two confirmations at once record one payment, the second is told.
      const [now] = await tx.select({ status: tradeRemittances.status }).from(tradeRemittances).where(eq(tradeRemittances.id, remittance.id)).for("update");
      if (now?.status !== "pending") throw new HttpError(409, `${wanted} is already confirmed.`);
      const amount = open.reduce((s, i) => s + outstandingOf(i), 0);
      let confirmed: string[] = [];
      if (amount > 0) {
        const done = await recordPayment(tx, {
          accountId: remittance.tradeAccountId,
          amount,
          method: body.method ?? (remittance.provider === "card" ? "card" : "bacs"),
          reference: remittance.reference,
          receivedOn: body.received_on,
          allocations: open.map((i) => ({ invoiceId: i.id, amount: outstandingOf(i) })),
          remittanceId: remittance.id,
          recordedBy: actor.staffId,
        });
        confirmed = done.confirmed;
        await sendReceipt(tx, receipts, done.account, { amount, invoices: done.invoices, references: done.confirmed, how: "", settled: true });
      }
      if (!confirmed.includes(remittance.reference)) {
        // Its invoices were all settled some other way meanwhile: nothing more to record.
        await tx.update(tradeRemittances).set({ status: "confirmed", confirmedAt: sql`now()` }).where(eq(tradeRemittances.id, remittance.id));
        await tx.update(tradeInvoices).set({ status: "paid", paidAt: sql`coalesce(${tradeInvoices.paidAt}, now())` }).where(and(inArray(tradeInvoices.id, linked.map((l) => l.id)), sql`${tradeInvoices.total} - ${tradeInvoices.paidAmount} - ${tradeInvoices.creditedAmount} = 0`));
      }
      await recordAudit(tx, actor, { action: "trade_account.remittance_confirmed", entity: "trade_account", entityId: remittance.tradeAccountId, after: { remittance: remittance.reference, amount } });
      return withInvoices(tx, remittance.tradeAccountId);
    });
    options.mail.kick?.();
    return result;
  }

  /** A credit note against an invoice, emailed to the accounts address with a link to its PDF. */
  async function credit(actor: StaffActor, invoiceNumber: string, body: CreditNoteBody): Promise<CreditNoteJson> {
    authorize(actor, "invoices.manage");
    if (!body.whole && !(body.lines && body.lines.length)) throw new ValidationError({ lines: ["Choose at least one line to credit, or credit the whole invoice."] });
    const result = await inTx(async (tx) => {
      const found = await invoiceByNumber(tx, invoiceNumber);
      const { creditNote: n } = await creditInvoice(tx, receipts, actor, found, { reason: body.reason, whole: body.whole, lines: body.lines });
      return (await creditNotesOf(tx, eq(tradeCreditNotes.id, n.id)))[0]!;
    });
    options.mail.kick?.();
    return result;
  }

  async function creditNoteForStaff(actor: StaffActor, number: string) {
    authorizeDesk(actor);
    const doc = await creditNoteDocument(db, options.shop, eq(tradeCreditNotes.number, number.trim().toUpperCase()));
    if (!doc) throw new HttpError(404, "Not Found");
    return doc;
  }

  /** For a member of the company who may read its invoices (owner, admin, accounts); 404 for anyone else. */
  async function creditNoteForMember(userId: number, number: string) {
    const { account: mine } = await memberWithRole(db, userId, INVOICE_READERS);
    const doc = await creditNoteDocument(db, options.shop, and(eq(tradeCreditNotes.number, number.trim().toUpperCase()), eq(tradeCreditNotes.tradeAccountId, mine.id))!);
    if (!doc) throw new HttpError(404, "Not Found");
    return doc;
  }

  /** The company's credit notes, newest first (the latest 100), for its owners, admins and accounts users; 404 for anyone else. */
  async function creditNotesOfMember(userId: number): Promise<CreditNoteJson[]> {
    const { account: mine } = await memberWithRole(db, userId, INVOICE_READERS);
    return creditNotesOf(db, eq(tradeCreditNotes.tradeAccountId, mine.id));
  }

  return {
    accounts,
    applications,
    account,
    invoice,
    approve: (actor: StaffActor, id: number, terms: TermsBody) => decide(actor, id, "approve", { terms }),
    decline: (actor: StaffActor, id: number, reason: string) => decide(actor, id, "decline", { note: reason }),
    requestInfo: (actor: StaffActor, id: number, message: string) => decide(actor, id, "request_info", { note: message }),
    updateTerms,
    hold,
    release,
    addNote,
    pay,
    allocateCredit: allocateCreditOnAccount,
    confirmRemittance,
    credit,
    creditNoteForStaff,
    creditNoteForMember,
    creditNotesOfMember,
  };
}

export type TradeDesk = ReturnType<typeof createTradeDesk>;
export type CreditNoteDocument = Awaited<ReturnType<TradeDesk["creditNoteForStaff"]>>;

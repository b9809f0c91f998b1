import { Readable, pipeline } from "node:stream";
import { escapeLike } from "../../db/like.ts";
import { type SQL, and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { csvWriter } from "../../lib/csv.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { dayText, londonDayAfter, londonDayStart } from "../../lib/london.ts";
import { londonDate } from "../hire/calendar.ts";
import { putOrderStockBack } from "../stock/ledger.ts";
import { recordAudit } from "../audit/service.ts";
import { users } from "../auth/schema.ts";
import { branches } from "../branches/schema.ts";
import type { Outbox } from "../auth/service.ts";
import { pounds } from "../catalog/products.ts";
import { renderEmail } from "../mail/templates.ts";
import { normalisePostcode } from "../postcode/service.ts";
import { type StaffActor, authorize } from "../staff/actor.ts";
import { can } from "../staff/permissions.ts";
import { creditInvoice } from "../trade/invoices/credit-notes.ts";
import type { ShopDetails } from "../trade/invoices/invoices.ts";
import { tradeInvoices } from "../trade/invoices/invoice-schema.ts";
import { creditableLines, lockAccount } from "../trade/credit/ledger.ts";
import { tradeAccounts } from "../trade/schema.ts";
import { DEFAULT_HOLD_DAYS, codeMatches, collectionQrPng, keptUntil, newCollectionCode } from "./collection.ts";
import { PAYMENT_LABELS, type PaymentMethod, trackingUrl } from "./fulfilment.ts";
import { orderCustomerLabel } from "./names.ts";
import { FULFILMENT_SQL, type LoadedOrder, addressJson, ofMyBranches, lineJson, linePricesJson, loadOrder, statusLabel } from "./read.ts";
import { ORDER_STATUSES, type OrderStatus, orderAddresses, orderLines, orderStatusHistory, orders } from "./schema.ts";
import { type Fulfilment, type Transition, type TransitionOrder, allowedTransitions, checkTransition } from "./transitions.ts";

export const ADMIN_ORDERS_PAGE = 50;
export const ADMIN_ORDERS_PAGE_MAX = 200;
/** The export reads this many orders a query, so a file of any size streams in bounded memory. */
export const EXPORT_BATCH = 500;
export const NOTE_MAX = 2000;
/** Orders one bulk action moves at most: a page of the list. */
export const BULK_MAX = 100;
export const CARRIER_MAX = 60;
export const TRACKING_MAX = 60;

export interface AdminOrderFilters {
  status?: OrderStatus;
  payment_method?: PaymentMethod;
  fulfilment?: Fulfilment;
  /** London calendar days, `YYYY-MM-DD`, inclusive. */
  from?: string;
  to?: string;
  trade?: "yes" | "no";
  /** Collected from or sent from this branch (its queue). */
  branch_id?: number;
  /** Order number (exact or its start; digits alone are the number's digits), email, customer's name or postcode. */
  q?: string;
  /** `next_cursor` of the page before. */
  cursor?: string;
  /** Newest first (the default) or oldest first: the order they were placed in, which the id follows. */
  sort?: "newest" | "oldest";
  limit?: number;
}

export interface TransitionRequest {
  to: OrderStatus;
  carrier?: string | null;
  tracking_number?: string | null;
  note?: string | null;
  /** Collected: the code the customer shows, typed or scanned (orders/collection.ts). */
  collection_code?: string | null;
  /** The status the member saw: if the order has moved since, the move is refused (409). */
  expected_status?: OrderStatus | null;
  /**
   * Marking paid (issue 34): what arrived, in pounds (the order's total when
   * not given), the day it arrived (today when not given) and the bank's
   * reference. An amount other than the total is refused unless confirmed.
   */
  paid_amount?: number | null;
  paid_on?: string | null;
  payment_reference?: string | null;
  amount_confirmed?: boolean | null;
}

/** What a marked-paid order records: pence, the London day and the reference. */
interface Receipt {
  pence: number;
  day: string;
  reference: string;
}

/** The receipt a mark-paid records, or why not (422): a day that is real and not ahead, an amount that is the total or confirmed. */
function receiptOf(input: TransitionRequest, total: number): Receipt {
  const errors: Record<string, string[]> = {};
  const today = londonDate();
  const day = input.paid_on?.trim() || today;
  if (!isCalendarDay(day)) errors.paid_on = ["Enter the day the payment arrived as YYYY-MM-DD."];
  else if (day > today) errors.paid_on = ["The payment cannot have arrived after today."];
  const pence = input.paid_amount == null ? total : Math.round(input.paid_amount * 100);
  if (!Number.isFinite(pence) || pence <= 0) errors.paid_amount = ["Enter the amount received, such as 237.58."];
  else if (pence !== total && !input.amount_confirmed) {
    errors.paid_amount = [`£${money(pence)} is ${pence < total ? "less" : "more"} than the order's total of £${money(total)}. Check the amount, or confirm it to record it anyway.`];
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return { pence, day, reference: input.payment_reference?.trim() ?? "" };
}

/** The timeline's words for a payment recorded by hand. */
function receiptNote(receipt: Receipt, total: number): string {
  const differs = receipt.pence === total ? "" : ` That is £${money(Math.abs(total - receipt.pence))} ${receipt.pence < total ? "less" : "more"} than the total.`;
  return `Payment of £${money(receipt.pence)} received on ${dayText(receipt.day)}${receipt.reference ? `, reference ${receipt.reference}` : ""}.${differs}`;
}

export interface AdminOrderOptions {
  mail: Outbox;
  appName: string;
  publicUrl: string;
  shopEmail: string;
  /** The branch's address for collections (`SHOP_ADDRESS`), when the shop has one. */
  branchAddress?: readonly string[];
  /** The seller on a credit note's PDF, attached to its email. */
  shop: ShopDetails;
  /** The order's own page behind its signed link (orders/links.ts), absolute: a guest returns or cancels items there. */
  orderLink?: (number: string) => string;
}

/** An order on account's invoice at its cancellation, and the credit note that credited it (null: it already was). */
interface InvoiceCredit {
  invoice: string;
  creditNote: string | null;
}

/** What this member may see of an order (ADR 0029): the warehouse sees what picking needs, no prices and no customer. */
function sight(actor: StaffActor) {
  return { prices: can(actor.role, "orders.prices"), customers: can(actor.role, "customers.view") };
}

// The cursor is the last id of the page, wrapped so clients treat it as opaque.
const encodeCursor = (id: number) => Buffer.from(`o${id}`).toString("base64url");
function decodeCursor(cursor: string): number {
  const match = /^o(\d{1,10})$/.exec(Buffer.from(cursor, "base64url").toString("latin1"));
  const id = match ? Number(match[1]) : NaN;
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) throw new ValidationError({ cursor: ["This page link is out of date; start again from the first page."] });
  return id;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar day: the database would fail on 2026-02-30 with a 500. */
export function isCalendarDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

const OUTCODE = /^[A-Z]{1,2}\d[A-Z\d]?$/;

/**
 * The search box: the order number (exact or its start), the email (its
 * start), a name on the order or its account, or a postcode (normalised, or an
 * outward code alone). Without `customers.view` only the number, the delivery
 * name and the delivery postcode are searched, so a search cannot tell a
 * member what they may not see.
 */
function searchWhere(raw: string, customers: boolean): SQL | undefined {
  const q = raw.trim().replace(/\s+/g, " ");
  if (!q) return undefined;
  const upper = q.toUpperCase();
  const kinds = customers ? sql`` : sql` and ${orderAddresses.kind} = 'delivery'`;
  const address = (condition: SQL) => sql`exists (select 1 from ${orderAddresses} where ${orderAddresses.orderId} = ${orders.id}${kinds} and ${condition})`;
  const or: SQL[] = [];
  if (/^\d{1,9}$/.test(q)) or.push(eq(orders.number, `TC-${q.padStart(6, "0")}`));
  else or.push(sql`${orders.number} like ${`${escapeLike(upper)}%`}`);
  const contains = `%${escapeLike(q)}%`;
  or.push(address(sql`${orderAddresses.name} ilike ${contains}`));
  or.push(sql`${orders.customerName} ilike ${contains}`);
  if (customers) {
    or.push(sql`lower(${orders.email}) like ${`${escapeLike(q.toLowerCase())}%`}`);
    or.push(sql`exists (select 1 from ${users} where ${users.id} = ${orders.userId} and (${users.firstname} || ' ' || ${users.lastname}) ilike ${contains})`);
  }
  const postcode = normalisePostcode(q);
  if (postcode) or.push(address(sql`${orderAddresses.postcode} = ${postcode}`));
  else if (OUTCODE.test(upper)) or.push(address(sql`${orderAddresses.postcode} like ${`${upper} %`}`));
  return sql`(${sql.join(or, sql` or `)})`;
}

function filterWhere(filters: AdminOrderFilters, actor: StaffActor, withStatus: boolean): SQL[] {
  const where: SQL[] = [];
  const errors: Record<string, string[]> = {};
  if (filters.from && !isCalendarDay(filters.from)) errors.from = ["Enter the first day as YYYY-MM-DD."];
  if (filters.to && !isCalendarDay(filters.to)) errors.to = ["Enter the last day as YYYY-MM-DD."];
  if (Object.keys(errors).length) throw new ValidationError(errors);
  if (withStatus && filters.status) where.push(eq(orders.status, filters.status));
  if (filters.payment_method) where.push(eq(orders.paymentMethod, filters.payment_method));
  if (filters.fulfilment) where.push(sql`${FULFILMENT_SQL} = ${filters.fulfilment}`);
  if (filters.from) where.push(sql`${orders.createdAt} >= ${londonDayStart(filters.from)}`);
  if (filters.to) where.push(sql`${orders.createdAt} < ${londonDayAfter(filters.to)}`);
  if (filters.trade === "yes") where.push(isNotNull(orders.tradeAccountId));
  if (filters.trade === "no") where.push(isNull(orders.tradeAccountId));
  if (filters.branch_id !== undefined) where.push(eq(orders.branchId, filters.branch_id));
  const mine = ofMyBranches(actor);
  if (mine) where.push(mine);
  const search = filters.q ? searchWhere(filters.q, sight(actor).customers) : undefined;
  if (search) where.push(search);
  return where;
}

const deliveryAddress = (column: SQL) =>
  sql<string | null>`(select ${column} from ${orderAddresses} where ${orderAddresses.orderId} = ${orders.id} and ${orderAddresses.kind} = 'delivery' order by ${orderAddresses.id} limit 1)`;

/** A London wall-clock time for people and spreadsheets: `2026-11-23 14:05`. */
const londonClock = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
export function londonTime(at: Date): string {
  const part = Object.fromEntries(londonClock.formatToParts(at).map((p) => [p.type, p.value]));
  return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}`;
}

const money = (pence: number) => (pence / 100).toFixed(2);

export function createAdminOrderService(db: Db, options: AdminOrderOptions) {
  /** One page of orders, newest first, with the fields the list, the tabs and the export need. */
  async function page(actor: StaffActor, filters: AdminOrderFilters, limit: number) {
    const where = filterWhere(filters, actor, true);
    const oldestFirst = filters.sort === "oldest";
    if (filters.cursor) where.push((oldestFirst ? gt : lt)(orders.id, decodeCursor(filters.cursor)));
    const rows = await db
      .select({
        id: orders.id,
        number: orders.number,
        status: orders.status,
        createdAt: orders.createdAt,
        email: orders.email,
        deliveryMethod: orders.deliveryMethod,
        deliveryMethodName: orders.deliveryName,
        paymentMethod: orders.paymentMethod,
        subtotal: orders.subtotal,
        vat: orders.vat,
        delivery: orders.delivery,
        total: orders.total,
        carrier: orders.carrier,
        trackingNumber: orders.trackingNumber,
        tradeAccountId: orders.tradeAccountId,
        companyName: tradeAccounts.companyName,
        fulfilment: FULFILMENT_SQL,
        customerName: orders.customerName,
        addressName: deliveryAddress(sql`${orderAddresses.name}`),
        postcode: deliveryAddress(sql`${orderAddresses.postcode}`),
        accountName: sql<string | null>`nullif(trim(${users.firstname} || ' ' || ${users.lastname}), '')`,
      })
      .from(orders)
      .leftJoin(users, eq(users.id, orders.userId))
      .leftJoin(tradeAccounts, eq(tradeAccounts.id, orders.tradeAccountId))
      .where(where.length ? and(...where) : undefined)
      .orderBy(oldestFirst ? asc(orders.id) : desc(orders.id))
      .limit(limit + 1);
    const data = rows.slice(0, limit);
    // One query for the page's line counts, not one per order.
    const counts = data.length
      ? await db
          .select({ orderId: orderLines.orderId, lines: count(), items: sql<number>`coalesce(sum(${orderLines.quantity}), 0)::int` })
          .from(orderLines)
          .where(inArray(orderLines.orderId, data.map((r) => r.id)))
          .groupBy(orderLines.orderId)
      : [];
    const byOrder = new Map(counts.map((c) => [c.orderId, c]));
    const see = sight(actor);
    return {
      rows: data.map((r) => ({
        ...r,
        // The name given at checkout or the counter, else the delivery address's; a member who may see
        // customers falls back to the account's name and then the email, so a row always names someone (issue 34).
        name: r.customerName || r.addressName || (see.customers ? r.accountName || r.email : null) || "",
        lines: byOrder.get(r.id)?.lines ?? 0,
        items: byOrder.get(r.id)?.items ?? 0,
      })),
      next_cursor: rows.length > limit ? encodeCursor(data[data.length - 1]!.id) : null,
    };
  }

  type Row = Awaited<ReturnType<typeof page>>["rows"][number];

  function summaryJson(actor: StaffActor, r: Row) {
    const see = sight(actor);
    return {
      number: r.number,
      status: r.status as OrderStatus,
      status_label: statusLabel(r.status),
      created_at: r.createdAt.toISOString(),
      name: r.name,
      postcode: r.postcode,
      fulfilment: r.fulfilment,
      delivery_method: r.deliveryMethod,
      delivery_method_name: r.deliveryMethodName,
      lines: r.lines,
      items: r.items,
      trade: r.tradeAccountId !== null,
      ...(see.customers ? { email: r.email } : {}),
      ...(see.prices ? { payment_method: r.paymentMethod, total: pounds(r.total) } : {}),
    };
  }

  /** Who the order is for, for a member who may see customers. */
  async function customerOf(loaded: LoadedOrder) {
    const { order, addresses } = loaded;
    const [row] = await db
      .select({ firstname: users.firstname, lastname: users.lastname, accountEmail: users.email, companyName: tradeAccounts.companyName })
      .from(orders)
      .leftJoin(users, eq(users.id, orders.userId))
      .leftJoin(tradeAccounts, eq(tradeAccounts.id, orders.tradeAccountId))
      .where(eq(orders.id, order.id));
    const accountName = row?.firstname ? `${row.firstname} ${row.lastname}`.trim() : "";
    const billing = addresses.find((a) => a.kind === "billing");
    const delivery = addresses.find((a) => a.kind === "delivery");
    return {
      user_id: order.userId,
      guest: order.userId === null,
      name: orderCustomerLabel({ customerName: order.customerName || accountName || delivery?.name || billing?.name || "", email: order.email }),
      email: order.email,
      account_email: row?.accountEmail ?? null,
      phone: order.phone,
      trade_account: order.tradeAccountId !== null ? { id: order.tradeAccountId, company_name: row?.companyName ?? "" } : null,
    };
  }

  async function detailOf(actor: StaffActor, loaded: LoadedOrder) {
    const { order, lines, addresses, history, fulfilment } = loaded;
    const see = sight(actor);
    const delivery = addresses.find((a) => a.kind === "delivery");
    const billing = addresses.find((a) => a.kind === "billing");
    const machine: TransitionOrder = { number: order.number, status: order.status as OrderStatus, payment_method: order.paymentMethod, fulfilment, has_collection_code: order.collectionCode !== null };
    return {
      number: order.number,
      status: order.status as OrderStatus,
      status_label: statusLabel(order.status),
      created_at: order.createdAt.toISOString(),
      updated_at: order.updatedAt.toISOString(),
      fulfilment,
      delivery_method: order.deliveryMethod,
      delivery_method_name: order.deliveryName,
      /** Who it is for: the recipient or the collector named at checkout or the counter (picking and the counter need it). */
      customer_name: order.customerName,
      /** Where it is collected from or sent from; null for a delivery split between branches. */
      branch: loaded.branch,
      /** The trade customer's site it is for: picking and the driver need it. */
      site: loaded.site,
      collect_ready_at: order.collectReadyAt?.toISOString() ?? null,
      /** The customer's notes at checkout (delivery instructions): picking needs them too. */
      notes: order.notes,
      carrier: order.carrier,
      tracking_number: order.trackingNumber,
      tracking_url: trackingUrl(order.carrier, order.trackingNumber),
      lines: lines.map((l) => ({ ...lineJson(l), ...(see.prices ? linePricesJson(l) : {}) })),
      addresses: {
        delivery: delivery ? addressJson(delivery) : null,
        ...(see.customers ? { billing: billing ? addressJson(billing) : null } : {}),
      },
      ...(see.prices
        ? {
            totals: { subtotal: pounds(order.subtotal), discount: pounds(order.discount), vat: pounds(order.vat), delivery: pounds(order.delivery), total: pounds(order.total) },
            payment: {
              method: order.paymentMethod,
              label: PAYMENT_LABELS[order.paymentMethod] ?? order.paymentMethod,
              po_reference: order.poReference,
              // Recorded by staff: at the counter, or a bank transfer marked paid.
              reference: order.paymentReference,
              paid_amount: order.paidAmount === null ? null : pounds(order.paidAmount),
              paid_on: order.paidOn,
            },
          }
        : {}),
      ...(see.customers ? { customer: await customerOf(loaded) } : {}),
      history: history.map(({ entry, staffName }) => ({
        kind: entry.kind as "status" | "note",
        status: entry.status,
        label: statusLabel(entry.status),
        note: entry.note,
        at: entry.createdAt.toISOString(),
        staff: entry.staffId !== null ? { id: entry.staffId, name: staffName ?? "" } : null,
      })),
      actions: allowedTransitions(machine, actor.role),
    };
  }

  const byNumber = (number: string) => eq(orders.number, number.trim().toUpperCase());

  async function detail(actor: StaffActor, number: string) {
    authorize(actor, "orders.view");
    const loaded = await loadOrder(db, and(byNumber(number), ofMyBranches(actor))!, "staff");
    if (!loaded) throw new HttpError(404, `No order ${number.trim().toUpperCase()}.`);
    return detailOf(actor, loaded);
  }

  /** The customer's email about a move, or null for a move they do not hear about. */
  function customerEmail(order: typeof orders.$inferSelect, fulfilment: Fulfilment, from: OrderStatus, move: Transition, input: { carrier: string; tracking: string; note: string; credit: InvoiceCredit | null }) {
    if (!move.emailsCustomer) return null;
    const n = order.number;
    const contact = `Any questions? Email us at ${options.shopEmail}, quoting ${n}.`;
    let title: string;
    let paragraphs: string[];
    let action: { label: string; url: string } | undefined;
    switch (move.to) {
      case "paid":
        title = `Order ${n}: payment received`;
        paragraphs = [
          `Thank you: we have received your payment for order ${n}.`,
          fulfilment === "collection" ? "We are getting it ready and will email you when it is ready to collect." : "We are getting it ready and will email you when it is on its way.",
        ];
        break;
      case "dispatched": {
        const url = trackingUrl(input.carrier, input.tracking);
        title = `Order ${n} is on its way`;
        paragraphs = [
          `Your order ${n} has been dispatched with ${input.carrier}.`,
          `Tracking number: ${input.tracking}`,
          ...(options.orderLink ? [`Your order's page, where you can return items once they arrive: ${options.orderLink(n)}`] : []),
        ];
        if (url) action = { label: "Track your delivery", url };
        break;
      }
      case "cancelled":
        title = `Order ${n} has been cancelled`;
        paragraphs = [
          `We have cancelled your order ${n}.`,
          `Reason: ${input.note}`,
          ...(order.paymentMethod === "bank_transfer" && from !== "awaiting_payment" ? ["We will refund your payment to the account it came from."] : []),
          ...(input.credit
            ? [
                input.credit.creditNote
                  ? `Its invoice ${input.credit.invoice} has been credited in full with credit note ${input.credit.creditNote}, sent to your accounts email.`
                  : `Its invoice ${input.credit.invoice} had already been credited in full.`,
              ]
            : []),
        ];
        break;
      default:
        return null;
    }
    const rendered = renderEmail({ appName: options.appName, publicUrl: options.publicUrl, title, paragraphs: [...paragraphs, contact], action });
    return { to: order.email, subject: title, ...rendered };
  }

  /**
   * "Ready to collect" (issue 30): where (the order's branch, its address and
   * a link to its hours), the collection code with its QR code attached, how
   * to pay, and how long the branch keeps it before it goes back to stock.
   */
  async function readyEmail(tx: Db, order: typeof orders.$inferSelect & { collectionCode: string | null }) {
    const n = order.number;
    const code = order.collectionCode!;
    const [branch] = order.branchId === null ? [] : await tx.select().from(branches).where(eq(branches.id, order.branchId));
    const where = branch ? [branch.name, branch.line1, branch.line2, branch.town, branch.postcode].filter(Boolean).join(", ") : options.branchAddress?.join(", ");
    const until = keptUntil(new Date(), branch?.holdDays ?? DEFAULT_HOLD_DAYS);
    const title = `Order ${n} is ready to collect`;
    const paragraphs = [
      `Your order ${n} is ready to collect${branch ? ` from ${branch.name}` : " from the branch"}.`,
      `Your collection code: ${code}`,
      "Show this code, or the QR code attached to this email, at the counter. Whoever collects needs it.",
      ...(where ? [`Where: ${where}`] : []),
      order.paymentMethod === "pay_on_collection" ? `Please pay £${money(order.total)} when you collect.` : "It is paid for: nothing more to pay.",
      `We keep it for you until ${until}. After that it goes back into stock and your payment is refunded.`,
      `Any questions? Email us at ${options.shopEmail}, quoting ${n}.`,
    ];
    const action = branch ? { label: "Opening hours and directions", url: `${options.publicUrl}/branches/${branch.slug}` } : undefined;
    const rendered = renderEmail({ appName: options.appName, publicUrl: options.publicUrl, title, paragraphs, action });
    const qr = await collectionQrPng(n, code);
    return { to: order.email, subject: title, ...rendered, attachments: [{ filename: `collection-code-${n}.png`, contentType: "image/png", content: qr }] };
  }

  function cleanTransition(input: TransitionRequest) {
    const carrier = input.carrier?.trim() ?? "";
    const tracking = input.tracking_number?.trim() ?? "";
    const note = input.note?.trim() ?? "";
    const errors: Record<string, string[]> = {};
    if (!(ORDER_STATUSES as readonly string[]).includes(input.to)) errors.to = [`Choose one of: ${ORDER_STATUSES.join(", ")}.`];
    if (carrier.length > CARRIER_MAX) errors.carrier = [`The carrier may be at most ${CARRIER_MAX} characters.`];
    if (tracking.length > TRACKING_MAX) errors.tracking_number = [`The tracking number may be at most ${TRACKING_MAX} characters.`];
    if (note.length > NOTE_MAX) errors.note = [`The note may be at most ${NOTE_MAX} characters.`];
    if (Object.keys(errors).length) throw new ValidationError(errors);
    return { carrier, tracking, note };
  }

  /**
   * Cancelling an order on account: its invoice, with its trade account
   * locked. Called before the order row is locked, for the lock order:
   * the account, the order row, its products (stock back), then the invoice.
   * Checkout holds a key-share lock on the account from its order's insert
   * (the foreign key) while it takes the products, and the ledger's
   * `lockAccount` (FOR UPDATE) waits for that; taking the account after the
   * stock here would let a checkout of the same products wait for this
   * while this waits for it. Account first, as payments and credit notes
   * also lock it (then its invoices), so no two wait in a cycle (tested
   * on PostgreSQL in cancel-on-account.test.ts).
   */
  async function lockInvoicedAccount(tx: Db, number: string): Promise<{ invoiceId: number } | null> {
    const [found] = await tx
      .select({ invoiceId: tradeInvoices.id, accountId: tradeInvoices.tradeAccountId })
      .from(orders)
      .innerJoin(tradeInvoices, eq(tradeInvoices.orderId, orders.id))
      .where(and(byNumber(number), eq(orders.paymentMethod, "pay_on_account")));
    if (!found) return null;
    await lockAccount(tx, found.accountId);
    return { invoiceId: found.invoiceId };
  }

  /**
   * An order on account being cancelled (its account and row locked, its
   * stock already back): the whole of its invoice not yet credited gets a
   * credit note with the cancellation's reason, audited and emailed to the
   * accounts address with its PDF (trade/invoices/credit-notes.ts `creditInvoice`).
   */
  async function creditCancelledOrder(tx: Db, actor: StaffActor, order: typeof orders.$inferSelect, invoiceId: number, reason: string): Promise<InvoiceCredit> {
    const [invoice] = await tx.select().from(tradeInvoices).where(eq(tradeInvoices.id, invoiceId)).for("update");
    // Credited in full already (by the trade desk): the cancellation alone.
    const left = (await creditableLines(tx, invoice!)).some((l) => l.quantity > l.creditedQuantity);
    if (!left) return { invoice: invoice!.number, creditNote: null };
    const { creditNote } = await creditInvoice(tx, options, actor, invoice!, { reason: `Order ${order.number} cancelled: ${reason}`, whole: true });
    return { invoice: invoice!.number, creditNote: creditNote.number };
  }

  /**
   * Moves the order on, in one transaction: the row locked, the move checked
   * against the table, the status (and carrier and tracking number on
   * dispatch) written, the timeline and the audit log written, the stock put
   * back on a cancel (and an order on account's invoice credited), and the
   * customer's email queued. Two members acting at
   * once: the second waits for the lock, then sees the new status and is
   * refused with 409.
   */
  async function moveOne(actor: StaffActor, number: string, input: TransitionRequest): Promise<{ number: string; credit: InvoiceCredit | null }> {
    authorize(actor, "orders.view");
    const { carrier, tracking, note } = cleanTransition(input);
    const done = await db.transaction(async (t) => {
      const tx = t as unknown as Db;
      const invoiced = input.to === "cancelled" && can(actor.role, "orders.cancel") ? await lockInvoicedAccount(tx, number) : null;
      const [row] = await tx.select({ order: orders, fulfilment: FULFILMENT_SQL }).from(orders).where(and(byNumber(number), ofMyBranches(actor))).for("update", { of: orders });
      if (!row) throw new HttpError(404, `No order ${number.trim().toUpperCase()}.`);
      const { order, fulfilment } = row;
      const from = order.status as OrderStatus;
      if (input.expected_status && input.expected_status !== from) {
        throw new HttpError(409, `Order ${order.number} changed while you were looking: it is now ${statusLabel(from).toLowerCase()}.`);
      }
      const move = checkTransition({ number: order.number, status: from, payment_method: order.paymentMethod, fulfilment, has_collection_code: order.collectionCode !== null }, input.to, actor.role, {
        carrier,
        tracking_number: tracking,
        note,
        collection_code: input.collection_code,
      });
      // Handed over only for the code on the customer's ready email.
      if (from === "ready_for_collection" && move.to === "completed" && order.collectionCode && !codeMatches(order.number, order.collectionCode, input.collection_code ?? "")) {
        throw new ValidationError({ collection_code: [`That is not the collection code for ${order.number}. Check the code on the customer's email, or their order number.`] });
      }
      const dispatch = move.to === "dispatched";
      const ready = move.to === "ready_for_collection";
      // A bank transfer marked paid records what arrived, when and with what reference.
      const receipt = from === "awaiting_payment" && move.to === "paid" ? receiptOf(input, order.total) : null;
      const collectionCode = ready ? newCollectionCode() : order.collectionCode;
      await tx
        .update(orders)
        .set({
          status: move.to,
          updatedAt: sql`now()`,
          ...(dispatch ? { carrier, trackingNumber: tracking } : {}),
          ...(ready ? { collectionCode, collectionRemindedAt: null } : {}),
          ...(receipt ? { paidAmount: receipt.pence, paidOn: receipt.day, paymentReference: receipt.reference } : {}),
        })
        .where(eq(orders.id, order.id));
      // The customer's timeline shows the move; a dispatch says how it went.
      const historyNote = dispatch ? [`Sent with ${carrier}, tracking number ${tracking}.`, note].filter(Boolean).join(" ") : receipt ? [receiptNote(receipt, order.total), note].filter(Boolean).join(" ") : note;
      await tx.insert(orderStatusHistory).values({ orderId: order.id, status: move.to, note: historyNote, kind: "status", staffId: actor.staffId });
      let credit: InvoiceCredit | null = null;
      if (move.to === "cancelled") {
        await putOrderStockBack(tx, order.id, actor.staffId);
        if (invoiced) credit = await creditCancelledOrder(tx, actor, order, invoiced.invoiceId, note);
      }
      await recordAudit(tx, actor, {
        action: "order.transition",
        entity: "order",
        entityId: order.number,
        before: { status: from, carrier: order.carrier, tracking_number: order.trackingNumber },
        after: {
          status: move.to,
          carrier: dispatch ? carrier : order.carrier,
          tracking_number: dispatch ? tracking : order.trackingNumber,
          ...(note ? { note } : {}),
          ...(receipt ? { paid_amount: pounds(receipt.pence), paid_on: receipt.day, payment_reference: receipt.reference } : {}),
          ...(credit?.creditNote ? { invoice: credit.invoice, credit_note: credit.creditNote } : {}),
        },
      });
      const email = ready ? await readyEmail(tx, { ...order, collectionCode }) : customerEmail(order, fulfilment, from, move, { carrier, tracking, note, credit });
      if (email) await options.mail.enqueue(tx, email);
      return { number: order.number, credit };
    });
    options.mail.kick?.();
    return done;
  }


  return {
    /** The orders desk's list: newest first, a keyset page at a time. */
    async list(actor: StaffActor, filters: AdminOrderFilters = {}) {
      authorize(actor, "orders.view");
      const limit = Math.min(Math.max(Math.trunc(filters.limit ?? ADMIN_ORDERS_PAGE), 1), ADMIN_ORDERS_PAGE_MAX);
      const { rows, next_cursor } = await page(actor, filters, limit);
      return { data: rows.map((r) => summaryJson(actor, r)), next_cursor };
    },

    /** Orders per status for the same filters, status aside: the counts on the tabs. */
    async statusCounts(actor: StaffActor, filters: AdminOrderFilters = {}): Promise<Record<OrderStatus, number>> {
      authorize(actor, "orders.view");
      const where = filterWhere(filters, actor, false);
      const rows = await db
        .select({ status: orders.status, n: count() })
        .from(orders)
        .where(where.length ? and(...where) : undefined)
        .groupBy(orders.status);
      const counts = Object.fromEntries(ORDER_STATUSES.map((s) => [s, 0])) as Record<OrderStatus, number>;
      for (const r of rows) if (r.status in counts) counts[r.status as OrderStatus] = r.n;
      return counts;
    },

    /**
     * The filtered list as CSV (UTF-8 with a BOM, so spreadsheets read £ and
     * names right; formulas escaped), read in keyset batches and streamed, so
     * any number of orders fits in bounded memory. Checks the permission and
     * the filters before the first byte.
     */
    exportCsv(actor: StaffActor, filters: AdminOrderFilters = {}): Readable {
      authorize(actor, "orders.export");
      const { cursor: _cursor, limit: _limit, ...rest } = filters;
      filterWhere(rest, actor, true);
      const see = sight(actor);
      const columns = [
        { key: "number", header: "Order" },
        { key: "placed", header: "Placed (London)" },
        { key: "status", header: "Status" },
        { key: "name", header: "Name" },
        ...(see.customers ? [{ key: "email", header: "Email" }] : []),
        { key: "postcode", header: "Postcode" },
        { key: "fulfilment", header: "Fulfilment" },
        { key: "delivery_method", header: "Delivery method" },
        ...(see.prices ? [{ key: "payment", header: "Payment" }] : []),
        { key: "lines", header: "Lines" },
        { key: "items", header: "Items" },
        ...(see.prices
          ? [
              { key: "subtotal", header: "Goods ex VAT" },
              { key: "vat", header: "VAT" },
              { key: "delivery", header: "Delivery" },
              { key: "total", header: "Total" },
            ]
          : []),
        { key: "trade_account", header: "Trade account" },
        { key: "carrier", header: "Carrier" },
        { key: "tracking_number", header: "Tracking number" },
      ];
      async function* records() {
        let cursor: string | undefined;
        do {
          const batch = await page(actor, { ...rest, cursor }, EXPORT_BATCH);
          for (const r of batch.rows) {
            yield {
              number: r.number,
              placed: londonTime(r.createdAt),
              status: statusLabel(r.status),
              name: r.name,
              email: r.email,
              postcode: r.postcode ?? "",
              fulfilment: r.fulfilment === "collection" ? "Collection" : "Delivery",
              delivery_method: r.deliveryMethodName,
              payment: PAYMENT_LABELS[r.paymentMethod] ?? r.paymentMethod,
              lines: r.lines,
              items: r.items,
              subtotal: money(r.subtotal),
              vat: money(r.vat),
              delivery: money(r.delivery),
              total: money(r.total),
              trade_account: r.companyName ?? "",
              carrier: r.carrier ?? "",
              tracking_number: r.trackingNumber ?? "",
            };
          }
          cursor = batch.next_cursor ?? undefined;
        } while (cursor);
      }
      const csv = csvWriter(columns);
      // A failed query ends the download with an error rather than a short file that looks whole.
      pipeline(Readable.from(records()), csv, () => {});
      return csv;
    },

    detail,

    /** The order as it is now; `credit_note` when cancelling it credited its invoice. */
    async transition(actor: StaffActor, number: string, input: TransitionRequest) {
      const done = await moveOne(actor, number, input);
      return { ...(await detail(actor, done.number)), ...(done.credit?.creditNote ? { credit_note: done.credit.creditNote } : {}) };
    },

    /**
     * The same move for several orders chosen on the list, each in its own
     * transaction: one refused order (another status, another member's change)
     * leaves the others moved, and the answer says which and why.
     */
    async bulkTransition(actor: StaffActor, numbers: readonly string[], to: OrderStatus) {
      authorize(actor, "orders.view");
      const chosen = [...new Set(numbers.map((n) => n.trim().toUpperCase()).filter(Boolean))];
      if (chosen.length === 0) throw new ValidationError({ numbers: ["Choose at least one order."] });
      if (chosen.length > BULK_MAX) throw new ValidationError({ numbers: [`Choose at most ${BULK_MAX} orders at a time.`] });
      const moved: string[] = [];
      const refused: { number: string; message: string }[] = [];
      for (const number of chosen) {
        try {
          moved.push((await moveOne(actor, number, { to })).number);
        } catch (error) {
          if (!(error instanceof HttpError || error instanceof ValidationError)) throw error;
          refused.push({ number, message: error instanceof ValidationError ? Object.values(error.errors).flat().join(" ") : error.message });
        }
      }
      return { to, moved, refused };
    },

    /** A note on the order's timeline, for staff only; the status stays. */
    async addNote(actor: StaffActor, number: string, note: string) {
      authorize(actor, "orders.note");
      const text = note.trim();
      if (!text) throw new ValidationError({ note: ["Write the note."] });
      if (text.length > NOTE_MAX) throw new ValidationError({ note: [`The note may be at most ${NOTE_MAX} characters.`] });
      const done = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const [order] = await tx.select({ id: orders.id, number: orders.number, status: orders.status }).from(orders).where(and(byNumber(number), ofMyBranches(actor)));
        if (!order) throw new HttpError(404, `No order ${number.trim().toUpperCase()}.`);
        await tx.insert(orderStatusHistory).values({ orderId: order.id, status: order.status, note: text, kind: "note", staffId: actor.staffId });
        await recordAudit(tx, actor, { action: "order.note", entity: "order", entityId: order.number, after: { note: text } });
        return order.number;
      });
      return detail(actor, done);
    },
  };
}

export type AdminOrderService = ReturnType<typeof createAdminOrderService>;
export type AdminOrderSummary = Awaited<ReturnType<AdminOrderService["list"]>>["data"][number];
export type AdminOrderDetail = Awaited<ReturnType<AdminOrderService["detail"]>>;

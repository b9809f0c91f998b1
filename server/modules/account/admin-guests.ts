import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { escapeLike } from "../../db/like.ts";
import { HttpError } from "../../http-errors.ts";
import { users } from "../auth/schema.ts";
import { pounds } from "../catalog/products/products.ts";
import { orderAddresses, orders } from "../orders/schema.ts";
import { type OrderStatus, orderStatusLabel } from "../orders/statuses.ts";
import { normalisePostcode } from "../postcode/service.ts";

/** What a customer has spent: the totals of their orders paid for, not the ones awaiting payment or cancelled. */
export const SPENT_STATUSES = sql`${orders.status} not in ('awaiting_payment', 'cancelled')`;

/** Guest buyers shown on a search's first page, at most. */
export const GUEST_MATCHES = 20;

/** Digits of a phone number as typed ("07700 900 123" → "07700900123"), when there are enough to search by. */
export function phoneDigits(q: string): string | null {
  const digits = q.replace(/[^0-9]/g, "");
  return digits.length >= 5 && /^[0-9+() -]+$/.test(q) ? digits : null;
}

export interface GuestRow {
  email: string;
  name: string;
  phone: string;
  postcode: string | null;
  company: string | null;
  orders: number;
  spent: number;
  last_order_at: string;
}

/** A guest as the database gives it: the sum as numeric text, the last order's time as a Date or text. */
interface RawGuest extends Omit<GuestRow, "spent" | "last_order_at"> {
  spent: string | number;
  last_order_at: string | Date;
}

const iso = (v: string | Date) => new Date(v).toISOString();

/**
 * Guest buyers (issue 34): people who ordered without an account, one per
 * email (any case), found by any part of the email, the name on their
 * orders, their phone, a postcode or a company on an order's address. An
 * email that now has an account is that customer's, not a guest's. The
 * trigram and postcode indexes of migration 0049 keep this off a full scan.
 */
export async function findGuests(db: Db, raw: string): Promise<GuestRow[]> {
  const q = raw.trim().replace(/\s+/g, " ");
  if (!q) return [];
  const contains = `%${escapeLike(q)}%`;
  const or = [sql`lower(${orders.email}) like ${contains.toLowerCase()}`, sql`${orders.customerName} ilike ${contains}`];
  const digits = phoneDigits(q);
  if (digits) or.push(sql`regexp_replace(${orders.phone}, '[^0-9]', '', 'g') like ${`%${digits}%`}`);
  const full = normalisePostcode(q);
  const outcode = /^[A-Z]{1,2}\d[A-Z\d]?$/.test(q.toUpperCase()) ? q.toUpperCase() : null;
  const onAddress = [sql`${orderAddresses.company} ilike ${contains}`];
  if (full) onAddress.push(sql`${orderAddresses.postcode} = ${full}`);
  else if (outcode) onAddress.push(sql`${orderAddresses.postcode} like ${`${outcode} %`}`);
  or.push(sql`${orders.id} in (select ${orderAddresses.orderId} from ${orderAddresses} where ${sql.join(onAddress, sql` or `)})`);
  // The emails first (the newest twenty that match), then everything each of them ordered as a guest.
  const result = (await db.execute(sql`
    with matched as (
      select lower(${orders.email}) as email, max(${orders.id}) as last_id
      from ${orders}
      where ${orders.userId} is null and (${sql.join(or, sql` or `)})
        and not exists (select 1 from ${users} where ${users.email} = ${orders.email})
      group by lower(${orders.email})
      order by max(${orders.id}) desc
      limit ${GUEST_MATCHES})
    select m.email,
      (array_agg(${orders.customerName} order by ${orders.id} desc))[1] as name,
      (array_agg(${orders.phone} order by ${orders.id} desc))[1] as phone,
      (select a.postcode from ${orderAddresses} a where a.order_id = max(${orders.id}) order by a.id limit 1) as postcode,
      (select nullif(a.company, '') from ${orderAddresses} a where a.order_id = max(${orders.id}) order by a.id limit 1) as company,
      count(*)::int as orders,
      coalesce(sum(${orders.total}) filter (where ${SPENT_STATUSES}), 0) as spent,
      max(${orders.createdAt}) as last_order_at
    from matched m
    join ${orders} on lower(${orders.email}) = m.email and ${orders.userId} is null
    group by m.email, m.last_id
    order by m.last_id desc`)) as unknown as { rows: RawGuest[] };
  return result.rows.map((r) => ({
    email: r.email,
    name: r.name || r.email,
    phone: r.phone,
    postcode: r.postcode,
    company: r.company,
    orders: r.orders,
    spent: Number(r.spent),
    last_order_at: iso(r.last_order_at),
  }));
}

export const GUEST_RECENT_ORDERS = 50;

/** A guest buyer's page: their orders by email (any case), newest first, and what they spent; 404 when the email placed no guest order. */
export async function guestDetail(db: Db, email: string, prices: boolean) {
  const key = email.trim().toLowerCase();
  const result = (await db.execute(sql`
    select ${orders.number} as number, ${orders.status} as status, ${orders.total} as total, ${orders.createdAt} as created_at,
      ${orders.customerName} as name, ${orders.phone} as phone
    from ${orders} where lower(${orders.email}) = ${key} and ${orders.userId} is null
    order by ${orders.id} desc`)) as unknown as { rows: { number: string; status: OrderStatus; total: number; created_at: string | Date; name: string; phone: string }[] };
  const rows = result.rows;
  if (rows.length === 0) throw new HttpError(404, `No guest orders from ${key}.`);
  const account = (await db.execute(sql`select ${users.id} as id from ${users} where ${users.email} = ${key} limit 1`)) as unknown as { rows: { id: number }[] };
  const spent = rows.filter((r) => r.status !== "awaiting_payment" && r.status !== "cancelled").reduce((s, r) => s + Number(r.total), 0);
  return {
    kind: "guest" as const,
    email: key,
    name: rows.find((r) => r.name)?.name ?? key,
    phone: rows.find((r) => r.phone)?.phone ?? "",
    order_count: rows.length,
    last_order_at: iso(rows[0]!.created_at),
    ...(prices ? { total_spent: pounds(spent) } : {}),
    /** An account registered with this email since: its page. */
    account_id: account.rows[0]?.id ?? null,
    orders: rows.slice(0, GUEST_RECENT_ORDERS).map((o) => ({
      number: o.number,
      status: o.status,
      status_label: orderStatusLabel(o.status),
      created_at: iso(o.created_at),
      ...(prices ? { total: pounds(Number(o.total)) } : {}),
    })),
  };
}

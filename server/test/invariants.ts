import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client.ts";

/**
 * What must hold in the shop's database whatever requests came before, each
 * as a query for the rows that break it. The schema's checks and exclusion
 * constraint enforce some of these already; asking again costs little and
 * catches a constraint dropped by a later migration.
 */
const INVARIANTS: Record<string, SQL> = {
  "stock is never negative": sql`select id, sku, stock from product_variants where stock < 0 union all select id, sku, stock from products where stock < 0`,
  "a variant's stock is the sum of its stock movements": sql`
    select v.id, v.sku, v.stock, coalesce(sum(m.change), 0) as movements
    from product_variants v left join stock_movements m on m.variant_id = v.id
    group by v.id
    having v.stock <> coalesce(sum(m.change), 0)`,
  "a variant's stock at each branch is the sum of its movements there, and the last movement's figure": sql`
    select coalesce(s.variant_id, m.variant_id) as variant_id, coalesce(s.branch_id, m.branch_id) as branch_id, s.stock, m.total, m.last_after
    from branch_stock s
    full join (
      select variant_id, branch_id, sum(change) as total, (array_agg(stock_after order by id desc))[1] as last_after
      from stock_movements group by variant_id, branch_id
    ) m on m.variant_id = s.variant_id and m.branch_id = s.branch_id
    where coalesce(s.stock, 0) <> coalesce(m.total, 0) or (m.last_after is not null and coalesce(s.stock, 0) <> m.last_after)`,
  "a variant's stock is its stock at the branches added up": sql`
    select v.id, v.sku, v.stock, coalesce(sum(s.stock), 0) as at_branches
    from product_variants v left join branch_stock s on s.variant_id = v.id
    group by v.id
    having v.stock <> coalesce(sum(s.stock), 0)`,
  "each movement is of its variant's product": sql`
    select m.id, m.product_id, v.product_id as variant_product_id from stock_movements m join product_variants v on v.id = m.variant_id where v.product_id <> m.product_id`,
  "every product has a variant, and its SKU, price and stock are its active variants' first SKU, cheapest price and total stock": sql`
    select p.id, p.sku, p.price_pence, p.stock, s.sku as variant_sku, s.price_pence as variant_price, s.stock as variant_stock
    from products p
    left join lateral (
      select (array_agg(v.sku order by v.position, v.id))[1] as sku, min(v.price_pence) as price_pence, sum(v.stock)::int as stock, count(*) as n
      from product_variants v where v.product_id = p.id and v.status = 'active'
    ) s on true
    where not exists (select 1 from product_variants v where v.product_id = p.id)
       or (s.n > 0 and (p.sku, p.price_pence, p.stock) is distinct from (s.sku, s.price_pence, s.stock))`,
  "a basket line's variant is of its product": sql`
    select b.id, b.product_id, v.product_id as variant_product_id from basket_items b join product_variants v on v.id = b.variant_id where v.product_id <> b.product_id`,
  "no unit is held or booked twice on a day": sql`
    select a.unit_id, a.id as first, b.id as second
    from hire_allocations a
    join hire_allocations b on b.unit_id = a.unit_id and b.id > a.id and b.period && a.period
    where a.released_at is null and b.released_at is null`,
  "a hire item's holds and bookings never outnumber its units on any day": sql`
    with taken as (
      select u.hire_item_id, d::date as day, count(*) as units_taken
      from hire_allocations a
      join hire_units u on u.id = a.unit_id
      cross join lateral generate_series(lower(a.period), upper(a.period) - 1, interval '1 day') d
      where a.released_at is null
      group by 1, 2
    )
    select t.* from taken t
    where t.units_taken > (select count(*) from hire_units u where u.hire_item_id = t.hire_item_id and u.active)`,
  // Hire charges are invoiced after the hire, whatever the limit; orders on account never pass it.
  "an approved trade account's balance is within its credit limit": sql`
    select id, balance_pence, credit_limit_pence from trade_accounts a
    where state = 'approved' and balance_pence > credit_limit_pence
      and not exists (select 1 from trade_invoices i where i.trade_account_id = a.id and i.hire_request_id is not null)`,
  "a trade account's balance is its invoices less its credit notes less its payments": sql`
    select a.id, a.balance_pence,
      (select coalesce(sum(total_pence), 0) from trade_invoices i where i.trade_account_id = a.id)
      - (select coalesce(sum(total_pence), 0) from trade_credit_notes c where c.trade_account_id = a.id)
      - (select coalesce(sum(amount_pence), 0) from trade_payments p where p.trade_account_id = a.id) as ledger
    from trade_accounts a
    where a.balance_pence <>
      (select coalesce(sum(total_pence), 0) from trade_invoices i where i.trade_account_id = a.id)
      - (select coalesce(sum(total_pence), 0) from trade_credit_notes c where c.trade_account_id = a.id)
      - (select coalesce(sum(amount_pence), 0) from trade_payments p where p.trade_account_id = a.id)`,
  "an invoice's paid and credited amounts are its allocations and applied credit notes, and it is paid exactly when nothing is left": sql`
    select i.id, i.number, i.status, i.total_pence, i.paid_pence, i.credited_pence
    from trade_invoices i
    where i.paid_pence <> (select coalesce(sum(amount_pence), 0) from trade_payment_allocations x where x.invoice_id = i.id)
      or i.credited_pence <> (select coalesce(sum(applied_pence), 0) from trade_credit_notes c where c.invoice_id = i.id)
      or (i.status = 'paid') <> (i.paid_pence + i.credited_pence = i.total_pence)`,
  "a payment's allocations and unallocated remainder add up to it": sql`
    select p.id, p.amount_pence, p.unallocated_pence, coalesce(sum(x.amount_pence), 0) as allocated
    from trade_payments p left join trade_payment_allocations x on x.payment_id = p.id
    group by p.id
    having p.amount_pence <> p.unallocated_pence + coalesce(sum(x.amount_pence), 0)`,
  "each order line is its quantity times its unit price": sql`
    select id, order_id, quantity, unit_price, line_total from order_lines where quantity < 1 or line_total <> quantity * unit_price or line_vat < 0`,
  "each order's totals are its lines' sums": sql`
    select o.id, o.subtotal, o.vat, o.delivery, o.total, sum(l.line_total) as lines_total, sum(l.line_vat) as lines_vat
    from orders o
    left join order_lines l on l.order_id = o.id
    group by o.id
    having count(l.id) = 0
      or o.subtotal <> sum(l.line_total)
      or o.vat <> sum(l.line_vat)
      or o.total <> o.subtotal + o.vat + o.delivery
      or o.delivery < 0`,
  "each invoice carries its order's totals": sql`
    select i.id, i.total_pence, o.total
    from trade_invoices i
    join orders o on o.id = i.order_id
    where i.subtotal_pence <> o.subtotal or i.vat_pence <> o.vat or i.delivery_pence <> o.delivery or i.total_pence <> o.total`,
  "each hire request's totals are its lines' sums": sql`
    select r.id, r.hire_cost, r.vat, r.deposit
    from hire_requests r
    left join hire_request_lines l on l.request_id = r.id
    group by r.id
    having count(l.id) = 0 or r.hire_cost <> sum(l.hire_cost) or r.vat <> sum(l.vat) or r.deposit <> sum(l.deposit)`,
  "basket quantities are whole and positive": sql`select id, quantity from basket_items where quantity < 1`,
};

/** One line per broken invariant, naming the rows that break it; empty when all hold. */
export async function databaseInvariantViolations(db: Db): Promise<string[]> {
  const found: string[] = [];
  for (const [name, query] of Object.entries(INVARIANTS)) {
    const { rows } = (await db.execute(query)) as unknown as { rows: Record<string, unknown>[] };
    if (rows.length) found.push(`${name}: ${JSON.stringify(rows.slice(0, 5))}${rows.length > 5 ? ` and ${rows.length - 5} more` : ""}`);
  }
  return found;
}

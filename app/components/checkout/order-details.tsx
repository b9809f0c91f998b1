import { Link } from "react-router";
import { type OrderView, PAYMENT_LABELS, formatOrderDate } from "../../lib/basket-checkout.ts";
import { formatPounds } from "../../lib/money.ts";
import { AddressLines } from "../address-lines.tsx";
import { TOTAL_ROW, TotalsList } from "../totals-list.tsx";

/** An order as the customer sees it: lines, totals with VAT, addresses, delivery, payment and its status history. */
export function OrderDetails({ order }: { order: OrderView }) {
  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_22rem]">
      <section aria-labelledby="order-lines-heading" className="grid content-start gap-4">
        <h2 id="order-lines-heading" className="text-lg font-semibold">
          Items
        </h2>
        <ul className="divide-y divide-stone-200 rounded-lg border border-stone-200 bg-white shadow-sm">
          {order.lines.map((line) => (
            <li key={`${line.product_id}-${line.sku}`} className="flex flex-wrap justify-between gap-2 p-4">
              <div>
                <Link to={`/product/${line.slug}`} className="font-semibold hover:underline">
                  {line.name}
                </Link>
                <p className="text-sm text-stone-600">
                  {line.quantity} × {formatPounds(line.unit_price)} inc VAT ({formatPounds(line.unit_price_ex_vat)} ex VAT) · Code {line.sku}
                </p>
              </div>
              <p className="font-semibold">{formatPounds(line.line_total)}</p>
            </li>
          ))}
        </ul>
        <div className="grid gap-4 sm:grid-cols-2">
          {order.addresses.map((a) => (
            <div key={a.kind} className="rounded-lg border border-stone-200 bg-white p-4 shadow-sm">
              <h3 className="font-semibold">{a.kind === "billing" ? "Billing address" : "Delivery address"}</h3>
              <AddressLines className="mt-1 not-italic text-stone-700" lines={[a.name, a.company, a.line_1, a.line_2, a.line_3, a.town, a.county, a.postcode]} />
            </div>
          ))}
        </div>
        {order.history.length ? (
          <section aria-labelledby="order-history-heading">
            <h2 id="order-history-heading" className="text-lg font-semibold">
              Status
            </h2>
            <ol className="mt-2 grid gap-2 border-l-2 border-brand-700 pl-4">
              {order.history.map((h, i) => (
                <li key={i}>
                  <span className="font-semibold">{h.label}</span> <span className="text-sm text-stone-600">{formatOrderDate(h.at)}</span>
                  {h.note ? <span className="block text-sm text-stone-700">{h.note}</span> : null}
                </li>
              ))}
            </ol>
          </section>
        ) : null}
      </section>
      <aside aria-labelledby="order-totals-heading" className="h-fit rounded-lg border border-stone-200 bg-white p-5 shadow-sm">
        <h2 id="order-totals-heading" className="text-lg font-semibold">
          Order {order.number}
        </h2>
        <p className="text-sm text-stone-600">
          Placed {formatOrderDate(order.created_at)} · <span className="font-semibold">{order.status_label}</span>
        </p>
        <TotalsList className="mt-3 grid gap-1.5" testId="order-totals" rows={[["Subtotal (ex VAT)", formatPounds(order.subtotal)], ["VAT", formatPounds(order.vat)], [`Delivery: ${order.delivery_name || order.delivery_method}`, formatPounds(order.delivery)], ["Total", formatPounds(order.total), TOTAL_ROW]]} />
        <dl className="mt-4 grid gap-1 text-sm">
          {order.customer_name && !order.addresses.some((a) => a.kind === "delivery") ? (
            <>
              <dt className="font-semibold">Collected by</dt>
              <dd className="mb-2" data-testid="order-collector">
                {order.customer_name}
              </dd>
            </>
          ) : null}
          <dt className="font-semibold">Payment</dt>
          <dd>{PAYMENT_LABELS[order.payment_method] ?? order.payment_method}</dd>
          {order.refunded > 0 ? (
            <>
              <dt className="mt-2 font-semibold">Refunded to your card</dt>
              <dd data-testid="order-refunded">{formatPounds(order.refunded)}</dd>
            </>
          ) : null}
          {order.site ? (
            <>
              <dt className="mt-2 font-semibold">Site</dt>
              <dd data-testid="order-site">{order.site.name}</dd>
            </>
          ) : null}
          {order.po_reference ? (
            <>
              <dt className="mt-2 font-semibold">Purchase-order reference</dt>
              <dd>{order.po_reference}</dd>
            </>
          ) : null}
          {order.notes ? (
            <>
              <dt className="mt-2 font-semibold">Notes</dt>
              <dd className="whitespace-pre-line">{order.notes}</dd>
            </>
          ) : null}
        </dl>
      </aside>
    </div>
  );
}

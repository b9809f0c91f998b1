import { useState } from "react";
import { Form, Link, data, useNavigation } from "react-router";
import { AuditHistory } from "../../../components/admin/audit-entries.tsx";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { OrderRefunds } from "../../../components/admin/order-refunds.tsx";
import { ActionResultBanner } from "../../../components/admin/result-banner.tsx";
import { StatusBadge } from "../../../components/admin/status-badge.tsx";
import { Timeline } from "../../../components/admin/timeline.tsx";
import { OrderReturns } from "../../../components/admin/order-returns.tsx";
import { notFoundOr, serviceError } from "../../../lib/admin/access.ts";
import { formatDate, formatDateTime } from "../../../lib/admin/format.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { formatPounds } from "../../../lib/money.ts";
import { CARRIERS } from "../../../../server/modules/orders/fulfilment.ts";
import { ORDER_STATUSES, type OrderStatus } from "../../../../server/modules/orders/statuses.ts";
import { can } from "../../../../server/modules/staff/permissions.ts";
import type { Route } from "./+types/order";
import { FieldError } from "../../../components/admin/field-error.tsx";
import { Panel } from "../../../components/admin/panel.tsx";
import { MoneyCell } from "../../../components/admin/cells.tsx";
import { DataTable } from "../../../components/admin/table-or-cards.tsx";
import { AddressLines } from "../../../components/address-lines.tsx";
import { staffScreen, staffPost } from "../../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches, params }) => pageMeta(matches, `Order ${params.number.toUpperCase()}`);

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "orders.view");
  const order = await app.services.adminOrders.detail(actor, params.number).catch(notFoundOr);
  return {
    order,
    audit: await app.services.audit.forEntity("order", order.number),
    canNote: can(actor.role, "orders.note"),
    canPrint: can(actor.role, "orders.fulfil"),
    // The card payment and its refunds, for roles that see the money.
    cardPayment: can(actor.role, "orders.prices") ? await app.services.payments.paymentFor(actor, order.number) : null,
    canRefund: can(actor.role, "refunds.create"),
    // The order's returns (issue 31), for roles that work the returns desk.
    returns: can(actor.role, "returns.view") ? await app.services.returnsDesk.forOrder(actor, order.number) : null,
    carriers: CARRIERS.map((c) => c.name),
    // Just taken at the counter (orders/new): the banner says so.
    placed: new URL(request.url).searchParams.get("placed") === "1",
  };
}

type ActionResult = { ok: true; message: string } | { ok: false; intent: string; to?: string; message: string; errors: Record<string, string[]> };

/** A move of the state machine, or a note; the service checks the role's permission for each. */
export async function action({ context, request, params }: Route.ActionArgs) {
  const { app, actor, form } = await staffPost(context, request, "orders.view");
  const text = (name: string, max: number) => String(form.get(name) ?? "").slice(0, max);
  const intent = text("intent", 20);
  try {
    if (intent === "note") {
      await app.services.adminOrders.addNote(actor, params.number, text("note", 2000));
      return data<ActionResult>({ ok: true, message: "Note added to the timeline." });
    }
    if (intent === "refund") {
      const mode = text("mode", 10);
      const lines = [...form.keys()]
        .filter((k) => /^line_\d{1,10}$/.test(k))
        .map((k) => ({ line_id: Number(k.slice(5)), quantity: Math.max(0, Math.trunc(Number(text(k, 10)) || 0)) }));
      const amount = text("amount", 20).replace(/[£,\s]/g, "");
      if (mode === "amount" && !/^\d+(\.\d{1,2})?$/.test(amount)) {
        return data<ActionResult>({ ok: false, intent, message: "Check the details below.", errors: { amount: ["Enter the amount in pounds and pence, such as 12.50."] } }, { status: 422 });
      }
      const refund = await app.services.payments.refundOrder(actor, params.number, {
        reason: text("reason", 500),
        ...(mode === "lines" ? { lines } : mode === "amount" ? { amount: Number(amount) } : {}),
      });
      return data<ActionResult>({ ok: true, message: `Refunded ${formatPounds(refund.amount / 100)} to the card. The customer has been emailed.` });
    }
    const to = text("to", 30) as OrderStatus;
    if (!ORDER_STATUSES.includes(to)) return data<ActionResult>({ ok: false, intent, message: "Choose what to do with the order.", errors: {} }, { status: 422 });
    const expected = text("expected_status", 30) as OrderStatus;
    const done = await app.services.adminOrders.transition(actor, params.number, {
      to,
      carrier: text("carrier", 60) || undefined,
      tracking_number: text("tracking_number", 60) || undefined,
      note: text("note", 2000) || undefined,
      collection_code: text("collection_code", 40) || undefined,
      expected_status: ORDER_STATUSES.includes(expected) ? expected : undefined,
      ...(form.has("paid_amount") ? paidFields(form) : {}),
    });
    const emailed = ["paid", "dispatched", "ready_for_collection", "cancelled"].includes(done.status) ? " The customer has been emailed." : "";
    const credited = done.credit_note ? ` Its invoice is credited in full with credit note ${done.credit_note}, emailed to the company's accounts address.` : "";
    return data<ActionResult>({ ok: true, message: `Order ${done.number} is now ${done.status_label.toLowerCase()}.${emailed}${credited}` });
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    if (known.status === 404) notFoundOr(error);
    return data<ActionResult>({ ok: false, intent, to: text("to", 30), message: known.errors ? "Check the details below." : known.message, errors: known.errors ?? {} }, { status: known.status });
  }
}

const input = "min-h-10 w-full rounded-md border border-stone-400 bg-white px-3 py-2";

/** Mark as paid's fields from the form: pounds typed as "£1,237.58" or "1237.58"; a blank amount is refused by the service's own words. */
function paidFields(form: FormData) {
  const typed = String(form.get("paid_amount") ?? "").replace(/[£,\s]/g, "").slice(0, 20);
  return {
    paid_amount: /^\d+(\.\d{1,2})?$/.test(typed) ? Number(typed) : 0,
    paid_on: String(form.get("paid_on") ?? "").slice(0, 10) || undefined,
    payment_reference: String(form.get("payment_reference") ?? "").slice(0, 60) || undefined,
    amount_confirmed: form.get("amount_confirmed") === "yes",
  };
}

/**
 * What marking a bank transfer paid asks (issue 34): the amount that arrived
 * (the total to start with), the day and the bank's reference; an amount
 * other than the total says so at once and needs ticking to record.
 */
function MarkPaidFields({ total, errors }: { total: number; errors: (field: string) => string[] | undefined }) {
  const [amount, setAmount] = useState(total.toFixed(2));
  const typed = Number(amount.replace(/[£,\s]/g, ""));
  const differs = amount.trim() !== "" && Number.isFinite(typed) && Math.round(typed * 100) !== Math.round(total * 100);
  return (
    <div className="grid gap-2 sm:grid-cols-3">
      <label className="grid gap-1 text-sm font-semibold">
        Amount received (£)
        <FieldError messages={errors("paid_amount")} />
        <input name="paid_amount" inputMode="decimal" required value={amount} onChange={(e) => setAmount(e.target.value)} aria-invalid={errors("paid_amount") ? true : undefined} aria-describedby={differs ? "paid-differs" : undefined} className={`${input} font-normal`} />
      </label>
      <label className="grid gap-1 text-sm font-semibold">
        Received on
        <FieldError messages={errors("paid_on")} />
        <input name="paid_on" type="date" required defaultValue={new Date().toLocaleDateString("en-CA", { timeZone: "Europe/London" })} aria-invalid={errors("paid_on") ? true : undefined} className={`${input} font-normal`} />
      </label>
      <label className="grid gap-1 text-sm font-semibold">
        Bank reference
        <FieldError messages={errors("payment_reference")} />
        <input name="payment_reference" maxLength={60} autoComplete="off" className={`${input} font-normal`} />
      </label>
      {differs || errors("paid_amount") ? (
        <div id="paid-differs" role="status" className="rounded border border-amber-600 bg-amber-50 p-2 text-sm sm:col-span-3">
          <p>This is not the order's total of {formatPounds(total)}.</p>
          <label className="mt-1 flex items-center gap-2 font-semibold">
            <input type="checkbox" name="amount_confirmed" value="yes" className="size-4" /> Record {amount ? `£${amount.replace(/^£/, "")}` : "this amount"} anyway
          </label>
        </div>
      ) : null}
    </div>
  );
}


export default function AdminOrder({ loaderData, actionData }: Route.ComponentProps) {
  const { order, audit, carriers } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const result = (actionData as ActionResult | undefined) ?? (loaderData.placed ? { ok: true as const, message: `Order ${order.number} placed: ${order.status_label.toLowerCase()}.` } : undefined);
  const errorsFor = (to: string, field: string) => (result && !result.ok && result.to === to ? result.errors[field] : undefined);
  const delivery = order.addresses.delivery;
  const billing = "billing" in order.addresses ? order.addresses.billing : null;
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Orders", to: "/admin/orders" }, { label: order.number }]}
        title={`Order ${order.number}`}
        intro={
          <>
            <StatusBadge status={order.status} label={order.status_label} /> Placed {formatDateTime(order.created_at)} · {order.fulfilment === "collection" ? "Collection" : "Delivery"} ({order.delivery_method_name})
            {order.branch ? (
              <>
                {order.fulfilment === "collection" ? " from " : " sent from "}
                <Link to={`/branches/${order.branch.slug}`} className="link" data-testid="order-branch">
                  {order.branch.name}
                </Link>
              </>
            ) : null}
            {order.fulfilment === "collection" && order.collect_ready_at ? `, ready ${formatDateTime(order.collect_ready_at)}` : null}
          </>
        }
        actions={
          loaderData.canPrint ? (
            <>
              <a href={`/api/admin/orders/${order.number}/picking-list.pdf`} className="btn-secondary">
                Picking list (PDF)
              </a>
              <a href={`/api/admin/orders/${order.number}/delivery-note.pdf`} className="btn-secondary">
                Delivery note (PDF)
              </a>
            </>
          ) : null
        }
      />
      <ActionResultBanner result={result} />

      <div className="grid gap-4 xl:grid-cols-[1fr_22rem]">
        {/* First in the page (a tablet shows what to do next at the top); beside the lines on a desktop. */}
        <div className="grid content-start gap-4 xl:col-start-2 xl:row-start-1">
          <Panel id="actions-heading" title="Next steps">
            {order.actions.length === 0 ? (
              <p className="text-stone-600">{order.status === "completed" || order.status === "cancelled" ? `This order is ${order.status_label.toLowerCase()}: nothing more to do.` : "Your role has nothing to do on this order now."}</p>
            ) : (
              <div className="grid gap-4">
                {order.actions.map((a) => (
                  <Form method="post" key={a.to} className={`grid gap-2 ${a.to === "cancelled" ? "border-t border-stone-200 pt-4" : ""}`} noValidate>
                    <input type="hidden" name="intent" value="transition" />
                    <input type="hidden" name="to" value={a.to} />
                    <input type="hidden" name="expected_status" value={order.status} />
                    {a.to === "paid" && order.status === "awaiting_payment" && order.totals ? <MarkPaidFields total={order.totals.total} errors={(f) => errorsFor(a.to, f)} /> : null}
                    {a.requires.includes("carrier") ? (
                      <label className="grid gap-1 text-sm font-semibold">
                        Carrier
                        <FieldError messages={errorsFor(a.to, "carrier")} />
                        <input name="carrier" list="carriers" required aria-invalid={errorsFor(a.to, "carrier") ? true : undefined} className={`${input} font-normal`} />
                      </label>
                    ) : null}
                    {a.requires.includes("tracking_number") ? (
                      <label className="grid gap-1 text-sm font-semibold">
                        Tracking number
                        <FieldError messages={errorsFor(a.to, "tracking_number")} />
                        <input name="tracking_number" required aria-invalid={errorsFor(a.to, "tracking_number") ? true : undefined} className={`${input} font-normal`} />
                      </label>
                    ) : null}
                    {a.requires.includes("collection_code") ? (
                      <label className="grid gap-1 text-sm font-semibold">
                        Collection code
                        <span className="text-xs font-normal text-stone-600">The six digits on the customer's ready email, or scan its QR code.</span>
                        <FieldError messages={errorsFor(a.to, "collection_code")} />
                        <input
                          name="collection_code"
                          inputMode="numeric"
                          autoComplete="off"
                          required
                          aria-invalid={errorsFor(a.to, "collection_code") ? true : undefined}
                          className={`${input} font-mono font-normal tracking-widest`}
                        />
                      </label>
                    ) : null}
                    {a.requires.includes("note") ? (
                      <label className="grid gap-1 text-sm font-semibold">
                        {a.to === "cancelled" ? "Reason (the customer is told)" : "Note"}
                        <FieldError messages={errorsFor(a.to, "note")} />
                        <textarea name="note" rows={2} required aria-invalid={errorsFor(a.to, "note") ? true : undefined} className={`${input} font-normal`} />
                      </label>
                    ) : null}
                    <button type="submit" disabled={busy} className={a.to === "cancelled" ? "btn border border-red-700 bg-white text-red-800 hover:bg-red-50" : "btn-primary"}>
                      {a.label}
                    </button>
                    {a.emails_customer ? <p className="text-xs text-stone-600">The customer is emailed.</p> : null}
                    {a.to === "cancelled" && order.payment?.method === "pay_on_account" ? (
                      <p className="text-xs text-stone-600">Invoiced on account: its invoice is credited in full with a credit note, emailed to the company's accounts address.</p>
                    ) : null}
                  </Form>
                ))}
                <datalist id="carriers">
                  {carriers.map((c) => (
                    <option key={c} value={c} />
                  ))}
                </datalist>
              </div>
            )}
            {order.carrier ? (
              <p className="mt-3 text-sm">
                Sent with {order.carrier}, tracking{" "}
                {order.tracking_url ? (
                  <a href={order.tracking_url} className="link" rel="noreferrer noopener" target="_blank">
                    {order.tracking_number}
                  </a>
                ) : (
                  order.tracking_number
                )}
              </p>
            ) : null}
          </Panel>

          {"customer" in order && order.customer ? (
            <Panel id="customer-heading" title="Customer" className="text-sm">
              <p className="font-semibold">{order.customer.name}</p>
              <p>
                <a href={`mailto:${order.customer.email}`} className="link">
                  {order.customer.email}
                </a>
              </p>
              {order.customer.phone ? <p>{order.customer.phone}</p> : null}
              {/* The customer block shows only to roles with customers.view, who may open the account too. */}
              <p className="mt-1 text-stone-600">
                {order.customer.guest || order.customer.user_id === null ? (
                  "Guest checkout"
                ) : (
                  <Link to={`/admin/customers/${order.customer.user_id}`} className="link">
                    Account #{order.customer.user_id}
                  </Link>
                )}
              </p>
              {order.customer.trade_account ? <p className="mt-1">Trade: {order.customer.trade_account.company_name}</p> : null}
            </Panel>
          ) : null}

          {loaderData.cardPayment ? (
            <OrderRefunds
              payment={loaderData.cardPayment}
              lines={order.lines.map((l) => ({ id: l.id, sku: l.sku, name: l.name, quantity: l.quantity }))}
              canRefund={loaderData.canRefund}
              busy={busy}
              errors={result && !result.ok && result.intent === "refund" ? result.errors : null}
            />
          ) : null}

          {order.payment ? (
            <Panel id="payment-heading" title="Payment" className="text-sm">
              <p>{order.payment.label}</p>
              {order.payment.po_reference ? <p>PO reference: {order.payment.po_reference}</p> : null}
              {order.payment.paid_amount !== null ? (
                <p data-testid="payment-received">
                  {formatPounds(order.payment.paid_amount)} received{order.payment.paid_on ? ` on ${formatDate(`${order.payment.paid_on}T12:00:00Z`)}` : ""}
                  {order.payment.reference ? `, reference ${order.payment.reference}` : ""}
                </p>
              ) : order.payment.reference ? (
                <p>Reference: {order.payment.reference}</p>
              ) : null}
              {order.site ? <p data-testid="order-site">Site: {order.site.name}</p> : null}
            </Panel>
          ) : null}

          <Panel id="address-heading" title={order.fulfilment === "collection" ? "Collection" : "Delivery address"} className="text-sm">
            {delivery ? (
              <AddressLines lines={[delivery.name || order.customer_name, delivery.company, delivery.line_1, delivery.line_2, delivery.line_3, delivery.town, delivery.county, delivery.postcode]} />
            ) : (
              <p>
                {order.customer_name ? (
                  <>
                    Collected by <span className="font-semibold">{order.customer_name}</span> from {order.branch?.name ?? "the branch"}.
                  </>
                ) : (
                  <>Collected from {order.branch?.name ?? "the branch"}.</>
                )}
              </p>
            )}
            {order.notes ? <p className="mt-2 whitespace-pre-line rounded bg-amber-50 p-2">Customer's note: {order.notes}</p> : null}
            {billing ? (
              <>
                <h3 className="mb-1 mt-3 font-bold">Billing address</h3>
                <AddressLines lines={[billing.name, billing.company, billing.line_1, billing.line_2, billing.line_3, billing.town, billing.county, billing.postcode]} />
              </>
            ) : null}
          </Panel>
        </div>
        <div className="grid content-start gap-4 xl:col-start-1 xl:row-start-1">
          <section aria-labelledby="lines-heading" className="grid gap-2">
            <h2 id="lines-heading" className="text-lg font-bold">
              Lines
            </h2>
            <DataTable
              caption={`The order's lines${order.totals ? " and their prices" : ""}`}
              rows={order.lines}
              rowKey={(line) => line.id}
              columns={[
                { label: "SKU", cell: (line) => <span className="font-mono">{line.sku}</span> },
                { label: "Product", head: true, cellClassName: "font-normal", cell: (line) => line.name },
                { label: "Quantity", numeric: true, cell: (line) => line.quantity },
                // Lines carry prices only for a role that may see them.
                !!order.totals && { label: "Unit price", numeric: true, cell: (line) => (line.unit_price === undefined ? "—" : <MoneyCell pounds={line.unit_price} />) },
                !!order.totals && {
                  label: "Line total",
                  numeric: true,
                  cell: (line) =>
                    line.line_total === undefined ? (
                      "—"
                    ) : (
                      <span>
                        <MoneyCell pounds={line.line_total} />
                        {line.discount_ex_vat ? <span className="block text-xs text-green-800">after {formatPounds(line.discount_ex_vat)} off ex VAT</span> : null}
                      </span>
                    ),
                },
              ]}
            />
            {order.totals ? (
              <dl className="grid grid-cols-[1fr_auto] gap-x-6 gap-y-1 px-4 py-1 text-sm sm:ml-auto sm:w-80">
                {order.totals.discount > 0 ? (
                  <>
                    <dt>Promotions ex VAT</dt>
                    <dd className="text-right text-green-800" data-testid="order-discount">
                      {formatPounds(-order.totals.discount)}
                    </dd>
                  </>
                ) : null}
                <dt>Goods ex VAT{order.totals.discount > 0 ? ", after promotions" : ""}</dt>
                <dd className="text-right">{formatPounds(order.totals.subtotal)}</dd>
                <dt>VAT</dt>
                <dd className="text-right">{formatPounds(order.totals.vat)}</dd>
                <dt>Delivery inc VAT</dt>
                <dd className="text-right">{formatPounds(order.totals.delivery)}</dd>
                <dt className="font-bold">Total inc VAT</dt>
                <dd className="text-right font-bold" data-testid="order-total">
                  {formatPounds(order.totals.total)}
                </dd>
              </dl>
            ) : null}
          </section>

          {loaderData.returns ? <OrderReturns returns={loaderData.returns} /> : null}

          <Timeline entries={order.history.map((h) => ({ title: h.kind === "note" ? "Note" : h.label, note: h.note, at: h.at, staff: h.staff?.name, aside: h.kind === "note" }))} testId="order-timeline">
            {loaderData.canNote ? (
              <Form method="post" className="mt-4 grid gap-2">
                <input type="hidden" name="intent" value="note" />
                <label htmlFor="order-note" className="font-semibold">
                  Add a note for the team
                </label>
                <FieldError messages={result && !result.ok && result.intent === "note" ? result.errors.note : undefined} />
                <textarea id="order-note" name="note" rows={2} maxLength={2000} className={input} />
                <button type="submit" className="btn-secondary justify-self-start" disabled={busy}>
                  Add note
                </button>
              </Form>
            ) : null}
          </Timeline>

          <AuditHistory entries={audit} />
        </div>

      </div>
    </>
  );
}

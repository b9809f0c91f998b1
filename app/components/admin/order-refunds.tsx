import { useState } from "react";
import { Form } from "react-router";
import type { OrderPaymentJson } from "../../../server/modules/payments/service.ts";
import { formatDateTime } from "../../lib/admin/format.ts";
import { formatPounds } from "../../lib/money.ts";
import { FieldError } from "./field-error.tsx";

const input = "min-h-10 w-full rounded-md border border-stone-400 bg-white px-3 py-2 font-normal";

const SESSION_LABELS: Record<OrderPaymentJson["status"], string> = {
  open: "Waiting for the customer to pay",
  paid: "Paid",
  expired: "Payment page expired unpaid",
  failed: "Payment failed",
  flagged: "Needs checking",
};
const REFUND_LABELS = { pending: "Pending", succeeded: "Refunded", failed: "Failed" } as const;
const SOURCE_LABELS = { staff: "", gateway: "made in the payment service", automatic: "automatic" } as const;

export interface RefundLine {
  id: number;
  sku: string;
  name: string;
  quantity: number;
}


/**
 * The order's card payment on the orders desk: what was paid and refunded,
 * each refund, and (for a role that may) a refund of the rest, some lines or
 * an amount. A plain form: it works before the page's script has loaded.
 */
export function OrderRefunds({
  payment,
  lines,
  canRefund,
  busy,
  errors,
}: {
  payment: OrderPaymentJson;
  lines: RefundLine[];
  canRefund: boolean;
  busy: boolean;
  errors: Record<string, string[]> | null;
}) {
  const [mode, setMode] = useState<"all" | "lines" | "amount">(errors?.lines ? "lines" : errors?.amount ? "amount" : "all");
  const refundable = payment.refundable > 0 && payment.status === "paid";
  return (
    <section aria-labelledby="card-heading" className="rounded-lg border border-stone-200 bg-white p-4 text-sm" data-testid="card-payment">
      <h2 id="card-heading" className="mb-2 text-lg font-bold">
        Card payment{payment.test_mode ? " (test)" : ""}
      </h2>
      <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1">
        <dt>Status</dt>
        <dd className="text-right font-semibold">{SESSION_LABELS[payment.status]}</dd>
        <dt>Paid</dt>
        <dd className="text-right">{formatPounds(payment.paid)}</dd>
        <dt>Refunded</dt>
        <dd className="text-right" data-testid="refunded">
          {formatPounds(payment.refunded)}
        </dd>
        <dt className="font-semibold">Can still be refunded</dt>
        <dd className="text-right font-semibold">{formatPounds(payment.refundable)}</dd>
      </dl>
      {payment.problem ? <p className="mt-2 rounded bg-red-50 p-2 font-semibold text-red-800">{payment.problem}</p> : null}
      {payment.refunds.length ? (
        <ul className="mt-3 grid gap-1 border-t border-stone-200 pt-2">
          {payment.refunds.map((r) => (
            <li key={r.id}>
              <span className="font-semibold">{formatPounds(r.amount)}</span> {REFUND_LABELS[r.status].toLowerCase()}
              {SOURCE_LABELS[r.source] ? ` (${SOURCE_LABELS[r.source]})` : ""} · <time dateTime={r.created_at}>{formatDateTime(r.created_at)}</time>
              {r.staff_name ? ` · ${r.staff_name}` : ""}
              {r.reason ? <span className="block text-stone-600">{r.reason}</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {canRefund && refundable ? (
        <Form method="post" className="mt-4 grid gap-3 border-t border-stone-200 pt-3" noValidate>
          <input type="hidden" name="intent" value="refund" />
          <fieldset className="grid gap-2">
            <legend className="mb-1 font-semibold">Refund</legend>
            {(
              [
                ["all", `Everything that is left (${formatPounds(payment.refundable)})`],
                ["lines", "Some lines"],
                ["amount", "An amount"],
              ] as const
            ).map(([value, label]) => (
              <label key={value} className="flex min-h-10 items-center gap-2">
                <input type="radio" name="mode" value={value} checked={mode === value} onChange={() => setMode(value)} className="size-5 accent-brand-700" />
                {label}
              </label>
            ))}
          </fieldset>
          {mode === "lines" ? (
            <fieldset className="grid gap-2">
              <legend className="sr-only">Quantities to refund</legend>
              <FieldError messages={errors?.lines} />
              {lines.map((l) => {
                const left = l.quantity - (payment.refunded_lines[l.id] ?? 0);
                return (
                  <label key={l.id} className="grid grid-cols-[1fr_5rem] items-center gap-2">
                    <span>
                      {l.name} <span className="text-stone-600">({left} of {l.quantity} left)</span>
                    </span>
                    <input type="number" name={`line_${l.id}`} min={0} max={left} defaultValue={0} disabled={left === 0} inputMode="numeric" aria-label={`Quantity of ${l.name} to refund`} className={input} />
                  </label>
                );
              })}
            </fieldset>
          ) : null}
          {mode === "amount" ? (
            <label className="grid gap-1 font-semibold">
              Amount (£)
              <FieldError messages={errors?.amount} />
              <input name="amount" inputMode="decimal" required aria-invalid={errors?.amount ? true : undefined} className={input} />
            </label>
          ) : null}
          <label className="grid gap-1 font-semibold">
            Reason (the customer is told)
            <FieldError messages={errors?.reason} />
            <textarea name="reason" rows={2} required maxLength={500} aria-invalid={errors?.reason ? true : undefined} className={input} />
          </label>
          <button type="submit" className="btn border border-red-700 bg-white text-red-800 hover:bg-red-50" disabled={busy}>
            Refund to the card
          </button>
          <p className="text-xs text-stone-600">The money goes back to the card the customer paid with, and they are emailed.</p>
        </Form>
      ) : null}
    </section>
  );
}

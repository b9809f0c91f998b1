import type { ReactNode } from "react";
import { Form } from "react-router";
import type { ReturnDetail } from "../../../server/modules/returns/desk.ts";
import type { ReturnStatus } from "../../../server/modules/returns/statuses.ts";
import { refundRoute } from "../../lib/admin/returns.ts";
import { formatPounds } from "../../lib/money.ts";
import { FieldError } from "./field-error.tsx";
import { ADMIN_CONTROL, type FieldErrors, FormField, fieldProps } from "./form-field.tsx";
import { Panel } from "./panel.tsx";
import { Options } from "./options.tsx";

/** What the return's page's last form post did: the banner's words, and for a refused form its errors and what was typed. */
export type ReturnActionResult = { ok: true; message: string } | { ok: false; to: string; message: string; errors: Record<string, string[]>; values: Record<string, string> };

export interface ExchangeChoice {
  line_id: number;
  variant_id: number | null;
  choices: { id: number; sku: string; name: string; stock: number }[];
}

/** The moves in the order a member meets them: going forward first, then closing, rejecting last. */
const ORDER: Record<ReturnStatus, number> = { requested: 0, approved: 0, received: 1, refunded: 2, exchanged: 3, closed: 4, rejected: 5 };

const textarea = `${ADMIN_CONTROL} py-2`;
const danger = "btn justify-self-start border border-red-700 bg-white text-red-800 hover:bg-red-50";

/** One move as a form: the move and the status the member saw (a return changed meanwhile is refused with a clear message). */
function MoveForm({ ret, to, label, busy, button = "btn-primary justify-self-start", note, children }: { ret: ReturnDetail; to: ReturnStatus; label: string; busy: boolean; button?: string; note?: ReactNode; children?: ReactNode }) {
  return (
    <Form method="post" className="grid gap-3 border-t border-stone-200 pt-4 first:border-t-0 first:pt-0" noValidate data-testid={`move-${to}`}>
      <input type="hidden" name="to" value={to} />
      <input type="hidden" name="expected_status" value={ret.status} />
      {children}
      <button type="submit" className={button} disabled={busy}>
        {label}
      </button>
      {note ? <p className="text-xs text-stone-600">{note}</p> : null}
    </Form>
  );
}

/** A whole number of units for one line: back in stock, or damaged. */
function Units({ id, name, label, max, value, error }: { id: string; name: string; label: string; max: number; value: string; error: string | null }) {
  return (
    <label htmlFor={id} className="grid gap-1 text-sm font-semibold">
      {label}
      <input
        id={id}
        name={name}
        type="number"
        min={0}
        max={max}
        inputMode="numeric"
        defaultValue={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ?? undefined}
        className={ADMIN_CONTROL}
      />
    </label>
  );
}

/**
 * What the member may do with the return now, each move a plain form (it
 * works before the page's script has loaded): approve; reject with a reason;
 * receive, per line, what is back in stock and what is damaged, at a branch;
 * refund, shown against what the rules propose; send a replacement; close.
 */
export function ReturnActions({
  ret,
  receive,
  exchange,
  result,
  busy,
}: {
  ret: ReturnDetail;
  receive: { branches: { id: number; name: string }[]; chosen: number | null };
  exchange: ExchangeChoice[];
  result: ReturnActionResult | undefined;
  busy: boolean;
}) {
  const moves = [...ret.actions].sort((a, b) => ORDER[a.to] - ORDER[b.to]);
  const refused = (to: ReturnStatus) => (result && !result.ok && result.to === to ? result : null);
  const errorsOf = (to: ReturnStatus): FieldErrors => refused(to)?.errors;
  const typed = (to: ReturnStatus, name: string, fallback = "") => refused(to)?.values[name] ?? fallback;
  const back = ret.lines.filter((l) => l.received + l.damaged > 0);
  const proposal = ret.proposal;

  const form = (to: ReturnStatus, label: string): ReactNode => {
    switch (to) {
      case "approved":
        return <MoveForm key={to} ret={ret} to={to} label={label} busy={busy} note="The customer is emailed how to send it back." />;
      case "rejected": {
        const errors = errorsOf(to);
        return (
          <MoveForm key={to} ret={ret} to={to} label={label} busy={busy} button={danger} note="The customer is emailed the reason.">
            <FormField prefix="reject" id="reason" label="Reason (the customer is told)" errors={errors}>
              <textarea {...fieldProps("reject", "reason", errors)} defaultValue={typed(to, "reason")} rows={2} maxLength={1000} required className={textarea} />
            </FormField>
          </MoveForm>
        );
      }
      case "received": {
        const errors = errorsOf(to);
        return (
          <MoveForm key={to} ret={ret} to={to} label={label} busy={busy} note="Resaleable units go back into stock at the branch; damaged ones are written off. The customer is emailed.">
            <h3 className="font-semibold">Receive the goods</h3>
            <FieldError messages={errors?.lines} />
            {ret.lines.map((l, i) => {
              const messages = errors?.[`lines.${i}`];
              return (
                <fieldset key={l.line_id} className="grid gap-2 rounded border border-stone-200 p-3">
                  <legend className="px-1 text-sm font-semibold">
                    {l.quantity} × {l.name}
                  </legend>
                  <input type="hidden" name="line" value={l.line_id} />
                  <FieldError id={`receive-${l.line_id}-error`} messages={messages} />
                  <div className="grid grid-cols-2 gap-2">
                    <Units id={`receive-${l.line_id}-received`} name={`received_${l.line_id}`} label="Resaleable" max={l.quantity} value={typed(to, `received_${l.line_id}`, String(l.quantity))} error={messages ? `receive-${l.line_id}-error` : null} />
                    <Units id={`receive-${l.line_id}-damaged`} name={`damaged_${l.line_id}`} label="Damaged" max={l.quantity} value={typed(to, `damaged_${l.line_id}`, "0")} error={messages ? `receive-${l.line_id}-error` : null} />
                  </div>
                </fieldset>
              );
            })}
            <p className="text-sm text-stone-600">Units counted in neither did not arrive.</p>
            {receive.branches.length > 1 ? (
              <FormField prefix="receive" id="branch_id" label="Received at" errors={errors}>
                <select {...fieldProps("receive", "branch_id", errors)} defaultValue={typed(to, "branch_id", receive.chosen ? String(receive.chosen) : "")} className={ADMIN_CONTROL}>
                  {receive.chosen === null ? <option value="">The order's branch (else the shop's default)</option> : null}
                  <Options of={receive.branches} value={(b) => b.id} label={(b) => b.name} />
                </select>
              </FormField>
            ) : null}
          </MoveForm>
        );
      }
      case "refunded": {
        const errors = errorsOf(to);
        const onAccount = ret.order.payment_method === "pay_on_account";
        const ceiling = proposal ? proposal.goods + proposal.delivery : 0;
        return (
          <MoveForm key={to} ret={ret} to={to} label={label} busy={busy} note="The customer is emailed.">
            <h3 className="font-semibold">Refund</h3>
            {proposal ? (
              <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm" data-testid="refund-proposal">
                <dt>Goods back</dt>
                <dd className="text-right">{formatPounds(proposal.goods)}</dd>
                <dt>Delivery{proposal.whole_order ? " (the whole order is back)" : ""}</dt>
                <dd className="text-right">{formatPounds(proposal.delivery)}</dd>
                <dt>Collection charge</dt>
                <dd className="text-right">{proposal.collection_charge ? `−${formatPounds(proposal.collection_charge)}` : formatPounds(0)}</dd>
                <dt className="font-bold">Proposed refund</dt>
                <dd className="text-right font-bold">{formatPounds(proposal.total)}</dd>
              </dl>
            ) : null}
            <p className="text-sm">
              <span className="font-semibold">How it goes back: </span>
              {refundRoute(ret.order.payment_method, ret.order.payment_label)}
            </p>
            {proposal && !onAccount ? (
              <>
                <FormField prefix="refund" id="amount" label="Refund (£)" errors={errors} hint={`At most ${formatPounds(ceiling)}: the goods back${proposal.delivery ? " and the delivery" : ""}.`}>
                  <input {...fieldProps("refund", "amount", errors, true)} inputMode="decimal" defaultValue={typed(to, "amount", proposal.total.toFixed(2))} className={ADMIN_CONTROL} />
                </FormField>
                <FormField prefix="refund" id="deduction" label="Deduction (£), optional" errors={errors} hint="Only for handling beyond what inspecting the goods needed; it comes off the refund.">
                  <input {...fieldProps("refund", "deduction", errors, true)} inputMode="decimal" defaultValue={typed(to, "deduction")} className={ADMIN_CONTROL} />
                </FormField>
                <FormField prefix="refund" id="deduction_reason" label="Why the deduction (the customer is told)" errors={errors}>
                  <textarea {...fieldProps("refund", "deduction_reason", errors)} defaultValue={typed(to, "deduction_reason")} rows={2} maxLength={1000} className={textarea} />
                </FormField>
              </>
            ) : null}
          </MoveForm>
        );
      }
      case "exchanged": {
        const errors = errorsOf(to);
        return (
          <MoveForm key={to} ret={ret} to={to} label={label} busy={busy} button="btn-secondary justify-self-start" note="Instead of a refund: a new order at no charge, picked and dispatched like any other. The customer is emailed.">
            <h3 className="font-semibold">Send a replacement</h3>
            <FieldError messages={errors?.exchange} />
            {back.map((l, i) => {
              const choice = exchange.find((e) => e.line_id === l.line_id);
              const lineErrors = errors?.[`exchange.${i}`] ? { variant: errors[`exchange.${i}`]! } : undefined;
              const prefix = `exchange-${l.line_id}`;
              const label = `${l.received + l.damaged} × ${l.name}`;
              const choices = choice?.choices ?? [];
              const only = choices.length === 1 && choices[0]!.id === choice?.variant_id ? choices[0]! : null;
              // A product sold in one variant: the same again, said plainly; else a choice of its variants, the same first.
              return only ? (
                <div key={l.line_id} className="grid gap-1 text-sm">
                  <input type="hidden" name="line" value={l.line_id} />
                  <input type="hidden" name={`variant_${l.line_id}`} value={only.id} />
                  <span className="font-semibold">{label}</span>
                  <FieldError messages={lineErrors?.variant} />
                  <span>
                    The same ({only.sku}), {only.stock} in stock
                  </span>
                </div>
              ) : (
                <FormField key={l.line_id} prefix={prefix} id="variant" label={label} errors={lineErrors}>
                  <input type="hidden" name="line" value={l.line_id} />
                  <select {...fieldProps(prefix, "variant", lineErrors)} name={`variant_${l.line_id}`} defaultValue={typed(to, `variant_${l.line_id}`, String(choice?.variant_id ?? ""))} className={ADMIN_CONTROL}>
                    {choices.map((c) => (
                      <option key={c.id} value={c.id}>
                        {c.name} ({c.sku}), {c.stock} in stock{c.id === choice?.variant_id ? ": the same" : ""}
                      </option>
                    ))}
                    {choices.length ? null : <option value="">None on sale</option>}
                  </select>
                </FormField>
              );
            })}
          </MoveForm>
        );
      }
      case "closed": {
        const errors = errorsOf(to);
        const withoutRefund = ret.status === "received";
        return (
          <MoveForm key={to} ret={ret} to={to} label={label} busy={busy} button="btn-secondary justify-self-start" note={withoutRefund ? "Nothing is refunded or sent. The customer is not emailed." : "The customer is not emailed."}>
            {withoutRefund ? (
              <FormField prefix="close" id="reason" label="Why, for the timeline (optional)" errors={errors}>
                <textarea {...fieldProps("close", "reason", errors)} defaultValue={typed(to, "reason")} rows={2} maxLength={1000} className={textarea} />
              </FormField>
            ) : null}
          </MoveForm>
        );
      }
      default:
        return null;
    }
  };

  const finished = ret.status === "closed" || ret.status === "rejected";
  return (
    <Panel id="actions-heading" title="Next steps">
      {moves.length === 0 ? (
        <p className="text-stone-600">{finished ? `This return is ${ret.status_label.toLowerCase()}: nothing more to do.` : "Your role has nothing to do on this return now."}</p>
      ) : (
        <div className="grid gap-4">{moves.map((m) => form(m.to, m.label))}</div>
      )}
    </Panel>
  );
}

import { Form, Link } from "react-router";
import { formatDay } from "../../lib/admin/format.ts";
import { formatPounds } from "../../lib/money.ts";
import { FieldError } from "./field-error.tsx";
import { ADMIN_CONTROL, type FieldErrors, FormField, fieldProps } from "./form-field.tsx";
import { Panel } from "./panel.tsx";
import { Options } from "./options.tsx";

// The money forms of a trade account's screen (record a payment, use credit
// on account, issue a credit note): each a plain form that posts its intent to
// the screen's action, and shows again what was typed beside the errors.

/** What a refused post of one form typed and was told, field by field; nothing for another form's. */
export interface FormMemory {
  errors: FieldErrors;
  err: (name: string) => string[] | undefined;
  val: (name: string, fallback?: string) => string;
}

/** An invoice with money still to pay. */
export interface OpenInvoice {
  number: string;
  due_date: string;
  overdue: boolean;
  outstanding: number;
}

/** An open invoice's line in the forms: its number, due day, and what is left to pay. */
function OpenInvoiceLine({ invoice: i }: { invoice: OpenInvoice }) {
  return (
    <span>
      <strong>{i.number}</strong> · due {formatDay(i.due_date)}
      {i.overdue ? <span className="font-semibold text-red-800"> (overdue)</span> : null} · {formatPounds(i.outstanding)} outstanding
    </span>
  );
}

/** Money received, allocated to open invoices (what is left stays as credit on account). */
export function RecordPayment({ open, methods, memory, busy }: { open: readonly OpenInvoice[]; methods: readonly (readonly [string, string])[]; memory: FormMemory; busy: boolean }) {
  return (
    <Panel id="payment-heading" title="Record a payment">
      <Form method="post" className="grid gap-3" noValidate>
        <input type="hidden" name="intent" value="payment" />
        <div className="grid gap-2 sm:grid-cols-2">
          <label className="grid gap-1 text-sm font-semibold">
            Amount received (£)
            <span id="pay-amount-hint" className="font-normal text-stone-600">
              Leave empty to take the sum of the allocations.
            </span>
            <FieldError id="pay-amount-error" messages={memory.err("amount")} />
            <input name="amount" type="number" inputMode="decimal" step="0.01" min="0" defaultValue={memory.val("amount")} aria-describedby={`pay-amount-hint${memory.err("amount") ? " pay-amount-error" : ""}`} className={ADMIN_CONTROL} />
          </label>
          <label className="grid gap-1 text-sm font-semibold">
            Method
            <FieldError id="pay-method-error" messages={memory.err("method")} />
            <select name="method" defaultValue={memory.val("method", "bacs")} className={ADMIN_CONTROL}>
              <Options of={methods} value={([m]) => m} label={([, label]) => label} />
            </select>
          </label>
          <label className="grid gap-1 text-sm font-semibold">
            Reference (payer's, cheque number)
            <input name="reference" maxLength={200} defaultValue={memory.val("reference")} className={ADMIN_CONTROL} />
          </label>
          <label className="grid gap-1 text-sm font-semibold">
            Received on (empty: today)
            <FieldError id="pay-date-error" messages={memory.err("received_on")} />
            <input name="received_on" type="date" defaultValue={memory.val("received_on")} className={ADMIN_CONTROL} />
          </label>
        </div>
        <FieldError id="pay-allocations-error" messages={memory.err("allocations")} />
        {open.length === 0 ? (
          <p className="text-sm text-stone-600">No open invoices: the whole payment stays as credit on account.</p>
        ) : (
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-semibold">Allocate to invoices (what is left stays as credit on account)</legend>
            {open.map((i) => (
              <div key={i.number} className="grid items-center gap-2 rounded border border-stone-200 p-2 text-sm sm:grid-cols-[1fr_9rem_auto]">
                <OpenInvoiceLine invoice={i} />
                <label className="grid gap-1">
                  <span className="sr-only">Amount for {i.number} (£)</span>
                  <input name={`alloc_${i.number}`} type="number" inputMode="decimal" step="0.01" min="0" max={i.outstanding} placeholder="0.00" defaultValue={memory.val(`alloc_${i.number}`)} className={ADMIN_CONTROL} />
                </label>
                <label className="flex items-center gap-2">
                  <input type="checkbox" name={`full_${i.number}`} value="yes" defaultChecked={memory.val(`full_${i.number}`) === "yes"} className="size-5" />
                  <span>
                    Pay<span className="sr-only"> {i.number}</span> in full
                  </span>
                </label>
              </div>
            ))}
          </fieldset>
        )}
        <button type="submit" className="btn-primary" disabled={busy}>
          Record payment
        </button>
      </Form>
    </Panel>
  );
}

/** Credit on account set against open invoices. */
export function UseCredit({ open, credit, memory, busy }: { open: readonly OpenInvoice[]; credit: number; memory: FormMemory; busy: boolean }) {
  return (
    <Panel id="use-credit-heading" title={<>Use {formatPounds(credit)} credit on account</>}>
      <p className="mb-2 text-sm">
        Payments' money not yet set against an invoice, the oldest first. The balance does not change: the money was counted when it arrived. Credit left by a credit note beyond its invoice stays in the balance but is not allocated here.
      </p>
      <Form method="post" className="grid gap-3" noValidate>
        <input type="hidden" name="intent" value="allocate_credit" />
        <FieldError id="use-credit-error" messages={memory.err("allocations")} />
        <fieldset className="grid gap-2" aria-describedby={memory.err("allocations") ? "use-credit-error" : undefined}>
          <legend className="mb-1 text-sm font-semibold">Amount of credit for each invoice (£)</legend>
          {open.map((i) => (
            <label key={i.number} className="grid items-center gap-2 rounded border border-stone-200 p-2 text-sm sm:grid-cols-[1fr_9rem]">
              <OpenInvoiceLine invoice={i} />
              <input
                name={`credit_${i.number}`}
                type="number"
                inputMode="decimal"
                step="0.01"
                min="0"
                max={Math.min(i.outstanding, credit)}
                placeholder="0.00"
                defaultValue={memory.val(`credit_${i.number}`)}
                aria-label={`Credit for ${i.number} (£)`}
                className={ADMIN_CONTROL}
              />
            </label>
          ))}
        </fieldset>
        <button type="submit" className="btn-primary" disabled={busy}>
          Use credit on account
        </button>
      </Form>
    </Panel>
  );
}

/** The invoice a credit note is issued against, and the lines it may credit. */
export interface CreditableInvoice {
  number: string;
  total: number;
  outstanding: number;
  whole_only: boolean;
  creditable: { source: string; description: string; quantity: number; remaining: number }[];
}

/** A credit note against an invoice: all of it, or chosen lines and quantities. */
export function CreditNoteForm({ credit, memory, busy }: { credit: CreditableInvoice; memory: FormMemory; busy: boolean }) {
  return (
    <Panel id="credit-heading" anchor="credit-note" title={<>Issue a credit note against {credit.number}</>}>
      <p className="mb-2 text-sm">
        {formatPounds(credit.total)} invoice, {formatPounds(credit.outstanding)} outstanding. Up to what is outstanding comes off the invoice; the rest is credit on account.
      </p>
      <Form method="post" className="grid gap-3" noValidate>
        <input type="hidden" name="intent" value="credit_note" />
        <input type="hidden" name="invoice" value={credit.number} />
        <FormField prefix="credit" id="reason" label="Reason (printed on the credit note)" errors={memory.errors}>
          <textarea {...fieldProps("credit", "reason", memory.errors)} rows={2} maxLength={1000} defaultValue={memory.val("reason")} className={`${ADMIN_CONTROL} py-2`} />
        </FormField>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="whole" value="yes" defaultChecked={credit.whole_only || memory.val("whole") === "yes"} className="size-5" />
          Credit everything not yet credited {credit.whole_only ? "(a hire invoice is credited whole)" : "(ignores the quantities below)"}
        </label>
        <FieldError id="credit-lines-error" messages={memory.err("lines")} />
        {credit.whole_only ? null : (
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-semibold">Or choose lines and quantities</legend>
            {credit.creditable.map((l) => (
              <label key={l.source} className="grid items-center gap-2 text-sm sm:grid-cols-[1fr_7rem]">
                <span>
                  {l.description}: {l.remaining} of {l.quantity} can be credited
                </span>
                <input name={`qty_${l.source}`} type="number" inputMode="numeric" step="1" min="0" max={l.remaining} disabled={l.remaining === 0} placeholder="0" defaultValue={memory.val(`qty_${l.source}`)} aria-label={`Quantity of ${l.description} to credit`} className={ADMIN_CONTROL} />
              </label>
            ))}
          </fieldset>
        )}
        <div className="flex flex-wrap gap-2">
          <button type="submit" className="btn-primary" disabled={busy}>
            Issue credit note
          </button>
          <Link to="." className="btn-secondary">
            Cancel
          </Link>
        </div>
      </Form>
    </Panel>
  );
}

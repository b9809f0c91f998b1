// Over 500 lines for now: the back-office kit (issue 35) is taking its repeated markup out.
import { Form, Link, data, useNavigation } from "react-router";
import { appContext } from "#app-context";
import { AuditHistory } from "../../../components/admin/audit-entries.tsx";
import { FieldError } from "../../../components/admin/field-error.tsx";
import { ADMIN_CONTROL, FormField, fieldProps } from "../../../components/admin/form-field.tsx";
import { AdminHeading } from "../../../components/admin/frame.tsx";
import { HoldBadge } from "../../../components/admin/hold-badge.tsx";
import { ResultBanner } from "../../../components/admin/result-banner.tsx";
import { STACKED } from "../../../components/admin/stacked-table.ts";
import { notFoundOr, requireSameOrigin, serviceError } from "../../../lib/admin/access.ts";
import { formatDate, formatDateTime, formatDay } from "../../../lib/admin/format.ts";
import { requireTradeDesk, termsFormErrors } from "../../../lib/admin/trade-desk.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { formatPounds } from "../../../lib/money.ts";
import { can } from "../../../../server/modules/staff/permissions.ts";
import { ACCOUNT_STATE_LABELS, INVOICE_STATUS_LABELS, PAYMENT_METHOD_LABELS } from "../../../../server/modules/trade/desk-labels.ts";
import type { Route } from "./+types/account";

export const meta: Route.MetaFunction = ({ matches, params }) => pageMeta(matches, `Trade account #${params.id}`);

const METHODS = ["bacs", "cheque", "card", "cash"] as const;

/** The account's number from the path; anything else is no account. */
function idFrom(param: string): number {
  if (!/^\d{1,9}$/.test(param)) throw new Response("No such trade account.", { status: 404, statusText: "Not Found" });
  return Number(param);
}


export async function loader({ context, request, params }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const actor = requireTradeDesk(app.staff, request);
  const id = idFrom(params.id);
  const desk = app.services.tradeDesk;
  const account = await desk.account(actor, id).catch(notFoundOr);
  // The credit note form, for the invoice chosen in the list (?credit=INV-000123).
  const creditFor = new URL(request.url).searchParams.get("credit")?.trim().slice(0, 40);
  const credit = creditFor ? await desk.invoice(actor, creditFor).catch(() => null) : null;
  return {
    account,
    credit: credit && credit.account_id === id ? credit : null,
    canTrade: can(actor.role, "trade.manage"),
    canMoney: can(actor.role, "invoices.manage"),
  };
}

type Intent = "terms" | "hold" | "release" | "note" | "payment" | "allocate_credit" | "confirm_remittance" | "credit_note";
const INTENTS: readonly Intent[] = ["terms", "hold", "release", "note", "payment", "allocate_credit", "confirm_remittance", "credit_note"];
type ActionResult = { ok: true; intent: Intent; message: string } | { ok: false; intent: Intent; message: string; errors: Record<string, string[]>; values: Record<string, string> };

const num = (v: string) => (v.trim() === "" ? Number.NaN : Number(v));

/** Every action on the page; the service checks trade.manage or invoices.manage for each and audits it. */
export async function action({ context, request, params }: Route.ActionArgs) {
  requireSameOrigin(request);
  const app = context.get(appContext);
  const actor = requireTradeDesk(app.staff, request);
  const id = idFrom(params.id);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "") as Intent;
  const values: Record<string, string> = {};
  for (const [k, v] of form.entries()) if (typeof v === "string") values[k] = v.slice(0, 4000);
  const desk = app.services.tradeDesk;
  if (!INTENTS.includes(intent)) return data<ActionResult>({ ok: false, intent: "note", message: "Choose what to do with the account.", errors: {}, values }, { status: 422 });
  try {
    if (intent === "terms") {
      const done = await desk.updateTerms(actor, id, { credit_limit: num(values.credit_limit ?? ""), terms_days: num(values.terms_days ?? ""), discount_percent: num(values.discount_percent ?? ""), po_required: values.po_required === "yes" });
      return data<ActionResult>({ ok: true, intent, message: `Terms saved: credit limit ${formatPounds(done.credit_limit)}, ${done.terms_days} days.` });
    }
    if (intent === "hold") {
      await desk.hold(actor, id, values.reason ?? "");
      return data<ActionResult>({ ok: true, intent, message: "The account is on hold: pay on account is refused until you release it." });
    }
    if (intent === "release") {
      await desk.release(actor, id);
      return data<ActionResult>({ ok: true, intent, message: "The hold is released." });
    }
    if (intent === "note") {
      await desk.addNote(actor, id, values.body ?? "");
      return data<ActionResult>({ ok: true, intent, message: "Note added." });
    }
    if (intent === "payment") {
      // One row per open invoice: an amount, or "in full" for what is outstanding on it.
      const account = await desk.account(actor, id);
      const allocations = account.invoices
        .filter((i) => i.outstanding > 0)
        .flatMap((i) => {
          const full = values[`full_${i.number}`] === "yes";
          const typed = (values[`alloc_${i.number}`] ?? "").trim();
          if (full) return [{ invoice_number: i.number, amount: i.outstanding }];
          return typed === "" || Number(typed) === 0 ? [] : [{ invoice_number: i.number, amount: Number(typed) }];
        });
      const allocated = Math.round(allocations.reduce((s, a) => s + a.amount * 100, 0)) / 100;
      // No amount typed: the payment is what is allocated.
      const amount = (values.amount ?? "").trim() === "" ? allocated : num(values.amount ?? "");
      const done = await desk.pay(actor, id, { amount, method: values.method as (typeof METHODS)[number], reference: values.reference ?? "", received_on: values.received_on?.trim() || undefined, allocations });
      return data<ActionResult>({ ok: true, intent, message: `Payment of ${formatPounds(amount)} recorded. The account now ${done.balance < 0 ? `has ${formatPounds(-done.balance)} in credit` : `owes ${formatPounds(done.balance)}`}; a receipt is emailed.` });
    }
    if (intent === "allocate_credit") {
      // One amount per open invoice; empty or 0 leaves it out.
      const allocations = Object.entries(values)
        .filter(([k, v]) => k.startsWith("credit_") && v.trim() !== "" && Number(v) !== 0)
        .map(([k, v]) => ({ invoice_number: k.slice("credit_".length), amount: num(v) }));
      if (allocations.length === 0) return data<ActionResult>({ ok: false, intent, message: "Check the details below.", errors: { allocations: ["Enter an amount against at least one invoice."] }, values }, { status: 422 });
      const done = await desk.allocateCredit(actor, id, { allocations });
      const total = Math.round(allocations.reduce((s, x) => s + x.amount * 100, 0)) / 100;
      return data<ActionResult>({ ok: true, intent, message: `${formatPounds(total)} of credit on account set against ${allocations.map((x) => x.invoice_number).join(", ")}. The balance is unchanged: ${done.balance < 0 ? `${formatPounds(-done.balance)} in credit` : `${formatPounds(done.balance)} owed`}.` });
    }
    if (intent === "confirm_remittance") {
      await desk.confirmRemittance(actor, values.reference ?? "", {});
      return data<ActionResult>({ ok: true, intent, message: `Remittance ${values.reference} is confirmed and its payment recorded.` });
    }
    const lines =
      values.whole === "yes"
        ? undefined
        : Object.entries(values)
            .filter(([k, v]) => k.startsWith("qty_") && v.trim() !== "" && Number(v) !== 0)
            .map(([k, v]) => ({ source: k.slice(4), quantity: Number(v) }));
    const note = await desk.credit(actor, values.invoice ?? "", { reason: values.reason ?? "", whole: values.whole === "yes", lines });
    return data<ActionResult>({ ok: true, intent, message: `Credit note ${note.number} for ${formatPounds(note.total)} issued against ${note.invoice_number} and emailed to the accounts address.` });
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    if (known.status === 404 && intent !== "confirm_remittance" && intent !== "credit_note") notFoundOr(error);
    const errors = termsFormErrors(known.errors);
    return data<ActionResult>({ ok: false, intent, message: known.errors ? "Check the details below." : known.message, errors, values }, { status: known.status });
  }
}

const card = "rounded-lg border border-stone-200 bg-white p-4";
const dangerButton = "btn border border-red-700 bg-white text-red-800 hover:bg-red-50";

export default function TradeAccount({ loaderData, actionData }: Route.ComponentProps) {
  const { account: a, credit, canTrade, canMoney } = loaderData;
  const result = actionData as ActionResult | undefined;
  const failed = result && !result.ok ? result : undefined;
  const busy = useNavigation().state === "submitting";
  const errs = (intent: Intent) => (failed?.intent === intent ? failed.errors : undefined);
  const err = (intent: Intent, name: string) => errs(intent)?.[name];
  const val = (intent: Intent, name: string, fallback = "") => (failed?.intent === intent ? (failed.values[name] ?? "") : fallback);
  const open = a.invoices.filter((i) => i.outstanding > 0);
  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm">
        <Link to="/admin/trade" className="link">
          Trade accounts
        </Link>{" "}
        › {a.company_name}
      </nav>
      <AdminHeading
        title={a.company_name}
        intro={
          <>
            {ACCOUNT_STATE_LABELS[a.state]} · {a.accounts_email}
            {a.on_hold ? (
              <>
                {" "}
                · <HoldBadge reason={a.hold_reason} />
              </>
            ) : null}
          </>
        }
        actions={
          <Link to={`/admin/trade/accounts/${a.id}/statement`} className="btn-secondary">
            Statements
          </Link>
        }
      />
      {result ? (
        <ResultBanner ok={result.ok} result={result}>
          {result.message}
        </ResultBanner>
      ) : null}

      <dl className="mb-4 grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="trade-account-figures">
        {(
          [
            ["Balance", a.balance < 0 ? `${formatPounds(-a.balance)} in credit` : formatPounds(a.balance)],
            ["Credit limit", formatPounds(a.credit_limit)],
            ["Available", formatPounds(a.available_credit)],
            ["Overdue", a.overdue > 0 ? `${formatPounds(a.overdue)} (${a.overdue_days} days)` : "None"],
          ] as const
        ).map(([label, value]) => (
          <div key={label} className={card}>
            <dt className="text-sm text-stone-700">{label}</dt>
            <dd className="text-lg font-bold">{value}</dd>
          </div>
        ))}
      </dl>

      <div className="grid gap-4 xl:grid-cols-[1fr_22rem]">
        {/* The payment form and invoices come first in the page's order, so a phone shows them before terms and notes; a wide screen's grid puts the panels on the right. */}
        <div className="grid min-w-0 content-start gap-4 xl:col-start-1 xl:row-start-1">
          {canMoney && a.remittances_waiting.length > 0 ? (
            <section aria-labelledby="remittances-heading" className={card}>
              <h2 id="remittances-heading" className="mb-2 text-lg font-bold">
                Remittances waiting
              </h2>
              <ul className="grid gap-2">
                {a.remittances_waiting.map((r) => (
                  <li key={r.reference} className="flex flex-wrap items-center justify-between gap-2 text-sm">
                    <span>
                      <strong>{r.reference}</strong>: {formatPounds(r.amount)} by {r.provider.replace("_", " ")} for {r.invoices.join(", ")}, sent {formatDate(r.created_at)}
                    </span>
                    <Form method="post">
                      <input type="hidden" name="intent" value="confirm_remittance" />
                      <input type="hidden" name="reference" value={r.reference} />
                      <button type="submit" className="btn-primary" disabled={busy}>
                        Money arrived: confirm {r.reference}
                      </button>
                    </Form>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}

          {canMoney ? (
            <section aria-labelledby="payment-heading" className={card}>
              <h2 id="payment-heading" className="mb-2 text-lg font-bold">
                Record a payment
              </h2>
              <Form method="post" className="grid gap-3" noValidate>
                <input type="hidden" name="intent" value="payment" />
                <div className="grid gap-2 sm:grid-cols-2">
                  <label className="grid gap-1 text-sm font-semibold">
                    Amount received (£)
                    <span id="pay-amount-hint" className="font-normal text-stone-600">
                      Leave empty to take the sum of the allocations.
                    </span>
                    <FieldError id="pay-amount-error" messages={err("payment", "amount")} />
                    <input name="amount" type="number" inputMode="decimal" step="0.01" min="0" defaultValue={val("payment", "amount")} aria-describedby={`pay-amount-hint${err("payment", "amount") ? " pay-amount-error" : ""}`} className={ADMIN_CONTROL} />
                  </label>
                  <label className="grid gap-1 text-sm font-semibold">
                    Method
                    <FieldError id="pay-method-error" messages={err("payment", "method")} />
                    <select name="method" defaultValue={val("payment", "method", "bacs")} className={ADMIN_CONTROL}>
                      {METHODS.map((m) => (
                        <option key={m} value={m}>
                          {PAYMENT_METHOD_LABELS[m]}
                        </option>
                      ))}
                    </select>
                  </label>
                  <label className="grid gap-1 text-sm font-semibold">
                    Reference (payer's, cheque number)
                    <input name="reference" maxLength={200} defaultValue={val("payment", "reference")} className={ADMIN_CONTROL} />
                  </label>
                  <label className="grid gap-1 text-sm font-semibold">
                    Received on (empty: today)
                    <FieldError id="pay-date-error" messages={err("payment", "received_on")} />
                    <input name="received_on" type="date" defaultValue={val("payment", "received_on")} className={ADMIN_CONTROL} />
                  </label>
                </div>
                <FieldError id="pay-allocations-error" messages={err("payment", "allocations")} />
                {open.length === 0 ? (
                  <p className="text-sm text-stone-600">No open invoices: the whole payment stays as credit on account.</p>
                ) : (
                  <fieldset className="grid gap-2">
                    <legend className="mb-1 text-sm font-semibold">Allocate to invoices (what is left stays as credit on account)</legend>
                    {open.map((i) => (
                      <div key={i.number} className="grid items-center gap-2 rounded border border-stone-200 p-2 text-sm sm:grid-cols-[1fr_9rem_auto]">
                        <span>
                          <strong>{i.number}</strong> · due {formatDay(i.due_date)}
                          {i.overdue ? <span className="font-semibold text-red-800"> (overdue)</span> : null} · {formatPounds(i.outstanding)} outstanding
                        </span>
                        <label className="grid gap-1">
                          <span className="sr-only">Amount for {i.number} (£)</span>
                          <input name={`alloc_${i.number}`} type="number" inputMode="decimal" step="0.01" min="0" max={i.outstanding} placeholder="0.00" defaultValue={val("payment", `alloc_${i.number}`)} className={ADMIN_CONTROL} />
                        </label>
                        <label className="flex items-center gap-2">
                          <input type="checkbox" name={`full_${i.number}`} value="yes" defaultChecked={val("payment", `full_${i.number}`) === "yes"} className="size-5" />
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
            </section>
          ) : null}

          {canMoney && a.unallocated_credit > 0 && open.length > 0 ? (
            <section aria-labelledby="use-credit-heading" className={card}>
              <h2 id="use-credit-heading" className="mb-2 text-lg font-bold">
                Use {formatPounds(a.unallocated_credit)} credit on account
              </h2>
              <p className="mb-2 text-sm">
                Payments' money not yet set against an invoice, the oldest first. The balance does not change: the money was counted when it arrived. Credit left by a credit note beyond its invoice stays in the balance but is not allocated here.
              </p>
              <Form method="post" className="grid gap-3" noValidate>
                <input type="hidden" name="intent" value="allocate_credit" />
                <FieldError id="use-credit-error" messages={err("allocate_credit", "allocations")} />
                <fieldset className="grid gap-2" aria-describedby={err("allocate_credit", "allocations") ? "use-credit-error" : undefined}>
                  <legend className="mb-1 text-sm font-semibold">Amount of credit for each invoice (£)</legend>
                  {open.map((i) => (
                    <label key={i.number} className="grid items-center gap-2 rounded border border-stone-200 p-2 text-sm sm:grid-cols-[1fr_9rem]">
                      <span>
                        <strong>{i.number}</strong> · due {formatDay(i.due_date)}
                        {i.overdue ? <span className="font-semibold text-red-800"> (overdue)</span> : null} · {formatPounds(i.outstanding)} outstanding
                      </span>
                      <input
                        name={`credit_${i.number}`}
                        type="number"
                        inputMode="decimal"
                        step="0.01"
                        min="0"
                        max={Math.min(i.outstanding, a.unallocated_credit)}
                        placeholder="0.00"
                        defaultValue={val("allocate_credit", `credit_${i.number}`)}
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
            </section>
          ) : null}

          {canMoney && credit ? (
            <section aria-labelledby="credit-heading" id="credit-note" className={card}>
              <h2 id="credit-heading" className="mb-2 text-lg font-bold">
                Issue a credit note against {credit.number}
              </h2>
              <p className="mb-2 text-sm">
                {formatPounds(credit.total)} invoice, {formatPounds(credit.outstanding)} outstanding. Up to what is outstanding comes off the invoice; the rest is credit on account.
              </p>
              <Form method="post" className="grid gap-3" noValidate>
                <input type="hidden" name="intent" value="credit_note" />
                <input type="hidden" name="invoice" value={credit.number} />
                <FormField prefix="credit" id="reason" label="Reason (printed on the credit note)" errors={errs("credit_note")}>
                  <textarea {...fieldProps("credit", "reason", errs("credit_note"))} rows={2} maxLength={1000} defaultValue={val("credit_note", "reason")} className={`${ADMIN_CONTROL} py-2`} />
                </FormField>
                <label className="flex items-center gap-2 text-sm">
                  <input type="checkbox" name="whole" value="yes" defaultChecked={credit.whole_only || val("credit_note", "whole") === "yes"} className="size-5" />
                  Credit everything not yet credited {credit.whole_only ? "(a hire invoice is credited whole)" : "(ignores the quantities below)"}
                </label>
                <FieldError id="credit-lines-error" messages={err("credit_note", "lines")} />
                {credit.whole_only ? null : (
                  <fieldset className="grid gap-2">
                    <legend className="mb-1 text-sm font-semibold">Or choose lines and quantities</legend>
                    {credit.creditable.map((l) => (
                      <label key={l.source} className="grid items-center gap-2 text-sm sm:grid-cols-[1fr_7rem]">
                        <span>
                          {l.description}: {l.remaining} of {l.quantity} can be credited
                        </span>
                        <input name={`qty_${l.source}`} type="number" inputMode="numeric" step="1" min="0" max={l.remaining} disabled={l.remaining === 0} placeholder="0" defaultValue={val("credit_note", `qty_${l.source}`)} aria-label={`Quantity of ${l.description} to credit`} className={ADMIN_CONTROL} />
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
            </section>
          ) : null}

          <section aria-labelledby="invoices-heading">
            <h2 id="invoices-heading" className="mb-2 text-lg font-bold">
              Invoices
            </h2>
            {a.invoices.length === 0 ? (
              <p className={`${card} text-stone-600`}>No invoices yet.</p>
            ) : (
              <div className={STACKED.frame}>
                <table className={STACKED.table}>
                  <thead className={STACKED.head}>
                    <tr>
                      <th scope="col" className="px-3 py-2">Invoice</th>
                      <th scope="col" className="px-3 py-2">Due</th>
                      <th scope="col" className="px-3 py-2 text-right">Total</th>
                      <th scope="col" className="px-3 py-2 text-right">Paid</th>
                      <th scope="col" className="px-3 py-2 text-right">Credited</th>
                      <th scope="col" className="px-3 py-2 text-right">Outstanding</th>
                      <th scope="col" className="px-3 py-2">Status</th>
                      {canMoney ? <th scope="col" className="px-3 py-2"><span className="sr-only">Actions</span></th> : null}
                    </tr>
                  </thead>
                  <tbody className={STACKED.body}>
                    {a.invoices.map((i) => (
                      <tr key={i.number} className={`${STACKED.row} max-lg:bg-white`}>
                        <td className={STACKED.cell} data-label="Invoice">
                          <span>
                            <strong>{i.number}</strong>
                            <span className="block text-xs text-stone-600">
                              {i.source}
                              {i.po_reference ? ` · PO ${i.po_reference}` : ""} · {i.invoice_date}
                            </span>
                          </span>
                        </td>
                        <td className={STACKED.cell} data-label="Due">
                          <span className={i.overdue ? "font-semibold text-red-800" : ""}>
                            {formatDay(i.due_date)}
                            {i.overdue ? " (overdue)" : ""}
                          </span>
                        </td>
                        <td className={`${STACKED.cell} lg:text-right`} data-label="Total"><span>{formatPounds(i.total)}</span></td>
                        <td className={`${STACKED.cell} lg:text-right`} data-label="Paid"><span>{formatPounds(i.paid)}</span></td>
                        <td className={`${STACKED.cell} lg:text-right`} data-label="Credited"><span>{formatPounds(i.credited)}</span></td>
                        <td className={`${STACKED.cell} lg:text-right`} data-label="Outstanding"><span className="font-semibold">{formatPounds(i.outstanding)}</span></td>
                        <td className={STACKED.cell} data-label="Status"><span>{INVOICE_STATUS_LABELS[i.status]}</span></td>
                        {canMoney ? (
                          <td className={STACKED.cell} data-label="Actions">
                            <Link to={`?credit=${encodeURIComponent(i.number)}#credit-note`} className="link">
                              Credit note<span className="sr-only"> for {i.number}</span>
                            </Link>
                          </td>
                        ) : null}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>

          <section aria-labelledby="payments-heading" className={card}>
            <h2 id="payments-heading" className="mb-2 text-lg font-bold">
              Payments
            </h2>
            {a.payments.length === 0 ? (
              <p className="text-sm text-stone-600">No payments yet.</p>
            ) : (
              <ul className="grid gap-2 text-sm">
                {a.payments.map((p) => (
                  <li key={p.number} className="border-l-2 border-stone-300 pl-3">
                    <strong>{p.number}</strong> · {formatPounds(p.amount)} by {PAYMENT_METHOD_LABELS[p.method]} on {formatDay(p.received_on)}
                    {p.reference ? ` · ${p.reference}` : ""}
                    <span className="block text-stone-700">
                      {p.allocations.length ? p.allocations.map((x) => `${x.invoice_number} ${formatPounds(x.amount)}`).join(", ") : "Not allocated"}
                      {p.unallocated > 0 ? ` · ${formatPounds(p.unallocated)} on account` : ""}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </section>

          <section aria-labelledby="credit-notes-heading" className={card}>
            <h2 id="credit-notes-heading" className="mb-2 text-lg font-bold">
              Credit notes
            </h2>
            {a.credit_notes.length === 0 ? (
              <p className="text-sm text-stone-600">No credit notes yet.{canMoney ? " Issue one from an invoice's “Credit note” link." : ""}</p>
            ) : (
              <ul className="grid gap-2 text-sm">
                {a.credit_notes.map((n) => (
                  <li key={n.number} className="border-l-2 border-stone-300 pl-3">
                    <a href={`/api/admin/trade/credit-notes/${n.number}.pdf`} className="link font-semibold">
                      {n.number} (PDF)
                    </a>{" "}
                    · {formatPounds(n.total)} against {n.invoice_number} on {formatDay(n.issued_on)}
                    {n.on_account > 0 ? ` · ${formatPounds(n.on_account)} on account` : ""}
                    <span className="block text-stone-700">{n.reason}</span>
                  </li>
                ))}
              </ul>
            )}
          </section>

          <AuditHistory entries={a.audit} />
        </div>

        <div className="grid content-start gap-4 xl:col-start-2 xl:row-start-1">
          {canTrade ? (
            <section aria-labelledby="hold-heading" className={card}>
              <h2 id="hold-heading" className="mb-2 text-lg font-bold">
                Hold
              </h2>
              {a.on_hold ? (
                <Form method="post" className="grid gap-2">
                  <input type="hidden" name="intent" value="release" />
                  <p className="text-sm">
                    {a.hold_reason === "overdue" ? "On hold because an invoice is overdue; it lifts by itself once nothing is overdue." : "Put on hold by staff."}
                    {a.held_at ? ` Since ${formatDateTime(a.held_at)}.` : ""}
                  </p>
                  <button type="submit" className="btn-primary" disabled={busy}>
                    Release the hold
                  </button>
                </Form>
              ) : (
                <Form method="post" className="grid gap-2" noValidate>
                  <input type="hidden" name="intent" value="hold" />
                  <FormField prefix="hold" id="reason" label="Reason (kept in the notes)" errors={errs("hold")}>
                    <textarea {...fieldProps("hold", "reason", errs("hold"))} rows={2} maxLength={1000} defaultValue={val("hold", "reason")} className={`${ADMIN_CONTROL} py-2`} />
                  </FormField>
                  <button type="submit" className={dangerButton} disabled={busy}>
                    Put on hold
                  </button>
                </Form>
              )}
            </section>
          ) : null}

          <section aria-labelledby="terms-heading" className={card}>
            <h2 id="terms-heading" className="mb-2 text-lg font-bold">
              Terms
            </h2>
            {canTrade ? (
              <Form method="post" className="grid gap-2" noValidate>
                <input type="hidden" name="intent" value="terms" />
                {(
                  [
                    ["credit_limit", "Credit limit (£)", String(a.credit_limit), "0.01"],
                    ["terms_days", "Payment terms (days)", String(a.terms_days), "1"],
                    ["discount_percent", "Trade discount (%)", String(a.discount_percent), "0.01"],
                  ] as const
                ).map(([name, label, current, step]) => (
                  <label key={name} className="grid gap-1 text-sm font-semibold">
                    {label}
                    <FieldError id={`terms-${name}-error`} messages={err("terms", name)} />
                    <input
                      name={name}
                      type="number"
                      inputMode="decimal"
                      step={step}
                      min="0"
                      defaultValue={val("terms", name, current)}
                      aria-invalid={err("terms", name) ? true : undefined}
                      aria-describedby={err("terms", name) ? `terms-${name}-error` : undefined}
                      className={ADMIN_CONTROL}
                    />
                  </label>
                ))}
                <label className="flex items-center gap-2 text-sm">
                  <input type="checkbox" name="po_required" value="yes" defaultChecked={failed?.intent === "terms" ? failed.values.po_required === "yes" : a.po_required} className="size-5" />
                  PO reference required on orders on account
                </label>
                <button type="submit" className="btn-primary" disabled={busy}>
                  Save terms
                </button>
              </Form>
            ) : (
              <p className="text-sm">
                {formatPounds(a.credit_limit)} limit, {a.terms_days} days, {a.discount_percent}% discount{a.po_required ? ", PO required" : ""}.
              </p>
            )}
          </section>

          <section aria-labelledby="members-heading" className={`${card} text-sm`}>
            <h2 id="members-heading" className="mb-2 text-lg font-bold">
              Members
            </h2>
            <ul className="grid gap-1">
              {a.members.map((m) => (
                <li key={m.email}>
                  {m.name} <span className="break-all text-stone-600">&lt;{m.email}&gt;</span> · {m.role}
                </li>
              ))}
            </ul>
            <p className="mt-2 text-stone-700">
              {a.trade} · {a.address.join(", ")} · {a.phone}
              {a.company_number ? ` · Companies House ${a.company_number}` : ""}
              {a.vat_number ? ` · VAT ${a.vat_number}` : ""}
            </p>
          </section>

          <section aria-labelledby="sites-heading" className={`${card} text-sm`}>
            <h2 id="sites-heading" className="mb-2 text-lg font-bold">
              Sites
            </h2>
            {a.sites.length ? (
              <ul className="grid gap-2" data-testid="account-sites">
                {a.sites.map((s) => (
                  <li key={s.id} className={s.archived ? "text-stone-600" : undefined}>
                    <span className="font-semibold">{s.name}</span>
                    {s.archived ? " (archived)" : ""} · {[s.line1, s.line2, s.town, s.postcode].filter(Boolean).join(", ")}
                    {s.contact_name || s.contact_phone ? ` · ${[s.contact_name, s.contact_phone].filter(Boolean).join(", ")}` : ""}
                    {s.po_prefix ? ` · PO starts ${s.po_prefix}` : s.po_required ? " · PO required" : ""}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-stone-700">No sites: the company&rsquo;s owners and admins add them on the storefront.</p>
            )}
          </section>

          <section aria-labelledby="notes-heading" className={card}>
            <h2 id="notes-heading" className="mb-2 text-lg font-bold">
              Notes
            </h2>
            {canTrade ? (
              <Form method="post" className="mb-3 grid gap-2" noValidate>
                <input type="hidden" name="intent" value="note" />
                <FormField prefix="note" id="body" label="New note (staff only)" errors={errs("note")}>
                  <textarea {...fieldProps("note", "body", errs("note"))} rows={3} maxLength={4000} defaultValue={val("note", "body")} className={`${ADMIN_CONTROL} py-2`} />
                </FormField>
                <button type="submit" className="btn-secondary" disabled={busy}>
                  Add note
                </button>
              </Form>
            ) : null}
            {a.notes.length === 0 ? (
              <p className="text-sm text-stone-600">No notes yet.</p>
            ) : (
              <ol className="grid gap-2 text-sm">
                {a.notes.map((n) => (
                  <li key={n.id} className="border-l-2 border-stone-300 pl-3">
                    <p className="whitespace-pre-line">{n.body}</p>
                    <p className="text-stone-600">
                      {n.staff_name}, <time dateTime={n.created_at}>{formatDateTime(n.created_at)}</time>
                    </p>
                  </li>
                ))}
              </ol>
            )}
          </section>
        </div>
      </div>
    </>
  );
}

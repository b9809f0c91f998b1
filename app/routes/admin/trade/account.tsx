import { Form, Link, data, useNavigation } from "react-router";
import { appContext } from "#app-context";
import { AuditHistory } from "../../../components/admin/audit-entries.tsx";
import { ADMIN_CONTROL, FormField, fieldProps } from "../../../components/admin/form-field.tsx";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { HoldBadge } from "../../../components/admin/hold-badge.tsx";
import { ActionResultBanner } from "../../../components/admin/result-banner.tsx";
import { MoneyCell } from "../../../components/admin/cells.tsx";
import { ConfirmWithReason } from "../../../components/admin/confirm-with-reason.tsx";
import { DataTable } from "../../../components/admin/table-or-cards.tsx";
import { TermsFields } from "../../../components/admin/terms-fields.tsx";
import { CreditNoteForm, type FormMemory, RecordPayment, UseCredit } from "../../../components/admin/trade-account-money.tsx";
import { idParam, notFoundOr, requireSameOrigin, serviceError } from "../../../lib/admin/access.ts";
import { formatDate, formatDateTime, formatDay } from "../../../lib/admin/format.ts";
import { requireTradeDesk, termsFormErrors } from "../../../lib/admin/trade-desk.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { formatPounds } from "../../../lib/money.ts";
import { can } from "../../../../server/modules/staff/permissions.ts";
import { ACCOUNT_STATE_LABELS, INVOICE_STATUS_LABELS, PAYMENT_METHOD_LABELS } from "../../../../server/modules/trade/desk-labels.ts";
import type { Route } from "./+types/account";
import { Figures, Panel } from "../../../components/admin/panel.tsx";

export const meta: Route.MetaFunction = ({ matches, params }) => pageMeta(matches, `Trade account #${params.id}`);

const METHODS = ["bacs", "cheque", "card", "cash"] as const;

/** The account's number from the path; anything else is no account. */
const idFrom = (param: string) => idParam(param, "No such trade account.");


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


export default function TradeAccount({ loaderData, actionData }: Route.ComponentProps) {
  const { account: a, credit, canTrade, canMoney } = loaderData;
  const result = actionData as ActionResult | undefined;
  const failed = result && !result.ok ? result : undefined;
  const busy = useNavigation().state === "submitting";
  const errs = (intent: Intent) => (failed?.intent === intent ? failed.errors : undefined);
  const err = (intent: Intent, name: string) => errs(intent)?.[name];
  const val = (intent: Intent, name: string, fallback = "") => (failed?.intent === intent ? (failed.values[name] ?? "") : fallback);
  const open = a.invoices.filter((i) => i.outstanding > 0);
  const memory = (intent: Intent): FormMemory => ({ errors: errs(intent), err: (name) => err(intent, name), val: (name, fallback) => val(intent, name, fallback) });
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Trade accounts", to: "/admin/trade" }, { label: a.company_name }]}
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
      <ActionResultBanner result={result} />

      <Figures
        className="grid-cols-2 sm:grid-cols-4"
        testId="trade-account-figures"
        items={[
          ["Balance", a.balance < 0 ? `${formatPounds(-a.balance)} in credit` : formatPounds(a.balance)],
          ["Credit limit", formatPounds(a.credit_limit)],
          ["Available", formatPounds(a.available_credit)],
          ["Overdue", a.overdue > 0 ? `${formatPounds(a.overdue)} (${a.overdue_days} days)` : "None"],
        ]}
      />

      <div className="grid gap-4 xl:grid-cols-[1fr_22rem]">
        {/* The payment form and invoices come first in the page's order, so a phone shows them before terms and notes; a wide screen's grid puts the panels on the right. */}
        <div className="grid min-w-0 content-start gap-4 xl:col-start-1 xl:row-start-1">
          {canMoney && a.remittances_waiting.length > 0 ? (
            <Panel id="remittances-heading" title="Remittances waiting">
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
            </Panel>
          ) : null}

          {canMoney ? <RecordPayment open={open} methods={METHODS.map((m) => [m, PAYMENT_METHOD_LABELS[m]] as const)} memory={memory("payment")} busy={busy} /> : null}

          {canMoney && a.unallocated_credit > 0 && open.length > 0 ? <UseCredit open={open} credit={a.unallocated_credit} memory={memory("allocate_credit")} busy={busy} /> : null}

          {canMoney && credit ? <CreditNoteForm credit={credit} memory={memory("credit_note")} busy={busy} /> : null}

          <section aria-labelledby="invoices-heading">
            <h2 id="invoices-heading" className="mb-2 text-lg font-bold">
              Invoices
            </h2>
            {a.invoices.length === 0 ? (
              <p className="rounded-lg border border-stone-200 bg-white p-4 text-stone-600">No invoices yet.</p>
            ) : (
              <DataTable
                caption="Invoices"
                rows={a.invoices}
                rowKey={(i) => i.number}
                rowProps={() => ({ className: "max-lg:bg-white" })}
                columns={[
                  {
                    label: "Invoice",
                    cell: (i) => (
                      <span>
                        <strong>{i.number}</strong>
                        <span className="block text-xs text-stone-600">
                          {i.source}
                          {i.po_reference ? ` · PO ${i.po_reference}` : ""} · {i.invoice_date}
                        </span>
                      </span>
                    ),
                  },
                  {
                    label: "Due",
                    cell: (i) => (
                      <span className={i.overdue ? "font-semibold text-red-800" : ""}>
                        {formatDay(i.due_date)}
                        {i.overdue ? " (overdue)" : ""}
                      </span>
                    ),
                  },
                  { label: "Total", numeric: true, cell: (i) => <MoneyCell pounds={i.total} /> },
                  { label: "Paid", numeric: true, cell: (i) => <MoneyCell pounds={i.paid} /> },
                  { label: "Credited", numeric: true, cell: (i) => <MoneyCell pounds={i.credited} /> },
                  { label: "Outstanding", numeric: true, cell: (i) => <MoneyCell pounds={i.outstanding} className="font-semibold" /> },
                  { label: "Status", cell: (i) => INVOICE_STATUS_LABELS[i.status] },
                  canMoney && {
                    label: "Actions",
                    header: <span className="sr-only">Actions</span>,
                    cell: (i) => (
                      <Link to={`?credit=${encodeURIComponent(i.number)}#credit-note`} className="link">
                        Credit note<span className="sr-only"> for {i.number}</span>
                      </Link>
                    ),
                  },
                ]}
              />
            )}
          </section>

          <Panel id="payments-heading" title="Payments" empty={a.payments.length === 0 && "No payments yet."}>
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
          </Panel>

          <Panel id="credit-notes-heading" title="Credit notes" empty={a.credit_notes.length === 0 && `No credit notes yet.${canMoney ? " Issue one from an invoice's “Credit note” link." : ""}`}>
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
          </Panel>

          <AuditHistory entries={a.audit} />
        </div>

        <div className="grid content-start gap-4 xl:col-start-2 xl:row-start-1">
          {canTrade ? (
            <Panel id="hold-heading" title="Hold">
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
                <ConfirmWithReason id="hold" fields={{ intent: "hold" }} reason={{ label: "Reason (kept in the notes)", maxLength: 1000, value: val("hold", "reason") }} errors={errs("hold")} button="Put on hold" busy={busy} noValidate />
              )}
            </Panel>
          ) : null}

          <Panel id="terms-heading" title="Terms">
            {canTrade ? (
              <Form method="post" className="grid gap-2" noValidate>
                <input type="hidden" name="intent" value="terms" />
                <TermsFields
                  idPrefix="terms"
                  fields={[
                    ["credit_limit", "Credit limit (£)", String(a.credit_limit), "0.01"],
                    ["terms_days", "Payment terms (days)", String(a.terms_days), "1"],
                    ["discount_percent", "Trade discount (%)", String(a.discount_percent), "0.01"],
                  ]}
                  err={(name) => err("terms", name)}
                  val={(name, fallback) => val("terms", name, fallback)}
                />
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
          </Panel>

          <Panel id="members-heading" title="Members" className="text-sm">
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
          </Panel>

          <Panel id="sites-heading" title="Sites" className="text-sm">
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
          </Panel>

          <Panel id="notes-heading" title="Notes">
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
          </Panel>
        </div>
      </div>
    </>
  );
}

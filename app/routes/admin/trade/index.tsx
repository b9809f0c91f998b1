import { Form, Link, data, useNavigation } from "react-router";
import { appContext } from "#app-context";
import { ADMIN_CONTROL, FormField, fieldProps } from "../../../components/admin/form-field.tsx";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { HoldBadge } from "../../../components/admin/hold-badge.tsx";
import { KeysetPager } from "../../../components/admin/pager.tsx";
import { ActionResultBanner } from "../../../components/admin/result-banner.tsx";
import { TermsFields } from "../../../components/admin/terms-fields.tsx";
import { requireSameOrigin, serviceError } from "../../../lib/admin/access.ts";
import { formatDate, withParam } from "../../../lib/admin/format.ts";
import { requireTradeDesk, termsFormErrors } from "../../../lib/admin/trade-desk.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { formatPounds } from "../../../lib/money.ts";
import { can } from "../../../../server/modules/staff/permissions.ts";
import { ACCOUNT_SORTS, ACCOUNT_SORT_LABELS, ACCOUNT_STATE_LABELS, isAccountSort, tradeAccountHref } from "../../../../server/modules/trade/desk-labels.ts";
import type { Route } from "./+types/index";
import { DataTable } from "../../../components/admin/table-or-cards.tsx";
import { MoneyCell } from "../../../components/admin/cells.tsx";
import { FilterCheck, FilterForm, FilterSearch, FilterSelect } from "../../../components/admin/filter-form.tsx";
import { ConfirmWithReason } from "../../../components/admin/confirm-with-reason.tsx";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Trade accounts");

const STATES = ["pending", "approved", "declined", "suspended"] as const;
type State = (typeof STATES)[number];

/** trade.manage or invoices.manage opens the desk; the service checks again. */

export async function loader({ context, request }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const actor = requireTradeDesk(app.staff, request);
  const url = new URL(request.url);
  const p = url.searchParams;
  const sort = isAccountSort(p.get("sort")) ? (p.get("sort") as (typeof ACCOUNT_SORTS)[number]) : "overdue";
  const state = STATES.includes(p.get("state") as State) ? (p.get("state") as State) : undefined;
  const onHold = p.get("on_hold") === "true" ? true : undefined;
  const q = p.get("q")?.trim().slice(0, 100) || undefined;
  const cursor = p.get("cursor")?.slice(0, 500) || undefined;
  const desk = app.services.tradeDesk;
  const canTrade = can(actor.role, "trade.manage");
  let accounts;
  try {
    accounts = await desk.accounts(actor, { sort, state, on_hold: onHold, q, cursor });
  } catch (error) {
    // A cursor from an old link: the first page instead.
    if (serviceError(error)?.status !== 422) throw error;
    accounts = await desk.accounts(actor, { sort, state, on_hold: onHold, q });
  }
  return {
    search: url.search,
    sort,
    state: state ?? "",
    onHold: onHold ?? false,
    q: q ?? "",
    cursor,
    accounts,
    applications: canTrade ? await desk.applications(actor) : [],
    canTrade,
  };
}

type Intent = "approve" | "decline" | "request_info";
type ActionResult = { ok: true; message: string } | { ok: false; intent: Intent; id: number; message: string; errors: Record<string, string[]>; values: Record<string, string> };

/** Decisions on applications; the service checks trade.manage and audits each. */
export async function action({ context, request }: Route.ActionArgs) {
  requireSameOrigin(request);
  const app = context.get(appContext);
  const actor = requireTradeDesk(app.staff, request);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "") as Intent;
  const id = Number(form.get("id"));
  const values = Object.fromEntries(["credit_limit", "terms_days", "discount_percent", "po_required", "reason", "message"].map((k) => [k, String(form.get(k) ?? "").slice(0, 2000)]));
  const num = (v: string) => (v.trim() === "" ? Number.NaN : Number(v));
  const desk = app.services.tradeDesk;
  try {
    if (!Number.isSafeInteger(id) || id <= 0) throw new Response("No such application.", { status: 404 });
    if (intent === "approve") {
      const done = await desk.approve(actor, id, { credit_limit: num(values.credit_limit!), terms_days: num(values.terms_days!), discount_percent: num(values.discount_percent!), po_required: values.po_required === "yes" });
      return data<ActionResult>({ ok: true, message: `${done.company_name} is approved: credit limit ${formatPounds(done.credit_limit)}, ${done.terms_days} days. The applicant is emailed.` });
    }
    if (intent === "decline") {
      const done = await desk.decline(actor, id, values.reason!);
      return data<ActionResult>({ ok: true, message: `${done.company_name}'s application is declined. The applicant is emailed the reason.` });
    }
    if (intent === "request_info") {
      const done = await desk.requestInfo(actor, id, values.message!);
      return data<ActionResult>({ ok: true, message: `We asked ${done.company_name} for more information; the application stays waiting.` });
    }
    return data<ActionResult>({ ok: false, intent: "approve", id, message: "Choose what to do with the application.", errors: {}, values }, { status: 422 });
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    const errors = termsFormErrors(known.errors);
    return data<ActionResult>({ ok: false, intent, id, message: known.errors ? "Check the details below." : known.message, errors, values }, { status: known.status });
  }
}


/** Credit used as a bar, with the same in words for screen readers and anyone who cannot see the bar. */
function CreditBar({ balance, limit }: { balance: number; limit: number }) {
  const used = Math.max(balance, 0);
  const percent = limit > 0 ? Math.min(100, Math.round((used / limit) * 100)) : used > 0 ? 100 : 0;
  const tone = percent >= 90 ? "bg-red-700" : percent >= 70 ? "bg-amber-600" : "bg-green-700";
  return (
    <div className="grid gap-1">
      <div className="h-2 w-full max-w-40 overflow-hidden rounded bg-stone-200" aria-hidden="true">
        <div className={`h-full ${tone}`} style={{ width: `${percent}%` }} />
      </div>
      <span className="text-xs text-stone-700">
        {formatPounds(used)} of {formatPounds(limit)} ({percent}%)
      </span>
    </div>
  );
}

export default function TradeDesk({ loaderData, actionData }: Route.ComponentProps) {
  const { accounts, applications, canTrade, sort, state, onHold, q, cursor, search } = loaderData;
  const result = actionData as ActionResult | undefined;
  const failed = result && !result.ok ? result : undefined;
  const busy = useNavigation().state === "submitting";
  const params = new URLSearchParams(search);
  const errorsOf = (id: number, intent: Intent) => (failed && failed.id === id && failed.intent === intent ? failed.errors : undefined);
  const field = (id: number, intent: Intent, name: string) => errorsOf(id, intent)?.[name];
  const value = (id: number, intent: Intent, name: string, fallback = "") => (failed && failed.id === id && failed.intent === intent ? failed.values[name] : fallback);
  return (
    <>
      <PageHeader
        title="Trade accounts"
        intro="Applications waiting for a decision, and every trade account with what it owes."
        links={[{ to: "/admin/trade/aged-debt", label: "Aged debt" }]}
      />
      <ActionResultBanner result={result} />

      {canTrade ? (
        <section aria-labelledby="applications-heading" className="mb-6">
          <h2 id="applications-heading" className="mb-3 text-lg font-bold">
            Applications waiting ({applications.length})
          </h2>
          {applications.length === 0 ? (
            <p className="text-stone-600">No applications are waiting.</p>
          ) : (
            <ul className="grid gap-4 lg:grid-cols-2">
              {applications.map((a) => (
                <li key={a.id} className="rounded-lg border border-stone-200 bg-white p-4" data-testid="trade-application">
                  <h3 className="text-base font-bold">{a.company_name}</h3>
                  <p className="text-sm text-stone-700">
                    {a.trade} · {a.company_type.replace("_", " ")}
                    {a.company_number ? ` · Companies House ${a.company_number}` : ""}
                    {a.vat_number ? ` · VAT ${a.vat_number}` : ""}
                  </p>
                  <p className="text-sm">
                    {a.applicant.name} &lt;{a.applicant.email}&gt; · {a.phone} · applied {formatDate(a.applied_at)}
                  </p>
                  <p className="text-sm">{a.address}</p>
                  <p className="text-sm">
                    Expects to spend {formatPounds(a.expected_monthly_spend)} a month; asks for a {formatPounds(a.requested_credit_limit)} credit limit.
                  </p>
                  {a.info_requested_at ? (
                    <p className="mt-1 rounded bg-amber-50 p-2 text-sm text-amber-950">
                      Information asked for on {formatDate(a.info_requested_at)}: {a.decision_note}
                    </p>
                  ) : null}
                  <Form method="post" className="mt-3 grid gap-2 border-t border-stone-200 pt-3 sm:grid-cols-2" noValidate>
                    <input type="hidden" name="intent" value="approve" />
                    <input type="hidden" name="id" value={a.id} />
                    <TermsFields
                      idPrefix={`app-${a.id}`}
                      fields={[
                        ["credit_limit", "Credit limit (£)", String(a.requested_credit_limit), "0.01"],
                        ["terms_days", "Terms (days)", "30", "1"],
                        ["discount_percent", "Discount (%)", "0", "0.01"],
                      ]}
                      err={(name) => field(a.id, "approve", name)}
                      val={(name, fallback) => value(a.id, "approve", name, fallback)}
                    />
                    <label className="flex items-center gap-2 self-end text-sm">
                      <input type="checkbox" name="po_required" value="yes" defaultChecked={value(a.id, "approve", "po_required") === "yes"} className="size-5" />
                      PO reference required
                    </label>
                    <button type="submit" className="btn-primary sm:col-span-2" disabled={busy}>
                      Approve {a.company_name}
                    </button>
                  </Form>
                  <div className="mt-3 grid gap-3 border-t border-stone-200 pt-3 sm:grid-cols-2">
                    <Form method="post" className="grid content-start gap-1" noValidate>
                      <input type="hidden" name="intent" value="request_info" />
                      <input type="hidden" name="id" value={a.id} />
                      <FormField prefix={`app-${a.id}-ask`} id="message" label="Ask for information (emailed)" errors={errorsOf(a.id, "request_info")}>
                        <textarea {...fieldProps(`app-${a.id}-ask`, "message", errorsOf(a.id, "request_info"))} rows={2} maxLength={2000} defaultValue={value(a.id, "request_info", "message")} className={`${ADMIN_CONTROL} py-2`} />
                      </FormField>
                      <button type="submit" className="btn-secondary" disabled={busy}>
                        Ask the applicant
                      </button>
                    </Form>
                    <ConfirmWithReason
                      id={`app-${a.id}-decline`}
                      className="content-start"
                      fields={{ intent: "decline", id: a.id }}
                      reason={{ label: "Reason for declining (emailed)", maxLength: 1000, value: value(a.id, "decline", "reason") }}
                      errors={errorsOf(a.id, "decline")}
                      button="Decline"
                      busy={busy}
                      noValidate
                    />
                  </div>
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}

      <section aria-labelledby="accounts-heading">
        <h2 id="accounts-heading" className="mb-3 text-lg font-bold">
          Accounts
        </h2>
        <FilterForm label="Filter trade accounts" keep={{ sort }} className="mb-3 sm:grid-cols-2 lg:grid-cols-[2fr_1fr]" buttonsClassName="sm:col-span-2 lg:col-span-2" extra={<FilterCheck name="on_hold" label="On hold only" checked={onHold} value="true" />}>
          <FilterSearch value={q} label="Company or accounts email" placeholder="Company name or email" />
          <FilterSelect name="state" label="State" value={state} options={STATES.map((s) => [s, ACCOUNT_STATE_LABELS[s]] as const)} />
        </FilterForm>
        <nav aria-label="Sort accounts" className="mb-3 flex flex-wrap gap-2 text-sm">
          <span className="font-semibold">Sort by:</span>
          {ACCOUNT_SORTS.map((s) => (
            <Link key={s} to={withParam(params, { sort: s, cursor: null }) || "?"} aria-current={s === sort ? "true" : undefined} className={s === sort ? "font-bold underline" : "link"}>
              {ACCOUNT_SORT_LABELS[s]}
            </Link>
          ))}
        </nav>
        {accounts.data.length === 0 ? (
          <p className="rounded-lg border border-stone-200 bg-white p-4 text-stone-600">{q || state || onHold ? "No trade accounts match." : "No trade accounts yet."}</p>
        ) : (
          <DataTable
            caption={`Trade accounts, sorted by ${ACCOUNT_SORT_LABELS[sort].toLowerCase()}`}
            rows={accounts.data}
            rowKey={(a) => a.id}
            rowProps={() => ({ className: "max-lg:bg-white", "data-testid": "trade-account-row" })}
            columns={[
              {
                label: "Company",
                cell: (a) => (
                  <span>
                    <Link to={tradeAccountHref(a.id)} className="link font-semibold">
                      {a.company_name}
                    </Link>
                    <span className="block break-all text-xs text-stone-600">{a.accounts_email}</span>
                  </span>
                ),
              },
              { label: "State", cell: (a) => ACCOUNT_STATE_LABELS[a.state] },
              { label: "Balance", numeric: true, cell: (a) => (a.balance < 0 ? <span><MoneyCell pounds={-a.balance} /> in credit</span> : <MoneyCell pounds={a.balance} />) },
              { label: "Credit used", cell: (a) => <CreditBar balance={a.balance} limit={a.credit_limit} /> },
              {
                label: "Overdue",
                numeric: true,
                cell: (a) => <span className={a.overdue > 0 ? "font-semibold text-red-800" : ""}>{a.overdue > 0 ? `${formatPounds(a.overdue)}, ${a.overdue_days} ${a.overdue_days === 1 ? "day" : "days"}` : "None"}</span>,
              },
              { label: "Hold", cell: (a) => (a.on_hold ? <HoldBadge reason={a.hold_reason} /> : <span className="text-stone-600">—</span>) },
            ]}
          />
        )}
        <KeysetPager search={params} cursor={cursor} nextCursor={accounts.next_cursor} />
      </section>
    </>
  );
}

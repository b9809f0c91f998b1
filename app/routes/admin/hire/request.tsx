import { Form, data, useNavigation } from "react-router";
import { AuditHistory } from "../../../components/admin/audit-entries.tsx";
import { FieldError } from "../../../components/admin/field-error.tsx";
import { ADMIN_CONTROL, type FieldErrors, FormField, fieldProps } from "../../../components/admin/form-field.tsx";
import { ConfirmWithReason } from "../../../components/admin/confirm-with-reason.tsx";
import { CHARGE_ROWS, ChargeFields, HandOverForm, ReturnForm, ServiceForm, UNIT_STATE } from "../../../components/admin/hire-request-forms.tsx";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { Panel } from "../../../components/admin/panel.tsx";
import { ActionResultBanner } from "../../../components/admin/result-banner.tsx";
import { StatusBadge } from "../../../components/admin/status-badge.tsx";
import { notFoundOr, serviceError } from "../../../lib/admin/access.ts";
import { formatDateTime } from "../../../lib/admin/format.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { formatPounds } from "../../../lib/money.ts";
import { hireStatusLabel } from "../../../../server/modules/hire/desk-labels.ts";
import type { Route } from "./+types/request";
import { staffPost, staffScreen } from "../../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches, params }) => pageMeta(matches, `Hire request ${params.number.toUpperCase()}`);

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "hire.desk");
  const hire = await app.services.hireOperations.show(actor, params.number.toUpperCase()).catch(notFoundOr);
  return { hire, audit: await app.services.audit.forEntity("hire_request", hire.number) };
}

/** Which form answered, and for which unit, so its errors show beside its own fields. */
type ActionResult = { ok: true; message: string } | { ok: false; intent: string; target: string; message: string; errors: Record<string, string[]>; values: Record<string, string> };


/** Each form posts an `intent`; the hire desk's service checks `hire.desk`, the state and every field, as the API does. */
export async function action({ context, request, params }: Route.ActionArgs) {
  const { app, actor, form } = await staffPost(context, request, "hire.desk");
  const { parseInput } = await import("../../../../server/http-errors.ts");
  const contract = await import("../../../../server/modules/hire/desk/contract.ts");
  const ops = app.services.hireOperations;
  const number = params.number.toUpperCase();
  const text = (name: string, max = 2000) => String(form.get(name) ?? "").slice(0, max).trim();
  const optional = (name: string, max = 2000) => text(name, max) || undefined;
  const intent = text("intent", 20);
  const target = text("target", 20);
  let chargeRows: number[] = [];
  try {
    switch (intent) {
      case "approve": {
        const current = await ops.show(actor, number);
        const lines = current.lines.flatMap((l) => {
          const start = text(`line_${l.id}_start`, 10);
          const end = text(`line_${l.id}_end`, 10);
          const assets = text(`line_${l.id}_assets`, 1000).split(/[\s,]+/).filter(Boolean);
          const price = text(`line_${l.id}_price`, 20).replace(/[£,\s]/g, "");
          const change = {
            ...(start && start !== l.start_date ? { start_date: start } : {}),
            ...(end && end !== l.end_date ? { end_date: end } : {}),
            ...(assets.length && assets.join(",") !== l.units.map((u) => u.asset_number).join(",") ? { asset_numbers: assets } : {}),
            ...(price && Number(price) !== l.hire_cost ? { hire_cost: price } : {}),
          };
          return Object.keys(change).length ? [{ line_id: l.id, ...change }] : [];
        });
        const body = parseInput(contract.approveBody, { reason: optional("reason", 1000), lines });
        await ops.approve(actor, number, body);
        return data<ActionResult>({ ok: true, message: `${number} is approved. The customer has been emailed.` });
      }
      case "decline":
        await ops.decline(actor, number, parseInput(contract.declineBody, { reason: text("reason", 1000) }).reason);
        return data<ActionResult>({ ok: true, message: `${number} is declined and its units are free. The customer has been emailed.` });
      case "propose": {
        const body = parseInput(contract.proposeBody, { start_date: text("start_date", 10), end_date: text("end_date", 10), message: optional("message", 1000) });
        await ops.propose(actor, number, body);
        return data<ActionResult>({ ok: true, message: `Other dates (${body.start_date} to ${body.end_date}) emailed to the customer; the request keeps waiting.` });
      }
      case "hand_over": {
        const body = parseInput(contract.handOverBody, {
          allocation_id: target,
          asset_number: text("asset_number", 40),
          condition: text("condition"),
          accessories: optional("accessories", 1000),
          id_checked: text("id_checked", 5) === "yes",
          id_type: optional("id_type", 100),
        });
        const done = await ops.handOver(actor, number, body);
        return data<ActionResult>({ ok: true, message: `Unit ${done.asset_number} handed over under agreement ${done.agreement_number}. The agreement is emailed to the customer; print it below to sign.` });
      }
      case "off_hire": {
        const done = await ops.offHire(actor, number, parseInput(contract.offHireBody, { date: optional("date", 10), note: optional("note", 1000) }));
        return data<ActionResult>({ ok: true, message: `Off-hired from ${done.off_hire_on}: reference ${done.references.join(", ")}. Charging stops on that day; the customer has been emailed.` });
      }
      case "return": {
        const rows = Array.from({ length: CHARGE_ROWS }, (_, i) => ({
          row: i,
          kind: text(`charge_${i}_kind`, 20),
          description: optional(`charge_${i}_description`, 300),
          reason: text(`charge_${i}_reason`, 1000),
          amount: text(`charge_${i}_amount`, 20).replace(/[£,\s]/g, ""),
        })).filter((c) => c.kind || c.amount || c.reason);
        // Errors name a charge by its place among the rows filled in: back to the row on the form.
        chargeRows = rows.map((r) => r.row);
        const charges = rows.map(({ row: _row, ...c }) => c);
        const body = parseInput(contract.returnBody, {
          returned_on: optional("returned_on", 10),
          condition: text("condition"),
          charges,
          service_days: optional("service_days", 4),
          service_reason: optional("service_reason", 500),
        });
        const done = await ops.returnUnit(actor, number, Number(target), body);
        const late = done.late_days ? `, ${done.late_days} late day${done.late_days === 1 ? "" : "s"} ${formatPounds(done.late / 100)}` : "";
        return data<ActionResult>({ ok: true, message: `Unit back in. Hire charged ${formatPounds(done.hire / 100)} for ${done.hire_days} day${done.hire_days === 1 ? "" : "s"}${late} (ex VAT).` });
      }
      case "charge": {
        await ops.addCharge(actor, number, parseInput(contract.chargeBody, { kind: text("kind", 20), description: optional("description", 300), reason: text("reason", 1000), amount: text("amount", 20).replace(/[£,\s]/g, "") }));
        return data<ActionResult>({ ok: true, message: "Charge added." });
      }
      case "transfer": {
        // The unit moves to the request's depot (issue 30): its depot changes, with a history row and the audit log.
        const done = await app.services.hireUnitTransfers.transfer(actor, Number(target), { depot: text("depot", 80), request_number: number, reason: `For hire request ${number}` });
        return data<ActionResult>({ ok: true, message: `Unit ${done.asset_number} moved from ${done.from.name} to ${done.to.name}.` });
      }
      case "service": {
        const done = await ops.sendToService(actor, Number(target), parseInput(contract.serviceBody, { days: text("days", 4), reason: text("reason", 500) }));
        return data<ActionResult>({ ok: true, message: `Unit ${done.asset_number} is in service from ${done.from} until ${done.to}.` });
      }
      case "settle": {
        const method = text("method", 10);
        const done = await ops.settle(actor, number, parseInput(contract.settleBody, { method: method || undefined, note: optional("note", 1000) }));
        const how =
          done.settlement === "account"
            ? `on invoice ${done.invoice_number}`
            : done.settlement === "card" && done.due > 0
              ? `: a card payment link for ${formatPounds(done.due / 100)} is emailed`
              : done.due < 0
                ? `: ${formatPounds(-done.due / 100)} goes back to the customer`
                : "";
        return data<ActionResult>({ ok: true, message: `Final charges ${formatPounds(done.final_total / 100)} settled${how}. The customer has been emailed.` });
      }
      default:
        return data<ActionResult>({ ok: false, intent, target, message: "Choose what to do with the request.", errors: {}, values: {} }, { status: 422 });
    }
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    if (known.status === 404 && intent === "") notFoundOr(error);
    // What was typed comes back, so a refused form shows it again beside its errors.
    const errors = Object.fromEntries(
      Object.entries(known.errors ?? {}).map(([key, messages]) => {
        const m = /^charges\.(\d+)\.(.+)$/.exec(key);
        return [m ? `charges.${chargeRows[Number(m[1])] ?? m[1]}.${m[2]}` : key, messages];
      }),
    );
    const values = Object.fromEntries([...form.entries()].flatMap(([k, v]) => (typeof v === "string" && k.length <= 40 ? [[k, v.slice(0, 2000)]] : [])));
    return data<ActionResult>({ ok: false, intent, target, message: known.errors ? "Check the details below." : known.message, errors, values }, { status: known.status });
  }
}

const textarea = `${ADMIN_CONTROL} py-2`;

export default function AdminHireRequest({ loaderData, actionData }: Route.ComponentProps) {
  const { hire, audit } = loaderData;
  const busy = useNavigation().state === "submitting";
  const result = actionData as ActionResult | undefined;
  /** The errors of this form (and unit), else none. */
  const errorsOf = (intent: string, target = ""): FieldErrors => (result && !result.ok && result.intent === intent && result.target === target ? result.errors : undefined);
  const failed = (intent: string, target = "") => (result && !result.ok && result.intent === intent && result.target === target ? result.message : null);
  /** What was typed into this form before it was refused. */
  const typed = (intent: string, target = ""): Record<string, string> => (result && !result.ok && result.intent === intent && result.target === target ? result.values : {});
  const m = hire.moves;
  const units = hire.lines.flatMap((l) => l.units.map((u) => ({ ...u, line: l })));
  const out = units.filter((u) => u.handover && !u.handover.returned_on);

  return (
    <>
      <PageHeader
        crumbs={[{ label: "Hire desk", to: "/admin/hire" }, { label: "Hire requests", to: "/admin/hire/requests" }, { label: hire.number }]}
        title={`Hire request ${hire.number}`}
        intro={
          <>
            <StatusBadge status={hire.status} label={hireStatusLabel(hire.status)} /> Requested {formatDateTime(hire.created_at)} · {hire.fulfilment === "collection" ? "Collection" : "Delivery"}
            {hire.depot ? ` · depot ${hire.depot.name}` : ""}
            {hire.delivery ? ` · delivery ${formatPounds(hire.delivery.price)} + VAT (${hire.delivery.miles} miles)` : ""}
          </>
        }
        links={[{ to: "/admin/hire/planner", label: "Planner" }]}
      />
      <ActionResultBanner result={result} />

      <div className="grid gap-4 xl:grid-cols-[1fr_24rem]">
        <div className="grid content-start gap-4 xl:col-start-2 xl:row-start-1">
          <Panel id="customer-heading" title="Customer">
            <div className="text-sm">
              <p className="font-semibold">{hire.customer.name}</p>
              {hire.customer.company ? <p>{hire.customer.company}</p> : null}
              <p>
                <a href={`mailto:${hire.customer.email}`} className="link">
                  {hire.customer.email}
                </a>
              </p>
              <p>
                <a href={`tel:${hire.customer.phone.replace(/\s/g, "")}`} className="link">
                  {hire.customer.phone}
                </a>
              </p>
              {hire.customer.trade_account ? <p className="mt-1">Trade account: {hire.customer.trade_account.company_name} (charges go on an invoice)</p> : null}
              {hire.address.length ? <p className="mt-1">Deliver to: {hire.address.join(", ")}</p> : <p className="mt-1">Collection from the branch.</p>}
              {hire.notes ? <p className="mt-2 whitespace-pre-line rounded bg-amber-50 p-2">Customer's note: {hire.notes}</p> : null}
              {hire.proposed ? (
                <p className="mt-2 rounded bg-sky-50 p-2">
                  Other dates offered: {hire.proposed.start_date} to {hire.proposed.end_date}
                  {hire.decision_reason ? ` (${hire.decision_reason})` : ""}
                </p>
              ) : hire.decision_reason ? (
                <p className="mt-2">Desk's note to the customer: {hire.decision_reason}</p>
              ) : null}
            </div>
          </Panel>

          {m.approve ? (
            <Panel id="decide-heading" title="Approve, decline or offer other dates">
              <Form method="post" className="grid gap-3" noValidate>
                <input type="hidden" name="intent" value="approve" />
                <p className="text-sm text-stone-700">Approve as asked, or change a line's dates, units (asset numbers, comma between) or price ex VAT below, saying why.</p>
                {/* A line's dates, units or price are refused as a whole: the words name the line. */}
                <FieldError messages={Object.entries(errorsOf("approve") ?? {}).flatMap(([k, v]) => (k === "reason" ? [] : v))} />
                {hire.lines.map((l) => (
                  <fieldset key={l.id} className="grid gap-2 rounded border border-stone-200 p-3 sm:grid-cols-2">
                    <legend className="px-1 text-sm font-semibold">
                      {l.quantity} × {l.name}
                    </legend>
                    <FormField prefix={`approve-${l.id}`} id="start" label="Start" errors={undefined}>
                      <input type="date" {...fieldProps(`approve-${l.id}`, "start", undefined)} name={`line_${l.id}_start`} defaultValue={l.start_date} className={ADMIN_CONTROL} />
                    </FormField>
                    <FormField prefix={`approve-${l.id}`} id="end" label="Return" errors={undefined}>
                      <input type="date" {...fieldProps(`approve-${l.id}`, "end", undefined)} name={`line_${l.id}_end`} defaultValue={l.end_date} className={ADMIN_CONTROL} />
                    </FormField>
                    <FormField prefix={`approve-${l.id}`} id="assets" label="Units (asset numbers)" errors={undefined}>
                      <input {...fieldProps(`approve-${l.id}`, "assets", undefined)} name={`line_${l.id}_assets`} defaultValue={l.units.map((u) => u.asset_number).join(", ")} className={ADMIN_CONTROL} />
                    </FormField>
                    <FormField prefix={`approve-${l.id}`} id="price" label="Hire price ex VAT (£)" errors={undefined}>
                      <input inputMode="decimal" {...fieldProps(`approve-${l.id}`, "price", undefined)} name={`line_${l.id}_price`} defaultValue={l.hire_cost.toFixed(2)} className={ADMIN_CONTROL} />
                    </FormField>
                  </fieldset>
                ))}
                <FormField prefix="approve" id="reason" label="Reason for any change (the customer is told)" errors={errorsOf("approve")}>
                  <textarea {...fieldProps("approve", "reason", errorsOf("approve"))} defaultValue={typed("approve").reason} rows={2} maxLength={1000} className={textarea} />
                </FormField>
                {failed("approve") && !errorsOf("approve")?.reason ? <p className="text-sm font-semibold text-red-700">{failed("approve")}</p> : null}
                <button type="submit" className="btn-primary justify-self-start" disabled={busy}>
                  Approve
                </button>
              </Form>
              <Form method="post" className="mt-4 grid gap-3 border-t border-stone-200 pt-4" noValidate>
                <input type="hidden" name="intent" value="propose" />
                <h3 className="font-semibold">Offer other dates</h3>
                <div className="grid gap-2 sm:grid-cols-2">
                  <FormField prefix="propose" id="start_date" label="Start" errors={errorsOf("propose")}>
                    <input type="date" {...fieldProps("propose", "start_date", errorsOf("propose"))} defaultValue={typed("propose").start_date} className={ADMIN_CONTROL} />
                  </FormField>
                  <FormField prefix="propose" id="end_date" label="Return" errors={errorsOf("propose")}>
                    <input type="date" {...fieldProps("propose", "end_date", errorsOf("propose"))} defaultValue={typed("propose").end_date} className={ADMIN_CONTROL} />
                  </FormField>
                </div>
                <FormField prefix="propose" id="message" label="Message (optional)" errors={errorsOf("propose")}>
                  <textarea {...fieldProps("propose", "message", errorsOf("propose"))} defaultValue={typed("propose").message} rows={2} maxLength={1000} className={textarea} />
                </FormField>
                <button type="submit" className="btn-secondary justify-self-start" disabled={busy}>
                  Email these dates
                </button>
              </Form>
            </Panel>
          ) : null}

          {m.decline ? (
            <Panel id="decline-heading" title="Decline">
              <ConfirmWithReason id="decline" fields={{ intent: "decline" }} reason={{ label: "Reason (the customer is told)", required: true, maxLength: 1000, value: typed("decline").reason }} errors={errorsOf("decline")} button="Decline the request" busy={busy} noValidate />
            </Panel>
          ) : null}

          {m.off_hire && out.some((u) => !u.handover?.off_hire_on) ? (
            <Panel id="offhire-heading" title="Off-hire">
              <Form method="post" className="grid gap-3" noValidate>
                <input type="hidden" name="intent" value="off_hire" />
                <p className="text-sm text-stone-700">The customer ends the hire (usually by phone). Charging stops on this date for every unit still on hire; each gets a reference, emailed.</p>
                <FormField prefix="offhire" id="date" label="Off-hire date" errors={errorsOf("off_hire")}>
                  <input type="date" {...fieldProps("offhire", "date", errorsOf("off_hire"))} defaultValue={typed("off_hire").date} className={ADMIN_CONTROL} />
                </FormField>
                <FormField prefix="offhire" id="note" label="Note (optional)" errors={errorsOf("off_hire")} hint="For example: called at 9:10, collect Friday.">
                  <input {...fieldProps("offhire", "note", errorsOf("off_hire"), true)} defaultValue={typed("off_hire").note} maxLength={1000} className={ADMIN_CONTROL} />
                </FormField>
                {failed("off_hire") && !errorsOf("off_hire")?.date ? <p className="text-sm font-semibold text-red-700">{failed("off_hire")}</p> : null}
                <button type="submit" className="btn-primary justify-self-start" disabled={busy}>
                  Record the off-hire
                </button>
              </Form>
            </Panel>
          ) : null}

          {hire.charges.length || hire.final_total !== null ? (
            <Panel id="charges-heading" title="Charges">
              <ul className="grid gap-2 text-sm">
                {hire.charges.map((c) => (
                  <li key={c.id} className="flex justify-between gap-3">
                    <span>
                      {c.description}
                      {c.reason && c.kind !== "hire" ? <span className="block text-stone-600">{c.reason}</span> : null}
                    </span>
                    <span className="whitespace-nowrap text-right">{formatPounds(c.total)}</span>
                  </li>
                ))}
              </ul>
              {hire.summary ? (
                <dl className="mt-3 grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 border-t border-stone-200 pt-3 text-sm">
                  <dt>Charges inc VAT</dt>
                  <dd className="text-right">{formatPounds(hire.summary.charges)}</dd>
                  <dt>of which VAT</dt>
                  <dd className="text-right">{formatPounds(hire.summary.vat)}</dd>
                  <dt>Paid up front (with the deposit)</dt>
                  <dd className="text-right">{formatPounds(hire.summary.paid)}</dd>
                  <dt className="font-bold">{hire.summary.due < 0 ? "To give back" : "Left to pay"}</dt>
                  <dd className="text-right font-bold" data-testid="hire-due">
                    {formatPounds(Math.abs(hire.summary.due))}
                  </dd>
                </dl>
              ) : null}
              {hire.settlement ? (
                <p className="mt-3 text-sm">
                  Settled {hire.settlement.method === "account" ? `on invoice ${hire.settlement.invoice_number}` : hire.settlement.method === "card" ? "by card" : "as arranged"}
                  {hire.settlement.settled_at ? ` on ${formatDateTime(hire.settlement.settled_at)}` : " (waiting for the card payment)"}
                  {hire.settlement.note ? `: ${hire.settlement.note}` : "."}
                </p>
              ) : null}
              {m.charge ? (
                <Form method="post" className="mt-4 grid gap-2 border-t border-stone-200 pt-4" noValidate>
                  <input type="hidden" name="intent" value="charge" />
                  <h3 className="font-semibold">Add a charge</h3>
                  <ChargeFields prefix="charge" names={{ kind: "kind", description: "description", reason: "reason", amount: "amount" }} errors={errorsOf("charge")} values={typed("charge")} />
                  <button type="submit" className="btn-secondary justify-self-start" disabled={busy}>
                    Add the charge
                  </button>
                </Form>
              ) : null}
              {m.settle ? (
                <Form method="post" className="mt-4 grid gap-2 border-t border-stone-200 pt-4" noValidate>
                  <input type="hidden" name="intent" value="settle" />
                  <h3 className="font-semibold">Settle</h3>
                  <fieldset className="grid gap-1 text-sm">
                    <legend className="font-semibold">How</legend>
                    <FieldError messages={errorsOf("settle")?.method} />
                    {hire.settle_methods.map((method, i) => (
                      <label key={method} className="flex items-center gap-2">
                        <input type="radio" name="method" value={method} defaultChecked={i === 0} />
                        {method === "account" ? "Invoice to the trade account" : method === "card" ? "Card: email a payment link for what is left, or refund the excess" : "As arranged with the customer (recorded)"}
                      </label>
                    ))}
                  </fieldset>
                  <FormField prefix="settle" id="note" label="Note (optional)" errors={errorsOf("settle")}>
                    <input {...fieldProps("settle", "note", errorsOf("settle"))} defaultValue={typed("settle").note} maxLength={1000} className={ADMIN_CONTROL} />
                  </FormField>
                  <button type="submit" className="btn-primary justify-self-start" disabled={busy}>
                    Settle the final charges
                  </button>
                </Form>
              ) : null}
            </Panel>
          ) : null}
        </div>

        <div className="grid content-start gap-4 xl:col-start-1 xl:row-start-1">
          <Panel id="lines-heading" title="What is hired">
            <div className="grid gap-4">
              {hire.lines.map((l) => (
                <div key={l.id} className="grid gap-2">
                  <h3 className="font-semibold">
                    {l.quantity} × {l.name}: {l.start_date} to {l.end_date} ({l.days} day{l.days === 1 ? "" : "s"}), hire {formatPounds(l.hire_cost)} + VAT, deposit {formatPounds(l.deposit)}
                  </h3>
                  {l.units.length === 0 ? <p className="text-sm text-stone-600">No unit held or booked.</p> : null}
                  <ul className="grid gap-3">
                    {l.units.map((u) => (
                      <li key={u.allocation_id} className="rounded border border-stone-200 p-3 text-sm">
                        <p>
                          <span className="font-mono font-semibold">{u.asset_number}</span> · {hire.status === "pending" && u.state === "booked" ? "Held until approved" : (UNIT_STATE[u.state] ?? u.state)} · {u.start_date} to {u.end_date}
                        </p>
                        {u.transfer_from && hire.depot ? (
                          <Form method="post" className="mt-1 flex flex-wrap items-center gap-2">
                            <input type="hidden" name="intent" value="transfer" />
                            <input type="hidden" name="target" value={u.unit_id} />
                            <input type="hidden" name="depot" value={hire.depot.slug} />
                            <span className="font-semibold text-amber-900">From {u.transfer_from.name}, transfer needed.</span>
                            <button type="submit" className="btn-secondary" disabled={busy}>
                              Record transfer to {hire.depot.name}
                            </button>
                            {failed("transfer", String(u.unit_id)) ? <span className="font-semibold text-red-700">{failed("transfer", String(u.unit_id))}</span> : null}
                          </Form>
                        ) : null}
                        {u.handover ? (
                          <div className="mt-1 grid gap-1">
                            <p>
                              Handed over {u.handover.handed_over_on}
                              {u.handover.handed_over_by ? ` by ${u.handover.handed_over_by}` : ""} · agreement{" "}
                              <a href={`/api/admin/hire/requests/${hire.number}/handovers/${u.handover.id}/agreement.pdf`} className="link">
                                {u.handover.agreement_number} (PDF)
                              </a>
                            </p>
                            <p>
                              Condition out: {u.handover.condition_out}
                              {u.handover.accessories ? ` · accessories: ${u.handover.accessories}` : ""} · ID {u.handover.id_checked ? `checked (${u.handover.id_type})` : "not checked"}
                            </p>
                            {u.handover.off_hire_on ? (
                              <p>
                                Off-hired from {u.handover.off_hire_on}, reference <strong>{u.handover.off_hire_reference}</strong>
                                {u.handover.off_hire_note ? ` (${u.handover.off_hire_note})` : ""}
                              </p>
                            ) : null}
                            {u.handover.returned_on ? (
                              <p>
                                Returned {u.handover.returned_on}: {u.handover.condition_in}
                              </p>
                            ) : null}
                          </div>
                        ) : null}
                        {m.hand_over && u.state === "booked" ? <HandOverForm unit={u} free={l.free_units} errors={errorsOf("hand_over", String(u.allocation_id))} values={typed("hand_over", String(u.allocation_id))} failed={failed("hand_over", String(u.allocation_id))} busy={busy} /> : null}
                        {m.return && u.handover && !u.handover.returned_on ? <ReturnForm handoverId={u.handover.id} errors={errorsOf("return", String(u.handover.id))} values={typed("return", String(u.handover.id))} failed={failed("return", String(u.handover.id))} busy={busy} /> : null}
                        {u.state === "returned" ? <ServiceForm unitId={u.unit_id} errors={errorsOf("service", String(u.unit_id))} values={typed("service", String(u.unit_id))} failed={failed("service", String(u.unit_id))} busy={busy} /> : null}
                      </li>
                    ))}
                  </ul>
                </div>
              ))}
            </div>
          </Panel>
          <AuditHistory entries={audit} />
        </div>
      </div>
    </>
  );
}

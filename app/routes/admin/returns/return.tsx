import { Link, data, useNavigation } from "react-router";
import { AuditHistory } from "../../../components/admin/audit-entries.tsx";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { RefundDue } from "../../../components/admin/refund-due.tsx";
import { ActionResultBanner } from "../../../components/admin/result-banner.tsx";
import { type ReturnActionResult, ReturnActions } from "../../../components/admin/return-actions.tsx";
import { Cell, Row, TableOrCards } from "../../../components/admin/table-or-cards.tsx";
import { StatusBadge } from "../../../components/admin/status-badge.tsx";
import { Timeline } from "../../../components/admin/timeline.tsx";
import { ReturnPhotos } from "../../../components/returns/return-photos.tsx";
import { notFoundOr, serviceError } from "../../../lib/admin/access.ts";
import { formatDate, formatDateTime } from "../../../lib/admin/format.ts";
import { penceOf } from "../../../lib/admin/returns.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { formatPounds } from "../../../lib/money.ts";
import { STATUS_LABELS as ORDER_STATUS_LABELS, type OrderStatus } from "../../../../server/modules/orders/statuses.ts";
import type { ReturnDetail, ReturnMoveInput } from "../../../../server/modules/returns/desk.ts";
import { RETURN_STATUSES, type ReturnStatus } from "../../../../server/modules/returns/statuses.ts";
import type { Route } from "./+types/return";
import { Panel } from "../../../components/admin/panel.tsx";
import { staffPost, staffScreen } from "../../../lib/admin/staff-route.ts";
import { EmailLink, Facts } from "../../../components/admin/facts.tsx";

export const meta: Route.MetaFunction = ({ matches, params }) => pageMeta(matches, `Return ${params.number.toUpperCase()}`);

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "returns.view");
  const desk = app.services.returnsDesk;
  const ret = await desk.detail(actor, params.number).catch(notFoundOr);
  const moves = ret.actions.map((a) => a.to);
  const branches = moves.includes("received") ? (await app.services.branches.list()).data.map((b) => ({ id: b.id, name: b.name })) : [];
  return {
    ret,
    audit: await app.services.audit.forEntity("return", ret.number),
    // Receiving: where the goods came back to (the return's branch, else the member's own, else the service's default).
    receive: { branches, chosen: ret.branch?.id ?? actor.branchIds?.[0] ?? null },
    exchange: moves.includes("exchanged") ? await desk.exchangeChoices(actor, ret.number) : [],
  };
}

/** Errors named as the service names them, moved onto the form's own fields. */
const FIELD_OF: Record<string, string> = { refund_pence: "amount", deduction_pence: "deduction" };

/** A move of the return's state machine; the service checks the member's permission, the state and every field, as the API does. */
export async function action({ context, request, params }: Route.ActionArgs) {
  const { app, actor, form } = await staffPost(context, request, "returns.view");
  const desk = app.services.returnsDesk;
  const text = (name: string, max = 1000) => String(form.get(name) ?? "").slice(0, max).trim();
  const to = text("to", 20) as ReturnStatus;
  const expected = text("expected_status", 20) as ReturnStatus;
  // What was typed comes back with a refusal, so the form shows it again beside its errors.
  const values = Object.fromEntries([...form.entries()].flatMap(([k, v]) => (typeof v === "string" && k.length <= 40 ? [[k, v.slice(0, 1000)]] : [])));
  const refuse = (status: number, message: string, errors: Record<string, string[]> = {}) => data<ReturnActionResult>({ ok: false, to, message, errors, values }, { status });
  if (!RETURN_STATUSES.includes(to)) return refuse(422, "Choose what to do with the return.");
  const input: ReturnMoveInput = { to, expected_status: RETURN_STATUSES.includes(expected) ? expected : null, reason: text("reason") || null };
  try {
    if (to === "received") {
      // Counts as typed (blank is none); the service refuses what is not a whole number, beside its line.
      const count = (name: string) => (text(name, 10) === "" ? 0 : Number(text(name, 10)));
      input.lines = form.getAll("line").slice(0, 200).map((id) => ({ line_id: Number(id), received: count(`received_${id}`), damaged: count(`damaged_${id}`) }));
      const branch = Number(text("branch_id", 12));
      input.branch_id = Number.isInteger(branch) && branch > 0 ? branch : null;
    }
    if (to === "refunded") {
      const ret = await desk.detail(actor, params.number);
      // The pounds are checked once the member may refund it (else the service's own refusal answers).
      if (ret.actions.some((a) => a.to === to) && ret.order.payment_method !== "pay_on_account" && ret.proposal) {
        const amount = penceOf(text("amount", 20));
        const deduction = penceOf(text("deduction", 20)) ?? 0;
        const ceiling = Math.round((ret.proposal.goods + ret.proposal.delivery) * 100);
        const errors: Record<string, string[]> = {};
        if (Number.isNaN(amount)) errors.amount = ["Enter the refund in pounds and pence, such as 12.50."];
        else if (amount !== null && amount > ceiling) errors.amount = [`At most ${formatPounds(ceiling / 100)}: the goods received back${ret.proposal.delivery ? " and the delivery" : ""}.`];
        if (Number.isNaN(deduction)) errors.deduction = ["Enter the deduction in pounds and pence, such as 5.00."];
        else if (amount !== null && !errors.amount && deduction > amount) errors.deduction = ["The deduction cannot be more than the refund."];
        if (Object.keys(errors).length) return refuse(422, "Check the details below.", errors);
        // Blank: what the rules propose, less the deduction; an amount typed: that, less the deduction.
        input.refund_pence = amount === null ? null : amount - deduction;
        input.deduction_pence = deduction || null;
        input.deduction_reason = text("deduction_reason") || null;
      }
    }
    if (to === "exchanged") {
      input.exchange = form.getAll("line").slice(0, 200).map((id) => ({ line_id: Number(id), variant_id: Number(text(`variant_${id}`, 12)) || null }));
    }
    const done = await desk.transition(actor, params.number, input);
    return data<ReturnActionResult>({ ok: true, message: doneMessage(done) });
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    if (known.status === 404) notFoundOr(error);
    const errors = Object.fromEntries(Object.entries(known.errors ?? {}).map(([k, v]) => [FIELD_OF[k] ?? k, v]));
    return refuse(known.status, known.errors ? "Check the details below." : known.message, errors);
  }
}

/** What the move did, in the banner: the customer's email, the stock, the money. */
function doneMessage(r: ReturnDetail): string {
  const last = r.timeline.at(-1)?.note ?? "";
  switch (r.status) {
    case "approved":
      return `Return ${r.number} is approved. The customer has been emailed how to send it back.`;
    case "rejected":
      return `Return ${r.number} is rejected. The customer has been emailed the reason.`;
    case "received":
      return `Return ${r.number} is received: ${last} The customer has been emailed.`;
    case "refunded": {
      const refund = r.refund!;
      const how = refund.method === "card" ? "to the card" : refund.method === "credit_note" ? `with credit note ${refund.credit_note}` : "by hand (recorded here; pay it back the way the customer paid)";
      return `Refunded ${formatPounds(refund.amount)} ${how} for return ${r.number}.${refund.deduction ? ` ${formatPounds(refund.deduction)} deducted.` : ""} The customer has been emailed.`;
    }
    case "exchanged":
      return `Replacement order ${r.exchange_order} made for return ${r.number}, at no charge; it goes through picking and dispatch. The customer has been emailed.`;
    default:
      return `Return ${r.number} is ${r.status_label.toLowerCase()}.`;
  }
}

export default function AdminReturn({ loaderData, actionData }: Route.ComponentProps) {
  const { ret, audit, receive, exchange } = loaderData;
  const busy = useNavigation().state === "submitting";
  const result = actionData as ReturnActionResult | undefined;
  const received = ret.received_at !== null;
  const priced = ret.lines.some((l) => l.paid !== undefined);
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Returns", to: "/admin/returns" }, { label: ret.number }]}
        title={`Return ${ret.number}`}
        intro={
          <>
            <StatusBadge status={ret.status} label={ret.status_label} /> Asked for {formatDateTime(ret.created_at)} · {ret.method_label}
            {ret.branch ? ` · ${ret.branch.name}` : ""}
          </>
        }
      />
      <ActionResultBanner result={result} />
      {ret.refund_days_left !== null && ret.refund_due_by ? (
        <p className={`mb-4 rounded-md border-l-4 bg-white px-4 py-3 ${ret.refund_days_left < 0 ? "border-red-700" : "border-amber-600"}`} data-testid="refund-due">
          <RefundDue days={ret.refund_days_left} className="text-lg" />
          <span className="block text-sm text-stone-700">
            Received {formatDate(ret.received_at!)}: the law gives 14 days to refund, so by {formatDate(ret.refund_due_by)}.
          </span>
        </p>
      ) : null}

      <div className="grid gap-4 xl:grid-cols-[1fr_24rem]">
        {/* First in the page (a tablet shows what to do next at the top); beside the lines on a desktop. */}
        <div className="grid min-w-0 content-start gap-4 xl:col-start-2 xl:row-start-1">
          <ReturnActions ret={ret} receive={receive} exchange={exchange} result={result} busy={busy} />

          <Panel id="order-heading" title="Order and customer" className="text-sm">
            <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1">
              <dt className="font-semibold">Order</dt>
              <dd>
                <Link to={`/admin/orders/${ret.order.number}`} className="link">
                  {ret.order.number}
                </Link>{" "}
                ({ORDER_STATUS_LABELS[ret.order.status as OrderStatus] ?? ret.order.status}){ret.order.trade ? <span className="ml-2 rounded bg-brand-50 px-1.5 py-0.5 text-xs text-brand-900">Trade</span> : null}
              </dd>
              <Facts facts={[ret.order.email ? ["Customer", <EmailLink email={ret.order.email} />, "[overflow-wrap:anywhere]"] : null, ["Paid by", ret.order.payment_label], ret.order.total !== undefined && ["Order total", formatPounds(ret.order.total)]]} />
              <dt className="font-semibold">Coming back</dt>
              <dd>
                {ret.method_label}
                {ret.branch ? (
                  <>
                    <span className="block">{ret.branch.name}</span>
                    <span className="block text-stone-600">{ret.branch.address}</span>
                  </>
                ) : null}
              </dd>
            </dl>
          </Panel>
        </div>

        <div className="grid min-w-0 content-start gap-4 xl:col-start-1 xl:row-start-1">
          <section aria-labelledby="lines-heading" className="grid gap-2">
            <h2 id="lines-heading" className="text-lg font-bold">
              What is coming back
            </h2>
            <TableOrCards columns={[{ label: "Product" }, { label: "Returned", className: "lg:text-right" }, { label: "Reason" }, { label: "Resaleable", className: "lg:text-right" }, { label: "Damaged", className: "lg:text-right" }, ...(priced ? [{ label: "Line paid", className: "lg:text-right" }] : [])]}>
              {ret.lines.map((l) => (
                <Row key={l.line_id}>
                  <Cell label="Product" head className="font-normal">
                    <span className="min-w-0 [overflow-wrap:anywhere]">
                      {l.name}
                      <span className="block font-mono text-xs text-stone-600">{l.sku}</span>
                    </span>
                  </Cell>
                  <Cell label="Returned" className="lg:text-right">
                    <span>
                      {l.quantity} of {l.ordered}
                    </span>
                  </Cell>
                  <Cell label="Reason">
                    <span className="min-w-0 [overflow-wrap:anywhere]">
                      {l.reason_label}
                      {l.note ? <span className="block whitespace-pre-line text-stone-700">“{l.note}”</span> : null}
                    </span>
                  </Cell>
                  <Cell label="Resaleable" className="lg:text-right">
                    {received ? l.received : "—"}
                  </Cell>
                  <Cell label="Damaged" className="lg:text-right">
                    {received ? l.damaged : "—"}
                  </Cell>
                  {priced ? (
                    <Cell label="Line paid" className="lg:text-right">
                      {l.paid !== undefined ? formatPounds(l.paid) : ""}
                    </Cell>
                  ) : null}
                </Row>
              ))}
            </TableOrCards>
            {received ? <p className="text-sm text-stone-600">Units counted in neither column did not arrive.</p> : null}
          </section>

          {ret.photos.length ? (
            <section aria-labelledby="photos-heading" className="grid gap-2 rounded-lg border border-stone-200 bg-white p-4">
              <h2 id="photos-heading" className="text-lg font-bold">
                Customer's photos
              </h2>
              <ReturnPhotos photos={ret.photos} whose="customer's" testId="return-photos" />
            </section>
          ) : null}

          {ret.refund || ret.exchange_order || ret.reject_reason ? (
            <section aria-labelledby="outcome-heading" className="rounded-lg border border-stone-200 bg-white p-4 text-sm" data-testid="return-outcome">
              <h2 id="outcome-heading" className="mb-2 text-lg font-bold">
                Outcome
              </h2>
              {ret.reject_reason ? <p>Rejected: {ret.reject_reason}</p> : null}
              {ret.refund ? (
                <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1">
                  <Facts
                    facts={[
                      ["Refunded", formatPounds(ret.refund.amount)],
                      ["How", ret.refund.method === "card" ? "To the card" : ret.refund.method === "credit_note" ? `Credit note ${ret.refund.credit_note}` : "By hand"],
                      ret.refund.deduction ? ["Deducted", `${formatPounds(ret.refund.deduction)}: ${ret.refund.deduction_reason}`] : null,
                      ret.refund.at ? ["When", formatDateTime(ret.refund.at)] : null,
                    ]}
                  />
                </dl>
              ) : null}
              {ret.exchange_order ? (
                <p>
                  Replacement order{" "}
                  <Link to={`/admin/orders/${ret.exchange_order}`} className="link">
                    {ret.exchange_order}
                  </Link>
                  , at no charge.
                </p>
              ) : null}
            </section>
          ) : null}

          <Timeline entries={ret.timeline.map((t) => ({ title: t.label, note: t.note, at: t.at, staff: t.staff }))} testId="return-timeline" />
          <AuditHistory entries={audit} />
        </div>
      </div>
    </>
  );
}

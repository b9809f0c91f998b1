import { Link, data, useNavigation } from "react-router";
import { AuditHistory } from "../../../components/admin/audit-entries.tsx";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { QuoteForm, QuoteMoves } from "../../../components/admin/quote-form.tsx";
import { ActionResultBanner } from "../../../components/admin/result-banner.tsx";
import { StatusBadge } from "../../../components/admin/status-badge.tsx";
import { Timeline } from "../../../components/admin/timeline.tsx";
import { notFoundOr } from "../../../lib/admin/access.ts";
import { formatDate, formatDateTime } from "../../../lib/admin/format.ts";
import { type QuoteFormResult, declineQuote, saveQuote, sendQuote } from "../../../lib/admin/quote-form.server.ts";
import { type QuoteFormAnswer, quotePdfHref } from "../../../lib/admin/quotes.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { QUOTE_VALID_DAYS } from "../../../../server/modules/quotes/desk.ts";
import { QUOTE_STATUS_LABELS, type QuoteStatus } from "../../../../server/modules/quotes/statuses.ts";
import { can } from "../../../../server/modules/staff/permissions.ts";
import type { Route } from "./+types/quote";
import { Panel } from "../../../components/admin/panel.tsx";
import { staffPost, staffScreen } from "../../../lib/admin/staff-route.ts";
import { EmailLink, Facts } from "../../../components/admin/facts.tsx";

export const meta: Route.MetaFunction = ({ matches, params }) => pageMeta(matches, `Quote ${params.number.toUpperCase()}`);

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "quotes.view");
  const quote = await app.services.quoteDesk.get(actor, params.number.toUpperCase()).catch(notFoundOr);
  const audit = can(actor.role, "audit.view") ? await app.services.audit.forEntity("quote", quote.number, 20) : null;
  const created = new URL(request.url).searchParams.get("created") === "1";
  return { quote, audit, created, canManage: can(actor.role, "quotes.manage"), validDays: QUOTE_VALID_DAYS };
}

/** What a done move says in the banner. */
const DONE: Record<"save" | "send" | "decline", (q: Extract<QuoteFormResult, { ok: true }>["quote"]) => string> = {
  save: (q) => `Saved: revision ${q.revision} ${q.status_label.toLowerCase()}. Send it to the customer when it is ready.`,
  send: (q) => `Sent to ${q.customer.email} with its PDF: revision ${q.revision}, valid until ${q.valid_until ? formatDate(q.valid_until) : "its last day"}.`,
  decline: () => "Declined. The customer has been emailed the reason.",
};

/** Saving, sending or declining: each through the desk's service, which checks quotes.manage again, the status and the floor, and audits. */
export async function action({ context, request, params }: Route.ActionArgs) {
  const { app, actor, form } = await staffPost(context, request, "quotes.manage");
  const desk = app.services.quoteDesk;
  const number = params.number.toUpperCase();
  const intent = String(form.get("intent") ?? "");
  if (intent !== "save" && intent !== "send" && intent !== "decline") return data<QuoteFormAnswer>({ intent, ok: false, status: 422, message: "Choose save, send or decline.", errors: {}, values: {} }, { status: 422 });
  const done = intent === "save" ? await saveQuote(desk, actor, number, form) : intent === "send" ? await sendQuote(desk, actor, number) : await declineQuote(desk, actor, number, form);
  if (!done.ok) {
    if (done.status === 404) throw new Response(done.message, { status: 404, statusText: "Not Found" });
    return data<QuoteFormAnswer>(done, { status: done.status });
  }
  return data<QuoteFormAnswer>({ intent, ok: true, message: DONE[intent](done.quote) });
}

/** A long name or note wraps anywhere rather than widening its panel. */
const WRAP = "[overflow-wrap:anywhere]";

/** Who wrote a line of the timeline. */
const BY: Record<string, string> = { customer: "The customer", staff: "Staff", system: "The shop" };

export default function AdminQuote({ loaderData, actionData }: Route.ComponentProps) {
  const { quote: q, audit, created, canManage, validDays } = loaderData;
  const answer = actionData;
  const navigation = useNavigation();
  const busyWith = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : "";
  const banner = answer ?? (created ? { ok: true, message: "Started: drafting, at the customer's own prices. Price it, then send it." } : undefined);
  const refusedSave = answer && !answer.ok && answer.intent === "save" ? answer : undefined;
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Quotes", to: "/admin/quotes" }, { label: q.number }]}
        title={`Quote ${q.number}`}
        intro={
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <StatusBadge status={`quote_${q.status}`} label={q.status_label} />
            <span>Revision {q.revision}</span>
            <span>Asked for {formatDateTime(q.created_at)}</span>
            {q.valid_until ? <span>Valid until {formatDate(q.valid_until)}</span> : null}
          </span>
        }
      />
      <ActionResultBanner result={banner} />

      <div className="grid gap-4">
        <div className="grid gap-4 lg:grid-cols-2">
          <Panel id="customer-heading" title="Customer" className="text-sm">
            <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1">
              <Facts
                facts={[
                  ["Name", q.customer.name || "—", WRAP],
                  ["Email", <EmailLink email={q.customer.email} />, WRAP],
                  ["Company", q.company?.name ?? "None (their own prices are retail)", WRAP],
                  q.site && ["Site", q.site.name, WRAP],
                  ["Needed by", q.needed_by ? formatDate(q.needed_by) : "Not said"],
                  ["Their notes", q.notes || "None", `whitespace-pre-line ${WRAP}`],
                  q.decline_reason ? ["Declined", q.decline_reason, `whitespace-pre-line ${WRAP}`] : null,
                  q.order && [
                    "Order",
                    <Link to={`/admin/orders/${q.order.number}`} className="link">
                      {q.order.number}
                    </Link>,
                  ],
                ]}
              />
            </dl>
          </Panel>

          <Panel id="documents-heading" title="PDFs and revisions" className="text-sm">
            <ul className="grid gap-2">
              <li>
                <a href={quotePdfHref(q.number)} className="link font-semibold">
                  The quote as it stands, revision {q.revision} (PDF{q.status === "requested" || q.status === "drafting" ? ", marked draft" : ""})
                </a>
              </li>
              {[...q.revisions].reverse().map((r) => (
                <li key={r.revision}>
                  <a href={quotePdfHref(q.number, r.revision)} className="link">
                    Revision {r.revision} as sent (PDF)
                  </a>
                  <span className="text-stone-600"> · sent {formatDateTime(r.sent_at)}</span>
                </li>
              ))}
            </ul>
            {q.revisions.length === 0 ? <p className="mt-2 text-stone-600">Not sent yet: each version sent is kept here as it was.</p> : null}
          </Panel>
        </div>

        {/* A new key after each refusal or save: the form shows what was sent, or what is stored. */}
        <QuoteForm key={refusedSave ? JSON.stringify(refusedSave.values) : `form-${q.updated_at}`} quote={q} answer={answer} canManage={canManage} busy={busyWith === "save"} validDays={validDays} />
        {canManage ? <QuoteMoves key={`moves-${q.updated_at}`} quote={q} answer={answer} busyWith={busyWith} validDays={validDays} /> : null}

        <div className={`grid gap-4 ${audit ? "xl:grid-cols-2" : ""}`}>
          <Timeline entries={q.events.map((e) => ({ title: QUOTE_STATUS_LABELS[e.status as QuoteStatus] ?? e.status, note: e.note, at: e.at, staff: BY[e.by] ?? e.by }))} testId="quote-timeline" />
          {audit ? <AuditHistory entries={audit} /> : null}
        </div>
      </div>
    </>
  );
}

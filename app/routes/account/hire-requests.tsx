import { Form, redirect, redirectDocument, useSearchParams } from "react-router";
import { appContext } from "#app-context";
import { FactsRow } from "../../components/facts-row.tsx";
import { Breadcrumbs, EmptyState, PageHeading } from "../../components/page.tsx";
import { daysLabel, formatHireDate } from "../../lib/hire.ts";
import { formatPounds } from "../../lib/money.ts";
import { loginUrlFor, requireOwnOrigin } from "../../lib/access.ts";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/hire-requests";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Your hire requests");

export async function loader({ context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  // The signed-in layout has already sent guests to sign in.
  return { requests: await app.services.hireRequests.listForUser(app.user!.id) };
}

/** "Pay by card": the same payment page as the emailed link, for the hire and deposit or what is left of the final charges. */
export async function action({ request, context }: Route.ActionArgs): Promise<{ error: string; number: string }> {
  const app = context.get(appContext);
  const url = new URL(request.url);
  requireOwnOrigin(request, app.config.apiBaseUrl);
  if (!app.user) throw redirect(loginUrlFor(url));
  const number = String((await request.formData()).get("number") ?? "").slice(0, 20);
  try {
    throw redirectDocument(await app.services.payments.payHireFor(app.user.id, number));
  } catch (err) {
    if (err instanceof Response) throw err;
    const failed = err as { statusCode?: number; message?: string };
    if ((failed.statusCode && failed.statusCode < 500) || failed.statusCode === 503) return { error: failed.message ?? "The payment page could not be opened.", number };
    throw err;
  }
}

const STATUS: Record<string, { label: string; className: string; note: string }> = {
  pending: { label: "Awaiting confirmation", className: "bg-amber-100 text-amber-900", note: "We hold the equipment for 48 hours while we confirm." },
  confirmed: { label: "Approved", className: "bg-green-100 text-green-900", note: "Booked for your dates." },
  out: { label: "Out on hire", className: "bg-sky-100 text-sky-900", note: "To end the hire early, call us: charging stops on the day you off-hire." },
  off_hired: { label: "Off-hired", className: "bg-indigo-100 text-indigo-900", note: "Charging has stopped; we are waiting for the equipment to come back." },
  returned: { label: "Returned", className: "bg-violet-100 text-violet-900", note: "Everything is back; the final charges follow." },
  declined: { label: "Declined", className: "bg-red-100 text-red-900", note: "We could not accept this request." },
  completed: { label: "Completed", className: "bg-stone-200 text-stone-900", note: "The hire is over. Thank you." },
  lapsed: { label: "Lapsed", className: "bg-stone-200 text-stone-900", note: "The 48-hour hold ran out before it was confirmed." },
};

const placed = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "Europe/London" });

const CHARGED: Record<string, string> = { account: "On your trade account's invoice", card: "By card", arranged: "As arranged with us" };

export default function HireRequests({ loaderData, actionData }: Route.ComponentProps) {
  const { requests } = loaderData;
  // Back from the card payment page (the link in a confirmation email): which request, and how it went.
  const [params] = useSearchParams();
  const paidNumber = params.get("paid");
  const paidNow = paidNumber ? requests.find((r) => r.number === paidNumber && r.paid_at) : undefined;
  return (
    <div className="mx-auto max-w-4xl">
      <Breadcrumbs items={[{ label: "Home", to: "/" }, { label: "Your account", to: "/account" }, { label: "Hire requests" }]} />
      <PageHeading title="Your hire requests" />
      {paidNumber ? (
        <p role="status" className="mb-4 rounded-md border-l-4 border-green-700 bg-green-50 px-4 py-3 font-semibold text-green-900">
          {paidNow ? `Thank you: hire request ${paidNow.number} is paid. A receipt is on its way.` : `We are waiting for the payment service to confirm the payment for ${paidNumber}. We email you a receipt once it does.`}
        </p>
      ) : null}
      {params.get("payment") === "cancelled" ? (
        <p role="status" className="mb-4 rounded-md border-l-4 border-amber-600 bg-amber-50 px-4 py-3 font-semibold">
          The card payment was not completed and nothing was charged. The link in your confirmation email still works.
        </p>
      ) : null}
      {actionData ? (
        <p role="alert" className="mb-4 rounded-md border-l-4 border-red-700 bg-red-50 px-4 py-3 font-semibold text-red-900">
          {actionData.number}: {actionData.error}
        </p>
      ) : null}
      {requests.length === 0 ? (
        <EmptyState title="You have no hire requests yet." action={{ to: "/hire", label: "Browse hire equipment" }}>
          Choose equipment and dates, then send us a hire request: it appears here with its status.
        </EmptyState>
      ) : (
        <ul className="grid gap-4">
          {requests.map((r) => {
            const status = STATUS[r.status] ?? { label: r.status, className: "bg-stone-200", note: "" };
            return (
              <li key={r.number}>
                <article aria-labelledby={`req-${r.number}`} className="rounded-lg border border-stone-200 bg-white p-5 shadow-sm">
                  <div className="flex flex-wrap items-baseline justify-between gap-2">
                    <h2 id={`req-${r.number}`} className="text-lg font-semibold">
                      {r.number}
                    </h2>
                    <span className={`rounded-full px-3 py-1 text-sm font-semibold ${status.className}`}>{status.label}</span>
                  </div>
                  <p className="text-sm text-stone-600">
                    Sent {placed.format(new Date(r.created_at))} · {r.fulfilment === "delivery" ? "Delivery to site" : "Collection from the branch"}
                    {status.note ? <> · {status.note}</> : null}
                  </p>
                  <ul className="mt-3 divide-y divide-stone-200 border-y border-stone-200">
                    {r.lines.map((l, i) => (
                      <li key={i} className="flex flex-wrap justify-between gap-2 py-2">
                        <span>
                          <span className="font-medium">
                            {l.quantity} × {l.name}
                          </span>
                          <span className="block text-sm text-stone-600">
                            {formatHireDate(l.start_date)} to {formatHireDate(l.end_date)} · {daysLabel(l.days)}
                          </span>
                        </span>
                        <span className="font-medium">{formatPounds(l.hire_cost)}</span>
                      </li>
                    ))}
                  </ul>
                  <FactsRow className="mt-3 grid-cols-2 gap-2 sm:grid-cols-4" items={[["Hire (ex VAT)", formatPounds(r.hire_cost)], ["VAT", formatPounds(r.vat)], ["Deposit (refundable)", formatPounds(r.deposit)], ["Total", formatPounds(Math.round((r.hire_cost + r.vat + r.deposit) * 100) / 100)]]} />
                  {r.proposed && r.status === "pending" ? (
                    <p className="mt-3 rounded bg-sky-50 p-2 text-sm">
                      We offered other dates: {formatHireDate(r.proposed.start_date)} to {formatHireDate(r.proposed.end_date)}. Reply to our email or call us to take them.
                    </p>
                  ) : null}
                  {r.decision_reason && (r.status === "declined" || r.status === "confirmed") ? <p className="mt-3 text-sm">From the hire desk: {r.decision_reason}</p> : null}
                  {r.units.length ? (
                    <ul className="mt-3 grid gap-1 text-sm" aria-label="Equipment handed over">
                      {r.units.map((u) => (
                        <li key={u.agreement_number}>
                          Unit {u.asset_number}: out {formatHireDate(u.handed_over_on)} (agreement {u.agreement_number})
                          {u.off_hire_reference ? (
                            <>
                              {" "}
                              · off-hired from {formatHireDate(u.off_hire_on!)}, reference <strong>{u.off_hire_reference}</strong>
                            </>
                          ) : null}
                          {u.returned_on ? <> · returned {formatHireDate(u.returned_on)}</> : null}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                  {r.charges.length ? (
                    <div className="mt-3" data-testid="hire-charges">
                      <h3 className="text-sm font-semibold">Charges</h3>
                      <ul className="divide-y divide-stone-200 text-sm">
                        {r.charges.map((c, i) => (
                          <li key={i} className="flex flex-wrap justify-between gap-2 py-1">
                            <span>
                              {c.description}
                              {c.reason && c.kind !== "hire" ? <span className="block text-stone-600">{c.reason}</span> : null}
                            </span>
                            <span className="font-medium">{formatPounds(c.total)}</span>
                          </li>
                        ))}
                      </ul>
                      {r.final_total !== null ? (
                        <p className="mt-2 font-semibold" data-testid="hire-final-total">
                          Final charges: {formatPounds(r.final_total)} including VAT
                          {r.settlement ? ` · ${CHARGED[r.settlement] ?? r.settlement}` : ""}
                          {r.invoice_number && r.invoice_id ? (
                            <>
                              {" "}
                              (
                              <a href={`/trade/invoices/view/${r.invoice_id}`} className="link">
                                invoice {r.invoice_number}
                              </a>
                              )
                            </>
                          ) : null}
                          {r.due !== null && r.due < 0 ? ` · ${formatPounds(-r.due)} given back to you` : ""}
                          {r.settled_at ? " · settled" : ""}
                        </p>
                      ) : null}
                    </div>
                  ) : null}
                  {r.pay_now !== null ? (
                    <Form method="post" className="mt-3">
                      <input type="hidden" name="number" value={r.number} />
                      <button type="submit" className="btn-primary">
                        Pay {formatPounds(r.pay_now)} by card
                      </button>
                    </Form>
                  ) : null}
                  {r.paid_at && r.paid !== null ? (
                    <p className="mt-3 text-sm font-semibold text-green-900" data-testid="hire-paid">
                      Paid by card: {formatPounds(r.paid)} on {placed.format(new Date(r.paid_at))}.
                    </p>
                  ) : null}
                </article>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

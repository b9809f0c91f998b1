import { useSearchParams } from "react-router";
import { appContext } from "#app-context";
import { Breadcrumbs, EmptyState, PageHeading } from "../../components/page.tsx";
import { daysLabel, formatHireDate } from "../../lib/hire.ts";
import { formatPounds } from "../../lib/money.ts";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/hire-requests";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Your hire requests");

export async function loader({ context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  // The signed-in layout has already sent guests to sign in.
  return { requests: await app.services.hireRequests.listForUser(app.user!.id) };
}

const STATUS: Record<string, { label: string; className: string; note: string }> = {
  pending: { label: "Awaiting confirmation", className: "bg-amber-100 text-amber-900", note: "We hold the equipment for 48 hours while we confirm." },
  confirmed: { label: "Confirmed", className: "bg-green-100 text-green-900", note: "Booked for your dates." },
  declined: { label: "Declined", className: "bg-red-100 text-red-900", note: "We could not accept this request." },
  completed: { label: "Completed", className: "bg-stone-200 text-stone-900", note: "The hire is over. Thank you." },
  lapsed: { label: "Lapsed", className: "bg-stone-200 text-stone-900", note: "The 48-hour hold ran out before it was confirmed." },
};

const placed = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "Europe/London" });

export default function HireRequests({ loaderData }: Route.ComponentProps) {
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
                  <dl className="mt-3 grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
                    <div>
                      <dt className="text-stone-600">Hire (ex VAT)</dt>
                      <dd className="font-semibold">{formatPounds(r.hire_cost)}</dd>
                    </div>
                    <div>
                      <dt className="text-stone-600">VAT</dt>
                      <dd className="font-semibold">{formatPounds(r.vat)}</dd>
                    </div>
                    <div>
                      <dt className="text-stone-600">Deposit (refundable)</dt>
                      <dd className="font-semibold">{formatPounds(r.deposit)}</dd>
                    </div>
                    <div>
                      <dt className="text-stone-600">Total</dt>
                      <dd className="font-semibold">{formatPounds(Math.round((r.hire_cost + r.vat + r.deposit) * 100) / 100)}</dd>
                    </div>
                  </dl>
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

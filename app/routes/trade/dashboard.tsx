import { Link } from "react-router";
import { appContext } from "#app-context";
import { EmptyState, PageHeading } from "../../components/page.tsx";
import { formatPounds } from "../../lib/money.ts";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Trade dashboard");

export async function loader({ context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  return { account: await app.services.trade.accountOf(app.user!.id) };
}

const STATE = {
  pending: { label: "Pending review", tone: "bg-amber-100 text-amber-900", text: "Our trade desk is reviewing your application. We will email you when it is decided." },
  approved: { label: "Approved", tone: "bg-green-100 text-green-900", text: "Trade prices show across the shop while you are signed in." },
  declined: { label: "Declined", tone: "bg-stone-200 text-stone-800", text: "We could not offer a trade account this time. You may apply again." },
  suspended: { label: "Suspended", tone: "bg-red-100 text-red-900", text: "Trade prices are paused. Please contact the trade desk." },
} as const;

const TYPE = { sole_trader: "Sole trader", partnership: "Partnership", limited_company: "Limited company" } as const;

/** The account at a glance: state, credit limit, terms and discount. Balances, invoices and spend come with pay on account. */
export default function TradeDashboard(props: Route.ComponentProps) {
  const { account } = props.loaderData;
  if (!account) {
    return (
      <>
        <PageHeading title="Trade dashboard" />
        <EmptyState title="You do not have a trade account yet." action={{ to: "/trade/setup", label: "Apply for a trade account" }} />
      </>
    );
  }
  const state = STATE[account.state];
  const approved = account.state === "approved" || account.state === "suspended";
  return (
    <>
      <PageHeading title="Trade dashboard" />
      <section className="grid gap-6" aria-labelledby="account-heading">
        <div className="flex flex-wrap items-center gap-3">
          <h2 id="account-heading" className="text-2xl font-bold">
            {account.company_name}
          </h2>
          <span className={`rounded-full px-3 py-0.5 text-sm font-semibold ${state.tone}`} data-testid="trade-state">
            {state.label}
          </span>
        </div>
        <p className="max-w-2xl text-stone-700">{state.text}</p>
        {account.state === "declined" ? (
          <p>
            <Link to="/trade/setup" className="btn-primary inline-flex">
              Apply again
            </Link>
          </p>
        ) : null}
        {approved ? (
          <dl className="grid gap-4 sm:grid-cols-3">
            {[
              { term: "Credit limit", value: formatPounds(account.credit_limit), id: "credit-limit" },
              { term: "Payment terms", value: `${account.terms_days} days`, id: "terms" },
              { term: "Trade discount", value: `${account.discount_percent}%`, id: "discount" },
            ].map((item) => (
              <div key={item.id} className="rounded-lg border border-stone-200 bg-white p-5 shadow-sm">
                <dt className="text-sm font-semibold text-stone-600">{item.term}</dt>
                <dd className="mt-1 text-2xl font-extrabold" data-testid={`trade-${item.id}`}>
                  {item.value}
                </dd>
              </div>
            ))}
          </dl>
        ) : null}
        <div className="rounded-lg border border-stone-200 bg-white p-5 shadow-sm sm:p-6">
          <h3 className="text-lg font-bold">Company details</h3>
          <dl className="mt-3 grid gap-x-6 gap-y-3 sm:grid-cols-2">
            <div>
              <dt className="text-sm font-semibold text-stone-600">Type</dt>
              <dd>
                {TYPE[account.company_type]}
                {account.company_number ? `, Companies House ${account.company_number}` : ""}
              </dd>
            </div>
            <div>
              <dt className="text-sm font-semibold text-stone-600">VAT number</dt>
              <dd>{account.vat_number ?? "None given"}</dd>
            </div>
            <div>
              <dt className="text-sm font-semibold text-stone-600">Business address</dt>
              <dd>{[account.address.line1, account.address.line2, account.address.town, account.address.county, account.address.postcode].filter(Boolean).join(", ")}</dd>
            </div>
            <div>
              <dt className="text-sm font-semibold text-stone-600">Accounts email</dt>
              <dd className="break-all">{account.accounts_email}</dd>
            </div>
            <div>
              <dt className="text-sm font-semibold text-stone-600">Your role</dt>
              <dd className="capitalize">{account.role}</dd>
            </div>
            <div>
              <dt className="text-sm font-semibold text-stone-600">Trade</dt>
              <dd>{account.trade}</dd>
            </div>
          </dl>
        </div>
      </section>
    </>
  );
}

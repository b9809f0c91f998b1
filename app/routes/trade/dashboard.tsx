import type { ReactNode } from "react";
import { InvoiceLink } from "../../components/trade/invoice-link.tsx";
import { Link } from "react-router";
import { appContext } from "#app-context";
import { EmptyState, PageHeading, SectionHead } from "../../components/page.tsx";
import { LinkItems } from "../../components/link-items.tsx";
import { HeadRow } from "../../components/head-row.tsx";
import { SpendChart } from "../../components/trade/spend-chart.tsx";
import { PAYMENT_LABELS } from "../../lib/basket-checkout.ts";
import { formatPounds } from "../../lib/money.ts";
import { LoadingBlocks, PersonalDataError } from "../../components/personal-page.tsx";
import { ApiError } from "../../lib/api-client.ts";
import { pageMeta } from "../../lib/meta.ts";
import { NOT_LOADED, personalJson, personalUser } from "../../lib/personal-data.ts";
import type { TradeDashboardService } from "../../../server/modules/trade/dashboard.ts";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Trade dashboard");

type Account = NonNullable<Awaited<ReturnType<TradeDashboardService["dashboardOf"]>>>;

/**
 * A frame every signed-in customer shares (ADR 0061): the server reads the
 * account only for a page rendered for this customer (`?noscript`, or the page
 * cache off); otherwise the browser reads `GET /api/trade/dashboard` (404: no
 * trade account yet), the same answer from the same service.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  if (!app.user) return NOT_LOADED;
  return { loaded: true as const, account: await app.services.tradeDashboard.dashboardOf(app.user.id) };
}

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  // A customer with no trade account is shown how to apply: no dashboard to ask for.
  if ((await personalUser(request)).tradeAccountId === null) return { loaded: true as const, account: null };
  try {
    return { loaded: true as const, account: (await personalJson<{ data: Account }>(request, "/api/trade/dashboard")).data };
  } catch (error) {
    // Left the company since the user was read.
    if (error instanceof ApiError && error.status === 404) return { loaded: true as const, account: null };
    throw error;
  }
}
clientLoader.hydrate = true as const;

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <>
      <PageHeading title="Trade dashboard" />
      <PersonalDataError error={error} what="your trade account" />
    </>
  );
}

const STATE = {
  pending: { label: "Pending review", tone: "bg-amber-100 text-amber-900", text: "Our trade desk is reviewing your application. We will email you when it is decided." },
  approved: { label: "Approved", tone: "bg-green-100 text-green-900", text: "Trade prices show across the shop while you are signed in." },
  declined: { label: "Declined", tone: "bg-stone-200 text-stone-800", text: "We could not offer a trade account this time. You may apply again." },
  suspended: { label: "Suspended", tone: "bg-red-100 text-red-900", text: "Trade prices are paused. Please contact the trade desk." },
} as const;

const TYPE = { sole_trader: "Sole trader", partnership: "Partnership", limited_company: "Limited company" } as const;
const INVOICE_STATUS = { unpaid: "Unpaid", payment_pending: "Payment pending", paid: "Paid" } as const;
const invoiceStatus = (inv: { overdue: boolean; status: keyof typeof INVOICE_STATUS }) => (inv.overdue ? "Overdue" : INVOICE_STATUS[inv.status]);

// One formatter per time zone, made once: building one per date cost more than the rest of the render.
const formatters = new Map<string, Intl.DateTimeFormat>();
const shortDate = (timeZone: string) => {
  let format = formatters.get(timeZone);
  if (!format) formatters.set(timeZone, (format = new Intl.DateTimeFormat("en-GB", { timeZone, day: "numeric", month: "short", year: "numeric" })));
  return format;
};
/** `3 Oct 2026`: an order's moment in London, or an invoice's calendar date. */
const orderDate = (iso: string) => shortDate("Europe/London").format(new Date(iso));
const calendarDate = (date: string) => shortDate("UTC").format(new Date(`${date}T00:00:00Z`));

// min-w-0: a grid item otherwise grows to its table's width and the page scrolls sideways on a phone.
const card = "min-w-0 rounded-lg border border-stone-200 bg-white p-5 shadow-sm sm:p-6";

type Dashboard = Account;

function Figures({ account }: { account: Dashboard }) {
  const credit = account.credit;
  const overdue = credit ? credit.overdue > 0 : false;
  const canPay = account.unpaid_invoices !== null;
  const items = [
    ...(credit
      ? [
          { term: "Credit limit", value: formatPounds(credit.limit), id: "credit-limit" },
          { term: "Balance", value: formatPounds(credit.balance), id: "balance", note: "Unpaid invoices" },
          { term: "Available credit", value: formatPounds(credit.available), id: "available" },
        ]
      : [{ term: "Credit limit", value: formatPounds(account.credit_limit), id: "credit-limit" }]),
    { term: "Payment terms", value: `${account.terms_days} days`, id: "terms" },
    { term: "Trade discount", value: `${account.discount_percent}%`, id: "discount" },
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3">
      {items.map((item) => (
        <div key={item.id} className="rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:p-5">
          <dt className="text-sm font-semibold text-stone-600">{item.term}</dt>
          <dd className="mt-1 text-xl font-extrabold tabular-nums sm:text-2xl" data-testid={`trade-${item.id}`}>
            {item.value}
          </dd>
        </div>
      ))}
      {credit ? (
        <div className={`rounded-lg border p-4 shadow-sm sm:p-5 ${overdue ? "border-red-300 bg-red-50" : "border-stone-200 bg-white"}`}>
          <dt className={`text-sm font-semibold ${overdue ? "text-red-900" : "text-stone-600"}`}>Overdue</dt>
          <dd className={`mt-1 text-xl font-extrabold tabular-nums sm:text-2xl ${overdue ? "text-red-800" : ""}`} data-testid="trade-overdue">
            {formatPounds(credit.overdue)}
          </dd>
          {overdue ? (
            <dd className="mt-1 text-sm text-red-900">
              {canPay ? (
                <Link to="/trade/invoices/pay" className="font-semibold underline underline-offset-2">
                  Pay now
                </Link>
              ) : (
                "Pay on account is paused until it is paid."
              )}
            </dd>
          ) : null}
        </div>
      ) : null}
    </dl>
  );
}

/** A card's heading, with a link to the whole list beside it. */
function CardHead({ id, title, to, link }: { id: string; title: string; to: string; link: string }) {
  return <SectionHead id={id} title={title} to={to} link={link} titleClassName="text-lg font-bold" linkClassName="text-sm font-semibold underline underline-offset-2" />;
}

/** A card's table, scrolling sideways on a phone; each column its name and classes (which hide it on small screens). */
function CardTable({ testId, caption, columns, children }: { testId: string; caption: string; columns: readonly (readonly [label: string, className: string])[]; children: ReactNode }) {
  return (
    <div className="-mx-5 mt-3 overflow-x-auto sm:mx-0">
      <table className="w-full border-collapse text-left text-sm sm:text-base" data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-stone-100 text-sm text-stone-700">
          <HeadRow cells={columns} />
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

function RecentOrders({ account }: { account: Dashboard }) {
  const own = account.scope === "own";
  const heading = own ? "Your recent orders" : "Recent orders";
  return (
    <section className={card} aria-labelledby="recent-orders-heading">
      <CardHead id="recent-orders-heading" title={heading} to="/account/orders/history" link="Your order history" />
      {account.recent_orders.length === 0 ? (
        <p className="mt-3 text-stone-700" role="status">
          {own ? "You have not placed an order for the company yet." : "No orders yet."}{" "}
          <Link to="/products" className="underline underline-offset-2">
            Browse the shop
          </Link>
        </p>
      ) : (
        <CardTable
          testId="recent-orders"
          caption={`${heading}, newest first`}
          columns={[
            ["Order", "px-3 py-2 sm:px-4"],
            ["Date", "hidden px-3 py-2 sm:table-cell sm:px-4"],
            ["Placed by", "hidden px-3 py-2 sm:table-cell sm:px-4"],
            ["Total", "px-3 py-2 text-right sm:px-4"],
            ["Status", "px-3 py-2 sm:px-4"],
            ["Payment", "hidden px-3 py-2 md:table-cell md:px-4"],
          ]}
        >
          {account.recent_orders.map((o) => (
            <tr key={o.id} className="border-t border-stone-200">
              <th scope="row" className="px-3 py-2 font-semibold whitespace-nowrap sm:px-4">
                {/* Only the buyer's own orders open: /account/orders is theirs alone. */}
                {o.placed_by_you ? (
                  <Link to={`/account/orders/${o.id}`} className="underline underline-offset-2">
                    {o.number}
                  </Link>
                ) : (
                  o.number
                )}
                {/* On a phone the date and buyer sit under the number rather than in columns off the screen. */}
                <span className="block text-xs font-normal text-stone-600 sm:hidden">
                  {orderDate(o.created_at)} · {o.placed_by_you ? "you" : o.placed_by}
                </span>
              </th>
              <td className="hidden px-3 py-2 whitespace-nowrap sm:table-cell sm:px-4">{orderDate(o.created_at)}</td>
              <td className="hidden px-3 py-2 sm:table-cell sm:px-4">{o.placed_by_you ? `${o.placed_by} (you)` : o.placed_by}</td>
              <td className="px-3 py-2 text-right tabular-nums sm:px-4">{formatPounds(o.total)}</td>
              <td className="px-3 py-2 sm:px-4">{o.status_label}</td>
              <td className="hidden px-3 py-2 md:table-cell md:px-4">{PAYMENT_LABELS[o.payment_method] ?? o.payment_method}</td>
            </tr>
          ))}
        </CardTable>
      )}
    </section>
  );
}

function UnpaidInvoices({ invoices }: { invoices: NonNullable<Dashboard["unpaid_invoices"]> }) {
  return (
    <section className={card} aria-labelledby="unpaid-heading">
      <CardHead id="unpaid-heading" title="Unpaid invoices" to="/trade/invoices" link="All invoices" />
      {invoices.length === 0 ? (
        <p className="mt-3 text-stone-700" role="status">
          Nothing to pay: every invoice is paid.
        </p>
      ) : (
        <>
          <p className="mt-1 text-sm text-stone-600">Oldest due date first.</p>
          <CardTable
            testId="unpaid-invoices"
            caption="Unpaid invoices, by due date"
            columns={[
              ["Invoice", "px-3 py-2 sm:px-4"],
              ["Due", "px-3 py-2 sm:px-4"],
              ["Total", "px-3 py-2 text-right sm:px-4"],
              ["Status", "hidden px-3 py-2 sm:table-cell sm:px-4"],
            ]}
          >
            {invoices.map((inv) => (
              <tr key={inv.id} className="border-t border-stone-200">
                <th scope="row" className="px-3 py-2 font-semibold whitespace-nowrap sm:px-4">
                  <InvoiceLink invoice={inv} className="underline underline-offset-2" />
                </th>
                <td className="px-3 py-2 whitespace-nowrap sm:px-4">
                  {calendarDate(inv.due_date)}
                  {inv.overdue || inv.status !== "unpaid" ? <span className={`block text-xs sm:hidden ${inv.overdue ? "font-semibold text-red-800" : "text-stone-600"}`}>{invoiceStatus(inv)}</span> : null}
                </td>
                <td className="px-3 py-2 text-right tabular-nums sm:px-4">{formatPounds(inv.total)}</td>
                <td className={`hidden px-3 py-2 sm:table-cell sm:px-4 ${inv.overdue ? "font-semibold text-red-800" : ""}`}>{invoiceStatus(inv)}</td>
              </tr>
            ))}
          </CardTable>
          <p className="mt-4">
            <Link to="/trade/invoices/pay" className="btn-primary inline-flex">
              Pay invoices
            </Link>
          </p>
        </>
      )}
    </section>
  );
}

function CompanyDetails({ account }: { account: Dashboard }) {
  return (
    <section className={card} aria-labelledby="company-heading">
      <h2 id="company-heading" className="text-lg font-bold">
        Company details
      </h2>
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
    </section>
  );
}

/** The account at a glance: state and terms; once approved, credit, spend, recent orders and what is unpaid. */
export default function TradeDashboard(props: Route.ComponentProps) {
  const data = props.loaderData;
  if (!data.loaded) {
    return (
      <>
        <PageHeading title="Trade dashboard" />
        <LoadingBlocks label="Loading your trade account…" blocks={3} height="h-40" withoutScripts="Show your trade account" />
      </>
    );
  }
  const { account } = data;
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
  // The quick order and quotes are every signed-in customer's; the rest only an approved (or suspended) account's.
  const links = [
    { to: "/trade/quick-order", label: "Quick order" },
    { to: "/account/quotes", label: "Quotes" },
    ...(approved
      ? [
          ...(account.unpaid_invoices !== null ? [{ to: "/trade/invoices", label: "Invoices" }] : []),
          { to: "/trade/sites", label: "Sites" },
          ...(account.role === "owner" || account.role === "admin" ? [{ to: "/trade/manage", label: "Users" }] : []),
        ]
      : []),
  ];
  return (
    <>
      <PageHeading title="Trade dashboard" />
      <div className="grid gap-6">
        <div className="grid gap-3">
          <div className="flex flex-wrap items-center gap-3">
            <h2 className="text-2xl font-bold">{account.company_name}</h2>
            <span className={`rounded-full px-3 py-0.5 text-sm font-semibold ${state.tone}`} data-testid="trade-state">
              {state.label}
            </span>
            {links.length ? (
              <nav aria-label="Trade account" className="w-full sm:ml-auto sm:w-auto">
                <ul className="flex flex-wrap gap-2">
                  <LinkItems links={links} className="btn-secondary inline-flex" />
                </ul>
              </nav>
            ) : null}
          </div>
          <p className="max-w-2xl text-stone-700">{state.text}</p>
        </div>
        {account.state === "declined" ? (
          <p>
            <Link to="/trade/setup" className="btn-primary inline-flex">
              Apply again
            </Link>
          </p>
        ) : null}
        {approved ? (
          <>
            <section aria-label="Credit and terms" className="min-w-0">
              <Figures account={account} />
            </section>
            <div className="grid gap-6 lg:grid-cols-2">
              {/* Without the invoices beside it (a buyer), the chart takes the whole row. */}
              <section className={account.unpaid_invoices === null ? `${card} lg:col-span-2` : card} aria-labelledby="spend-heading">
                <h2 id="spend-heading" className="text-lg font-bold">
                  {account.scope === "own" ? "Your spend" : "Spend"}, last 12 months
                </h2>
                <p className="mt-1 mb-3 text-sm text-stone-600">Orders inc VAT and delivery, by the month they were placed; cancelled orders are left out.</p>
                <SpendChart months={account.monthly_spend} title={`${account.scope === "own" ? "Your" : `${account.company_name}'s`} spend by month, last 12 months`} />
              </section>
              {account.unpaid_invoices !== null ? <UnpaidInvoices invoices={account.unpaid_invoices} /> : null}
            </div>
            <RecentOrders account={account} />
          </>
        ) : null}
        <CompanyDetails account={account} />
      </div>
    </>
  );
}

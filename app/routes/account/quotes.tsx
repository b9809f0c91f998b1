import { Link } from "react-router";
import { appContext } from "#app-context";
import { FactsRow } from "../../components/facts-row.tsx";
import { Breadcrumbs, EmptyState, PageHeading } from "../../components/page.tsx";
import { QuoteStatusBadge } from "../../components/quotes/quote-status.tsx";
import { formatLongDate, londonToday } from "../../lib/hire.ts";
import { formatPounds } from "../../lib/money.ts";
import { pageMeta } from "../../lib/meta.ts";
import { BEING_PRICED, quoteHref } from "../../lib/quotes.ts";
import type { Route } from "./+types/quotes";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Your quotes");

/** The same page as GET /api/quotes: the customer's quotes and, by their trade role, their company's; newest first, by keyset. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const raw = Number(new URL(request.url).searchParams.get("cursor") ?? "");
  const cursor = Number.isSafeInteger(raw) && raw > 0 && raw <= 2_147_483_647 ? raw : undefined;
  // The signed-in layout has already sent guests to sign in.
  const page = await app.services.quotes.list(app.user!.id, cursor);
  return { ...page, first: cursor === undefined, you: app.user!.name };
}

export default function Quotes({ loaderData }: Route.ComponentProps) {
  const { data: quotes, next_cursor: next, first, you } = loaderData;
  // Colleagues' quotes are among them (an owner, admin or accounts user): each says who asked.
  const others = quotes.some((q) => q.customer !== you);
  return (
    <div className="mx-auto max-w-4xl">
      <Breadcrumbs items={[{ label: "Home", to: "/" }, { label: "Your account", to: "/account" }, { label: "Quotes" }]} />
      <PageHeading title="Your quotes" intro="Prices we have worked out for you on larger orders. Accept a quote to order at its prices before its last day." />
      {quotes.length === 0 && first ? (
        <EmptyState title="You have no quotes yet." action={{ to: "/basket", label: "Go to your basket" }}>
          To ask for a quote, add what you need to your basket, then choose “Request a quote” there. We price it and email you.
        </EmptyState>
      ) : (
        <>
          <ul className="grid gap-3" data-testid="quote-list">
            {quotes.map((q) => (
              <li key={q.number} className="grid gap-3 rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center" data-testid="quote-row">
                <div className="min-w-0">
                  <div className="flex flex-wrap items-center gap-2">
                    <Link to={quoteHref(q.number)} className="text-lg font-semibold hover:underline">
                      Quote {q.number}
                    </Link>
                    <QuoteStatusBadge status={q.status} label={q.status_label} />
                  </div>
                  <p className="text-sm text-stone-600">
                    Requested {formatLongDate(londonToday(new Date(q.created_at)))}
                    {others ? ` by ${q.customer}` : ""}
                    {q.company && others ? ` for ${q.company}` : ""}
                  </p>
                </div>
                <FactsRow className="grid-cols-3 gap-x-4 sm:min-w-96" items={[["Lines", q.lines], ["Total inc VAT", q.total === null ? BEING_PRICED : formatPounds(q.total)], ["Valid until", q.valid_until ? formatLongDate(q.valid_until) : "Not yet set"]]} />
              </li>
            ))}
          </ul>
          {quotes.length === 0 ? <p className="text-stone-700">There are no older quotes.</p> : null}
          {next || !first ? (
            <nav aria-label="Pages" className="mt-4 flex flex-wrap gap-3">
              {!first ? (
                <Link to="/account/quotes" className="btn-secondary">
                  Newest quotes
                </Link>
              ) : null}
              {next ? (
                <Link to={`?cursor=${next}`} className="btn-secondary">
                  Older quotes
                </Link>
              ) : null}
            </nav>
          ) : null}
          <p className="mt-6 text-stone-700">
            To ask for another quote, add what you need to your{" "}
            <Link to="/basket" className="link">
              basket
            </Link>{" "}
            and choose “Request a quote” there.
          </p>
        </>
      )}
    </div>
  );
}

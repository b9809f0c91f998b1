import { useEffect, useRef } from "react";
import { Form, Link, useLocation, useNavigation, useSearchParams } from "react-router";
import { appContext } from "#app-context";
import { londonDate } from "../../../server/modules/hire/calendar.ts";
import { Breadcrumbs, PageHeading } from "../../components/page.tsx";
import { AcceptQuote } from "../../components/quotes/accept-quote.tsx";
import { QuoteLines, QuoteTotals } from "../../components/quotes/quote-lines.tsx";
import { QuoteStatusBadge } from "../../components/quotes/quote-status.tsx";
import { savedInOrder } from "../../components/checkout/saved-addresses.tsx";
import { FormAlert, FormSuccess, TextAreaField } from "../../components/form.tsx";
import { serviceError } from "../../lib/admin/access.ts";
import { refreshBasket } from "../../lib/basket.ts";
import { formatOrderDate } from "../../lib/basket-checkout.ts";
import { formatLongDate } from "../../lib/hire.ts";
import { pageMeta } from "../../lib/meta.ts";
import { notFound } from "../../lib/not-found.ts";
import { postcodeOrNull, quoteAction, quoteNumberOf } from "../../lib/quotes.server.ts";
import { type QuoteView, QUOTE_DONE, QUOTE_STATUS, READ_ONLY, isQuoteDone, quotePdfHref, quoteView, readOnlyFor, validityWarning } from "../../lib/quotes.ts";
import type { Route } from "./+types/quote";

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData ? `Quote ${loaderData.quote.number}` : "Quote");

/**
 * The same quote as GET /api/quotes/{number}, from the same service: the
 * customer's own, or their company's by their trade role; anyone else's is
 * not found. While it may be accepted, what accepting needs: the delivery and
 * payment options (priced for the default delivery address), the address book,
 * and this render's key for the acceptance.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const userId = app.user!.id;
  const number = quoteNumberOf(params);
  const quote = await app.services.quotes.get(userId, number).catch((error: unknown) => {
    if (serviceError(error)?.status === 404) notFound();
    throw error;
  });
  let accept = null;
  if (quote.can.accept) {
    const addresses = await app.services.account.listAddresses(userId);
    const pricedFor = postcodeOrNull(savedInOrder(addresses, "delivery")[0]?.postcode) ?? "";
    const options = (await app.services.quoteAcceptance.options(userId, number, pricedFor || null)).data;
    accept = { options, pricedFor, addresses, key: globalThis.crypto.randomUUID() };
  }
  return { quote: quoteView(quote), accept, today: londonDate(), mine: quote.customer.id === userId };
}

/** Accept, ask for changes or decline: a form post, through the same services as the API. */
export async function action({ context, request, params }: Route.ActionArgs) {
  return quoteAction(context.get(appContext), request, quoteNumberOf(params));
}

const section = "grid content-start gap-3";
const card = "rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:p-5";

export default function Quote({ loaderData, actionData }: Route.ComponentProps) {
  const { quote, accept, today, mine } = loaderData;
  const [params] = useSearchParams();
  const location = useLocation();
  const done = params.get("done");
  const banner = useRef<HTMLDivElement>(null);
  const status = QUOTE_STATUS[quote.status];
  const warning = validityWarning(quote, today);
  // A refusal whose form is no longer on the page (the quote was accepted or declined meanwhile, or the viewer may only read it): said at the top.
  const formShown = { accept: accept !== null, changes: quote.can.changes, decline: quote.can.decline, request: false };
  const orphan = actionData && !formShown[actionData.intent] ? actionData.message : undefined;
  const orphanRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (orphan) orphanRef.current?.focus();
  }, [orphan, actionData]);

  // After a write the page comes back with its confirmation: focus goes there, so it is heard.
  // A quote asked for from the basket has emptied it: the header's basket says so.
  useEffect(() => {
    if (!isQuoteDone(done)) return;
    banner.current?.focus();
    if (done === "requested") void refreshBasket();
  }, [done, location.key]);

  return (
    <div className="mx-auto max-w-5xl">
      <Breadcrumbs items={[{ label: "Home", to: "/" }, { label: "Your account", to: "/account" }, { label: "Quotes", to: "/account/quotes" }, { label: quote.number }]} />
      <PageHeading title={`Quote ${quote.number}`} />
      {isQuoteDone(done) ? (
        <div ref={banner} tabIndex={-1} className="mb-6" data-testid="quote-done">
          <FormSuccess>{QUOTE_DONE[done](quote.number)}</FormSuccess>
        </div>
      ) : null}
      <FormAlert ref={orphanRef} message={orphan} className="mb-6" />
      <div className="mb-6 grid gap-2" data-testid="quote-status">
        <p className="flex flex-wrap items-center gap-2">
          <span className="sr-only">Status:</span>
          <QuoteStatusBadge status={quote.status} label={quote.status_label} />
          {quote.revision > 1 ? <span className="text-sm text-stone-600">Revision {quote.revision}</span> : null}
        </p>
        <p className="max-w-3xl text-stone-800">{status.meaning}</p>
        {quote.status === "declined" && quote.decline_reason ? <p className="text-stone-700">Reason: {quote.decline_reason}</p> : null}
        {quote.order ? (
          <p className="font-semibold" data-testid="quote-order">
            It is order{" "}
            {mine ? (
              <Link to={`/account/orders/${quote.order.id}`} className="link">
                {quote.order.number}
              </Link>
            ) : (
              quote.order.number
            )}
            .
          </p>
        ) : null}
        {warning ? (
          <p className={`rounded-md border-l-4 px-4 py-3 font-semibold ${quote.past_valid_until ? "border-red-700 bg-red-50 text-red-900" : "border-amber-600 bg-amber-50 text-amber-950"}`} data-testid="quote-validity-warning">
            {warning}
          </p>
        ) : null}
        {readOnlyFor(quote) ? (
          <p className="rounded-md border-l-4 border-stone-500 bg-stone-100 px-4 py-3" data-testid="quote-read-only">
            {READ_ONLY}
          </p>
        ) : null}
      </div>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <section aria-labelledby="quote-lines-heading" className={`${section} min-w-0`}>
          <h2 id="quote-lines-heading" className="text-lg font-semibold">
            {quote.lines.length} {quote.lines.length === 1 ? "line" : "lines"}
          </h2>
          <QuoteLines quote={quote} />
        </section>
        <aside aria-labelledby="quote-totals-heading" className={`${card} h-fit`}>
          <h2 id="quote-totals-heading" className="text-lg font-semibold">
            Totals
          </h2>
          <div className="mt-3">
            <QuoteTotals quote={quote} />
          </div>
          <dl className="mt-4 grid gap-1 text-sm">
            <dt className="font-semibold">Valid until</dt>
            <dd data-testid="quote-valid-until">{quote.valid_until ? formatLongDate(quote.valid_until) : "Set when we send it"}</dd>
          </dl>
          <Documents quote={quote} />
        </aside>
      </div>
      <QuoteFacts quote={quote} />

      {accept ? (
        <section aria-labelledby="accept-heading" className={`${section} mt-8`}>
          <h2 id="accept-heading" className="text-xl font-bold">
            Accept this quote
          </h2>
          <p className="text-stone-700">Accepting places an order at exactly these prices. Choose how it reaches you and how you pay.</p>
          <AcceptQuote
            // Drawn again from each refusal: the form as sent, and the delivery prices it brought back.
            key={actionData?.intent === "accept" ? JSON.stringify(actionData) : "accept"}
            quote={quote}
            options={accept.options}
            pricedFor={accept.pricedFor}
            addresses={accept.addresses}
            idempotencyKey={accept.key}
            failure={actionData?.intent === "accept" ? actionData : undefined}
          />
        </section>
      ) : null}

      {quote.can.changes || quote.can.decline ? (
        <div className="mt-8 grid gap-6 md:grid-cols-2">
          {ANSWER_INTENTS.filter((intent) => quote.can[intent]).map((intent) => (
            <AnswerForm key={intent} intent={intent} {...ANSWERS[intent]} failure={actionData?.intent === intent ? actionData : undefined} />
          ))}
        </div>
      ) : null}

      <History quote={quote} />
    </div>
  );
}

/** What the customer asked with, and the terms the quote is given on. */
function QuoteFacts({ quote }: { quote: QuoteView }) {
  const facts: [string, string][] = [
    ...(quote.company ? ([["For", quote.company.name]] as [string, string][]) : []),
    ...(quote.site ? ([["Site", quote.site.name]] as [string, string][]) : []),
    ["Asked for by", quote.customer.name],
    ["Needed by", quote.needed_by ? formatLongDate(quote.needed_by) : "No date given"],
    ...(quote.notes ? ([["Your notes", quote.notes]] as [string, string][]) : []),
  ];
  return (
    <div className="mt-6 grid content-start gap-6 md:grid-cols-2">
      <dl className={`${card} grid h-fit gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_minmax(0,1fr)]`}>
        {facts.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="font-semibold">{term}</dt>
            <dd className="whitespace-pre-line break-words">{value}</dd>
          </div>
        ))}
      </dl>
      {quote.terms ? (
        <section aria-labelledby="quote-terms-heading" className={`${card} h-fit`}>
          <h2 id="quote-terms-heading" className="font-semibold">
            Terms
          </h2>
          <p className="mt-1 whitespace-pre-line break-words text-sm text-stone-800" data-testid="quote-terms">
            {quote.terms}
          </p>
        </section>
      ) : null}
    </div>
  );
}

/** The PDF of the version sent last (each version's is under "Versions sent"). */
function Documents({ quote }: { quote: QuoteView }) {
  if (!quote.revisions.length) return <p className="mt-4 text-sm text-stone-700">The PDF comes with the priced quote, by email and here.</p>;
  return (
    <a href={quotePdfHref(quote.number)} className="btn-secondary mt-4 w-full" data-testid="quote-pdf">
      Download the quote (PDF)
    </a>
  );
}

const BY: Record<string, string> = { staff: "Our team", system: "Automatic" };

/** The quote's timeline, oldest first, and the versions it was sent in. */
function History({ quote }: { quote: QuoteView }) {
  return (
    <div className="mt-8 grid gap-6 md:grid-cols-2">
      <section aria-labelledby="quote-history-heading" className={section}>
        <h2 id="quote-history-heading" className="text-lg font-semibold">
          What has happened
        </h2>
        <ol className="grid gap-3 border-l-2 border-brand-700 pl-4" data-testid="quote-timeline">
          {quote.events.map((e, i) => (
            <li key={i}>
              <span className="font-semibold">{e.status[0]!.toUpperCase() + e.status.slice(1)}</span> <span className="text-sm text-stone-600">{formatOrderDate(e.at)}</span>
              <span className="block text-sm text-stone-600">{BY[e.by] ?? quote.customer.name}</span>
              {e.note ? <span className="block text-sm break-words text-stone-800">{e.note}</span> : null}
            </li>
          ))}
        </ol>
      </section>
      <section aria-labelledby="quote-revisions-heading" className={section}>
        <h2 id="quote-revisions-heading" className="text-lg font-semibold">
          Versions sent
        </h2>
        {quote.revisions.length ? (
          <ul className="grid gap-2" data-testid="quote-revisions">
            {quote.revisions.map((r) => (
              <li key={r.revision} className="flex flex-wrap justify-between gap-2">
                <span>
                  Revision {r.revision}, sent {formatOrderDate(r.sent_at)}
                </span>
                <a href={quotePdfHref(quote.number, r.revision)} className="link">
                  PDF<span className="sr-only"> of revision {r.revision}</span>
                </a>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-stone-700">None yet: we send the first once it is priced.</p>
        )}
      </section>
    </div>
  );
}

/** The customer's two written answers to a quote, in the order they are offered. */
const ANSWER_INTENTS = ["changes", "decline"] as const;
const ANSWERS = {
  changes: {
    title: "Ask for changes",
    intro: "Tell us what to change: other quantities, products or dates. We price it again and send you a new version; this one is kept.",
    field: { name: "message", label: "What would you like changed?", required: true, maxLength: 2000 },
    button: "Send my changes",
  },
  decline: {
    title: "Decline this quote",
    intro: "If you no longer need it, tell us. A declined quote can no longer be accepted.",
    field: { name: "reason", label: "Your reason", required: false, maxLength: 1000 },
    button: "Decline the quote",
  },
} as const;

/** Ask for changes or decline: one field, sent to the page's action; the page comes back saying what happened. */
function AnswerForm({
  intent,
  title,
  intro,
  field,
  button,
  failure,
}: {
  intent: "changes" | "decline";
  title: string;
  intro: string;
  field: { name: string; label: string; required: boolean; maxLength: number };
  button: string;
  failure: { message: string; errors: Record<string, string[]>; values: Record<string, string> } | undefined;
}) {
  const navigation = useNavigation();
  const sending = navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const alert = useRef<HTMLDivElement>(null);
  const id = `quote-${intent}`;
  const error = failure?.errors[field.name]?.join(" ");
  useEffect(() => {
    if (failure) (error ? document.getElementById(`${id}-${field.name}`) : alert.current)?.focus();
  }, [failure, error, id, field.name]);
  return (
    <section aria-labelledby={`${id}-heading`} className={`${card} ${section}`}>
      <h2 id={`${id}-heading`} className="text-lg font-semibold">
        {title}
      </h2>
      <p className="text-sm text-stone-700">{intro}</p>
      <Form method="post" className="grid gap-3">
        <input type="hidden" name="intent" value={intent} />
        <FormAlert ref={alert} message={failure?.message} />
        <TextAreaField
          id={`${id}-${field.name}`}
          label={field.label}
          name={field.name}
          required={field.required}
          optional={!field.required}
          maxLength={field.maxLength}
          defaultValue={failure?.values[field.name] ?? ""}
          error={error}
        />
        <div>
          <button type="submit" className={`${intent === "decline" ? "btn-secondary" : "btn-primary"} disabled:cursor-not-allowed disabled:opacity-75`} disabled={sending}>
            {sending ? "Sending…" : button}
          </button>
        </div>
      </Form>
    </section>
  );
}

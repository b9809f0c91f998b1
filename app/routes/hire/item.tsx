import { useEffect, useRef, useState } from "react";
import { Form, Link, redirect, useNavigate, useRouteLoaderData, useSearchParams } from "react-router";
import { readMyBranch } from "../../components/branches/my-branch.ts";
import { appContext } from "#app-context";
import { Field, FormAlert, FormSuccess, useFocusOnFailure, useSubmitting } from "../../components/form.tsx";
import { AvailabilityCalendar } from "../../components/hire/availability-calendar.tsx";
import { Picture } from "../../components/catalog/picture.tsx";
import { RatesTable } from "../../components/hire/rates-table.tsx";
import { QuoteSummary } from "../../components/hire/quote-summary.tsx";
import { Breadcrumbs } from "../../components/page.tsx";
import { ApiError, type FieldErrors, fieldMessage } from "../../lib/api-client.ts";
import { browserApi } from "../../lib/browser-api.ts";
import { failureFrom, type FormResult, text } from "../../lib/form-result.ts";
import { type HireBasketAnswer, type HireQuote, HIRE_MESSAGES, addDays, isCalendarDate } from "../../lib/hire.ts";
import { cartFromAnswer, setHireCart } from "../../lib/hire-basket.ts";
import { pageMeta } from "../../lib/meta.ts";
import { notFound } from "../../lib/not-found.ts";
import { useHydrated } from "../../lib/use-session.ts";
import type { RootData } from "../../lib/root-data.ts";
import type { Route } from "./+types/item";

const CALENDAR_DAYS = 28;

/** The description's words without its markup, for the meta description and structured data. */
const plainText = (html: string) =>
  html
    .replace(/<[^>]*>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, " ")
    .trim();
const MAX_HIRE_DAYS = 90;

/** The rules every hire's dates follow, as the server words them. */
function dateErrors(start: string, end: string, today: string): FieldErrors {
  const errors: FieldErrors = {};
  if (start < today) errors.start_date = ["The hire cannot start in the past."];
  if (end < start) errors.end_date = ["The return date must not be before the start date."];
  else if (end > addDays(start, MAX_HIRE_DAYS)) errors.end_date = [`A hire can last at most ${MAX_HIRE_DAYS} days.`];
  return errors;
}

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const hire = app.services.hire;
  const item = await hire.bySlug(params.slug);
  if (!item) {
    // An earlier slug of a renamed hire item keeps its links and search rankings.
    const moved = await hire.movedSlug(params.slug);
    if (moved) throw redirect(`/hire/${moved}${new URL(request.url).search}`, 301);
    notFound();
  }
  const today = hire.today();
  // The depot is in the address (the page is shared and cached); the browser moves to my branch's when it is a depot.
  const url = new URL(request.url);
  const depots = await app.services.hireDepots.list();
  const depot = depots.find((d) => d.slug === url.searchParams.get("depot")) ?? depots[0]!;
  const [availability, depotUnits] = await Promise.all([hire.availability(item.id, today, addDays(today, CALENDAR_DAYS - 1), depot.id), hire.unitsAt(item.id, depot.id)]);

  // Without scripts the form asks for this page again with the dates: the quote is rendered here.
  const start = url.searchParams.get("start_date") ?? "";
  const end = url.searchParams.get("end_date") ?? "";
  const rawQuantity = Number.parseInt(url.searchParams.get("quantity") ?? "1", 10);
  const quantity = Number.isFinite(rawQuantity) ? Math.min(99, Math.max(1, rawQuantity)) : 1;
  let quote: HireQuote | null = null;
  let quoteErrors: FieldErrors = {};
  if (start || end) {
    if (!isCalendarDate(start)) quoteErrors.start_date = ["Choose a valid start date."];
    if (!isCalendarDate(end)) quoteErrors.end_date = ["Choose a valid return date."];
    if (Object.keys(quoteErrors).length === 0) quoteErrors = dateErrors(start, end, today);
    if (Object.keys(quoteErrors).length === 0) {
      const available = await hire.freeUnits(item.id, start, end, depot.id);
      const byTransfer = available >= quantity ? 0 : await hire.byTransfer(item.id, start, end, depot.id);
      quote = { ...hire.quote(item, quantity, start, end), available, by_transfer: byTransfer, quantity, depot: { slug: depot.slug, name: depot.name, town: depot.town } };
    }
  }
  return {
    item,
    today,
    availability,
    depots: depots.map((d) => ({ slug: d.slug, name: d.name })),
    depot: { slug: depot.slug, name: depot.name, units: depotUnits },
    selection: { start_date: isCalendarDate(start) ? start : "", end_date: isCalendarDate(end) ? end : "", quantity },
    quote,
    quoteErrors,
    hireBasketEnabled: app.config.hireBasketEnabled,
  };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  if (!loaderData) return pageMeta(matches, "Hire item");
  const { item } = loaderData;
  return pageMeta(matches, `${item.name} hire`, `Hire a ${item.name} from £${item.rates.day.toFixed(2)} a day ex VAT. ${plainText(item.description)}`.slice(0, 300));
};

export async function clientAction({ request }: Route.ClientActionArgs): Promise<FormResult> {
  const form = await request.formData();
  try {
    const answer = await browserApi().post<HireBasketAnswer>("/api/hire-basket", {
      hire_item_id: Number(text(form, "hire_item_id")),
      quantity: Number(text(form, "quantity")),
      start_date: text(form, "start_date"),
      end_date: text(form, "end_date"),
      depot: text(form, "depot"),
    });
    setHireCart(answer.cart);
    return { ok: true, message: answer.message || "Added to your hire request." };
  } catch (error) {
    const cart = cartFromAnswer(error);
    if (cart) setHireCart(cart);
    return failureFrom(error, { fallback: HIRE_MESSAGES.add, fields: ["quantity", "start_date", "end_date"] });
  }
}

/** The price as the dates change: the quote API, asked a moment after the last change. */
function useLiveQuote(slug: string, values: { start: string; end: string; quantity: string; depot: string }, initial: { key: string; quote: HireQuote | null; errors: FieldErrors }) {
  const hydrated = useHydrated();
  const [state, setState] = useState<{ key: string; quote: HireQuote | null; errors: FieldErrors; failed: boolean }>({ ...initial, failed: false });
  const complete = isCalendarDate(values.start) && isCalendarDate(values.end);
  const key = `${values.start}|${values.end}|${values.quantity || "1"}|${values.depot}`;
  useEffect(() => {
    // The server has already priced the dates the page opened with.
    if (!hydrated || !complete || key === state.key) return;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const answer = await browserApi().get<{ data: HireQuote }>(`/api/hire/${slug}/quote`, {
          query: { start_date: values.start, end_date: values.end, quantity: values.quantity || "1", depot: values.depot },
          signal: controller.signal,
        });
        setState({ key, quote: answer.data, errors: {}, failed: false });
      } catch (error) {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && error.status === 422) setState({ key, quote: null, errors: error.errors, failed: false });
        else setState({ key, quote: null, errors: {}, failed: true });
      }
    }, 300);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [hydrated, complete, key, state.key, slug]); // eslint-disable-line react-hooks/exhaustive-deps
  if (!complete) return { quote: null, errors: state.key === key ? state.errors : {}, loading: false, failed: false };
  const fresh = state.key === key;
  // While a new price is on its way the last one stays, dimmed.
  return { quote: state.quote, errors: fresh ? state.errors : {}, loading: !fresh, failed: fresh && state.failed };
}

export default function HireItem({ loaderData, actionData }: Route.ComponentProps) {
  const { item, today, availability, selection, hireBasketEnabled, depots, depot } = loaderData;
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  // My branch, when it is a hire depot, is where the page opens (a visitor's choice lives in the browser).
  useEffect(() => {
    if (searchParams.has("depot")) return;
    const mine = readMyBranch();
    if (mine && mine !== depot.slug && depots.some((d) => d.slug === mine)) {
      const next = new URLSearchParams(searchParams);
      next.set("depot", mine);
      void navigate(`?${next.toString()}`, { replace: true, preventScrollReset: true });
    }
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
  const chooseDepot = (slug: string) => {
    const next = new URLSearchParams(searchParams);
    next.set("depot", slug);
    setShownAction(undefined);
    void navigate(`?${next.toString()}`, { replace: true, preventScrollReset: true });
  };
  const root = useRouteLoaderData<RootData>("root");
  const hydrated = useHydrated();
  const submitting = useSubmitting();
  const [start, setStart] = useState(selection.start_date);
  const [end, setEnd] = useState(selection.end_date);
  const [quantity, setQuantity] = useState(String(selection.quantity));
  const live = useLiveQuote(item.slug, { start, end, quantity, depot: depot.slug }, { key: `${selection.start_date}|${selection.end_date}|${selection.quantity}|${depot.slug}`, quote: loaderData.quote, errors: loaderData.quoteErrors });

  // The outcome of "Add to hire request" stands until the choice changes.
  const [shownAction, setShownAction] = useState<FormResult | undefined>(actionData);
  const [lastAction, setLastAction] = useState<FormResult | undefined>(actionData);
  if (actionData !== lastAction) {
    setLastAction(actionData);
    setShownAction(actionData);
  }
  const result = shownAction;
  const formRef = useRef<HTMLFormElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  useFocusOnFailure(result, formRef, alertRef);
  const changed = (set: (v: string) => void) => (event: React.ChangeEvent<HTMLInputElement>) => {
    set(event.target.value);
    setShownAction(undefined);
  };
  const errorOf = (field: string) => (result && !result.ok ? fieldMessage(result.errors, field) : undefined) ?? fieldMessage(live.errors, field);

  const jsonLd = {
    "@context": "https://schema.org",
    "@type": "Product",
    name: `${item.name} (hire)`,
    description: plainText(item.description),
    image: item.images.map((i) => i.src),
    category: `Hire / ${item.category.name}`,
    offers: {
      "@type": "Offer",
      price: item.rates.day.toFixed(2),
      priceCurrency: "GBP",
      priceSpecification: { "@type": "UnitPriceSpecification", price: item.rates.day.toFixed(2), priceCurrency: "GBP", unitCode: "DAY", valueAddedTaxIncluded: false },
      availability: availability.some((d) => d.free > 0) ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
    },
  };

  return (
    <>
      <script type="application/ld+json" nonce={root?.nonce} dangerouslySetInnerHTML={{ __html: JSON.stringify(jsonLd).replace(/</g, "\\u003c") }} />
      <Breadcrumbs
        items={[
          { label: "Home", to: "/" },
          { label: "Hire", to: "/hire" },
          { label: item.category.name, to: `/hire?category=${item.category.slug}` },
          { label: item.name },
        ]}
      />
      {/* Phones: the picture, then rates and dates, then the details. Wide screens: details left, booking right. */}
      <div className="grid gap-8 lg:grid-cols-2 lg:grid-rows-[auto_auto_1fr]">
        <div className="lg:col-start-1 lg:row-start-1">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{item.name}</h1>
          <p className="mt-1 text-stone-600">
            {item.category.name} · {item.units} {item.units === 1 ? "unit" : "units"} in our fleet
          </p>
          <div className="mt-4 grid gap-2">
            {item.images.length > 0 ? (
              item.images.map((image, i) => (
                <Picture key={image.src} image={image} alt={image.alt || item.name} sizes="(min-width: 1024px) 600px, 100vw" width={640} height={480} priority={i === 0 ? "high" : "lazy"} className="aspect-[4/3] w-full rounded-lg border border-stone-200 bg-white object-contain p-4" />
              ))
            ) : (
              <div className="aspect-[4/3] rounded-lg border border-stone-200 bg-stone-100" />
            )}
          </div>
        </div>
        <div className="grid content-start gap-6 lg:col-start-2 lg:row-span-3 lg:row-start-1">
          <section aria-labelledby="rates" className="rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:p-6">
            <h2 id="rates" className="mb-3 text-lg font-semibold">
              Hire rates
            </h2>
            <RatesTable rates={item.rates} deposit={item.deposit} vatRate={item.vat_rate} />
          </section>

          <section aria-labelledby="book" className="rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:p-6">
            <h2 id="book" className="mb-3 text-lg font-semibold">
              Choose your dates
            </h2>
            <Form method="get" ref={formRef} preventScrollReset className="grid gap-4" aria-describedby="quote">
              <input type="hidden" name="hire_item_id" value={item.id} />
              <FormAlert ref={alertRef} message={result && !result.ok ? result.message : undefined} />
              {depots.length > 1 ? (
                <div className="grid gap-1">
                  <label htmlFor="hire-depot" className="font-medium">
                    Hire depot
                  </label>
                  <select id="hire-depot" name="depot" value={depot.slug} onChange={(e) => chooseDepot(e.target.value)} className="input max-w-sm" aria-describedby="hire-depot-hint">
                    {depots.map((d) => (
                      <option key={d.slug} value={d.slug}>
                        {d.name}
                      </option>
                    ))}
                  </select>
                  <p id="hire-depot-hint" className="text-sm text-stone-600">
                    Where the equipment goes out from: collect it there, or we deliver from it.
                  </p>
                </div>
              ) : (
                <input type="hidden" name="depot" value={depot.slug} />
              )}
              <div className="grid gap-4 sm:grid-cols-2">
                <Field label="Start date" name="start_date" type="date" min={today} value={start} onChange={changed(setStart)} required error={errorOf("start_date")} />
                <Field label="Return date" name="end_date" type="date" min={start && start >= today ? start : today} value={end} onChange={changed(setEnd)} required error={errorOf("end_date")} />
              </div>
              <Field
                label="Quantity"
                name="quantity"
                type="number"
                inputMode="numeric"
                min={1}
                max={99}
                value={quantity}
                onChange={changed(setQuantity)}
                required
                error={errorOf("quantity")}
                className="max-w-40"
              />
              <div id="quote" aria-live="polite">
                <QuoteSummary quote={live.quote} loading={live.loading} failed={live.failed} />
              </div>
              {result?.ok ? (
                <FormSuccess>
                  {result.message}{" "}
                  <Link to="/hire-basket" className="link text-green-900">
                    View your hire request
                  </Link>
                </FormSuccess>
              ) : null}
              <div className="flex flex-wrap gap-3">
                {hydrated ? null : (
                  <button type="submit" className="btn-secondary">
                    Get a price
                  </button>
                )}
                {hireBasketEnabled ? (
                  <button type="submit" formMethod="post" className="btn-primary disabled:cursor-not-allowed disabled:opacity-75" disabled={!hydrated || submitting}>
                    {submitting ? "Adding…" : "Add to hire request"}
                  </button>
                ) : null}
              </div>
            </Form>
          </section>

          <section aria-labelledby="availability" className="rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:p-6">
            <h2 id="availability" className="mb-1 text-lg font-semibold">
              Availability
            </h2>
            <p className="mb-3 text-sm text-stone-600" data-testid="depot-availability">
              {depots.length > 1 ? `At ${depot.name}: ${depot.units} ${depot.units === 1 ? "unit" : "units"}. ` : ""}Units free each day for the next four weeks. A unit returned on a day can go out again that day.
            </p>
            <AvailabilityCalendar days={availability} units={depot.units} selected={isCalendarDate(start) && isCalendarDate(end) ? { start, end } : undefined} />
          </section>
        </div>
        <div className="lg:col-start-1 lg:row-start-2">
          {/* Sanitised when saved in the back office (catalog/products/sanitize.ts), as a product's description is. */}
          <div className="max-w-prose space-y-3 text-stone-800 [&_a]:text-brand-700 [&_a]:underline [&_h3]:font-bold [&_li]:mt-1 [&_ol]:list-decimal [&_ol]:pl-5 [&_ul]:list-disc [&_ul]:pl-5" dangerouslySetInnerHTML={{ __html: item.description }} />
          {item.product ? (
            <p className="mt-2">
              Rather buy one?{" "}
              <Link className="link" to={`/product/${item.product.slug}`}>
                {item.product.name}
              </Link>
            </p>
          ) : null}
          {item.specifications.length > 0 ? (
            <section aria-labelledby="specs" className="mt-6">
              <h2 id="specs" className="mb-2 text-lg font-semibold">
                Specifications
              </h2>
              <table className="w-full border-collapse text-left">
                <tbody>
                  {item.specifications.map((s) => (
                    <tr key={s.name} className="border-b border-stone-200">
                      <th scope="row" className="py-2 pr-4 font-medium text-stone-700">
                        {s.name}
                      </th>
                      <td className="py-2">{s.value}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          ) : null}
        </div>

      </div>
    </>
  );
}

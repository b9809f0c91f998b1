import { useEffect, useRef, useState } from "react";
import { Form, Link } from "react-router";
import { appContext } from "#app-context";
import { BasketScreen } from "../components/basket/basket-screen.tsx";
import { TOTAL_ROW } from "../components/totals-list.tsx";
import { useBasketLines } from "../components/basket/use-basket-lines.ts";
import { EmailField, Field, FormAlert, SubmitButton, useFocusOnFailure } from "../components/form.tsx";
import { HireBasketLine, type LineChange } from "../components/hire/hire-basket-line.tsx";
import { DeliveryPrice, DepotSelect, useDeliveryQuote } from "../components/hire/depot-delivery.tsx";
import { EMPTY_SITE_ADDRESS, type SiteAddress, SiteAddressFields } from "../components/hire/site-address-fields.tsx";
import { EmptyState, PageHeading } from "../components/page.tsx";
import { browserApi } from "../lib/browser-api.ts";
import { errorFor, failureFrom, type FormFailure, text } from "../lib/form-result.ts";
import { HIRE_MESSAGES, londonToday } from "../lib/hire.ts";
import { hireBasketStore, refreshHireBasket, useHireBasket } from "../lib/hire-basket.ts";
import { formatPounds } from "../lib/money.ts";
import { pageMeta } from "../lib/meta.ts";
import { notFound } from "../lib/not-found.ts";
import { usePageUser } from "../lib/use-session.ts";
import type { Route } from "./+types/hire-basket";

export async function loader({ context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  // With HIRE_BASKET_ENABLED off the hire basket does not exist at all.
  if (!app.config.hireBasketEnabled) notFound();
  // The basket itself is fetched in the browser: this page carries no per-visitor data. The depots are the same for everyone.
  const depots = await app.services.hireDepots.list();
  return { depots: depots.map((d) => ({ slug: d.slug, name: d.name })) };
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Your hire request", "Your hire request: the equipment, dates and delivery you want, sent to our hire desk to confirm.");

const REQUEST_FIELDS: string[] = ["name", "email", "phone", "company", "depot", "fulfilment", "address_line1", "address_line2", "town", "postcode", "notes"];

export async function clientAction({ request }: Route.ClientActionArgs): Promise<{ ok: true; number: string; email: string } | FormFailure> {
  const form = await request.formData();
  const body: Record<string, string> = {};
  for (const field of REQUEST_FIELDS) body[field] = text(form, field);
  try {
    const answer = await browserApi().post<{ number: string }>("/api/hire-requests", body);
    void refreshHireBasket();
    return { ok: true, number: answer.number, email: body.email ?? "" };
  } catch (error) {
    void refreshHireBasket();
    return failureFrom(error, { fallback: "Failed to send your hire request. Please try again.", fields: REQUEST_FIELDS, showServerMessageFor: [429] });
  }
}

function Confirmation({ number, email }: { number: string; email: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="mx-auto max-w-2xl">
      <div className="rounded-lg border border-green-700 bg-green-50 p-6" role="status">
        <h1 ref={heading} tabIndex={-1} className="text-2xl font-bold text-green-900">
          Hire request sent
        </h1>
        <p className="mt-3 text-lg">
          Your hire request number is <strong data-testid="hire-request-number">{number}</strong>.
        </p>
        <p className="mt-2">
          We hold the equipment for you for <strong>48 hours</strong> while we confirm the request with you. Nothing is charged until then.
          {email ? <> A copy is on its way to {email}.</> : null}
        </p>
      </div>
      <div className="mt-6 flex flex-wrap gap-3">
        <Link to="/hire" className="btn-primary">
          Browse more hire equipment
        </Link>
        <Link to="/account/hire-requests" className="btn-secondary">
          Your hire requests
        </Link>
      </div>
    </div>
  );
}

export default function HireBasket({ actionData, loaderData }: Route.ComponentProps) {
  const depots = loaderData.depots;
  const pageUser = usePageUser();
  const state = useHireBasket(true);
  const control = useBasketLines(hireBasketStore, "/api/hire-basket", HIRE_MESSAGES);
  const { lineErrors, busyLine, change, remove } = control;
  const [fulfilment, setFulfilment] = useState<"delivery" | "collection">("delivery");
  // Held here so that the address survives a switch to collection and back.
  const [site, setSite] = useState<SiteAddress>(EMPTY_SITE_ADDRESS);
  const [depot, setDepot] = useState("");
  const delivery = useDeliveryQuote(depot, site.postcode, fulfilment === "delivery");
  const depotName = depots.find((d) => d.slug === depot)?.name ?? state.cart?.depot?.name ?? "the depot";
  const today = londonToday();
  const formRef = useRef<HTMLFormElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const result = actionData && !actionData.ok ? actionData : undefined;
  useFocusOnFailure(result, formRef, alertRef);

  if (actionData?.ok) return <Confirmation number={actionData.number} email={actionData.email} />;

  const user = pageUser;

  return (
    <BasketScreen
      heading={<PageHeading title="Your hire request" intro="Check your equipment and dates, then send us your request. We hold the equipment for 48 hours while we confirm it." />}
      state={state}
      control={control}
      idOf={(item) => item.id}
      loadingText="Loading your hire request…"
      onRetry={() => void refreshHireBasket()}
      empty={
        <EmptyState title="Your hire request is empty." action={{ to: "/hire", label: "Browse hire equipment" }}>
          Choose equipment and dates on a hire item&apos;s page, then add it to your hire request.
        </EmptyState>
      }
      title={(_lines, cart) => `Equipment (${cart.itemCount} ${cart.itemCount === 1 ? "unit" : "units"})`}
      clearLabel="Clear"
      renderLine={(item) => (
        <HireBasketLine
          // A new answer from the server resets the line's inputs.
          key={`${item.id}-${item.quantity}-${item.start_date}-${item.end_date}`}
          item={item}
          today={today}
          error={lineErrors[item.id]}
          busy={busyLine === item.id}
          onChange={(body: LineChange) => void change(item.id, body)}
          onRemove={() => void remove(item.id)}
        />
      )}
      summaryTitle="Totals"
      totals={(cart) => [
        ["Hire (ex VAT)", cart.totals.hire_cost],
        ["VAT", cart.totals.vat],
        ["Hire charges (inc VAT)", Math.round((cart.totals.hire_cost + cart.totals.vat) * 100) / 100, "font-semibold"],
        ["Refundable deposit (no VAT)", cart.totals.deposit],
        ["Total to pay", cart.totals.total, TOTAL_ROW],
      ]}
      totalsTestId="hire-totals"
      summary={(_lines, cart) => (
        <p className="mt-3 text-sm text-stone-700">
          The total includes the {formatPounds(cart.totals.deposit)} deposit, refunded when the equipment comes back in good order. Nothing is charged until we confirm your request.
        </p>
      )}
    >
      <section aria-labelledby="request-heading" className="mt-10 max-w-2xl">
        <h2 id="request-heading" className="text-xl font-bold">
          Send your hire request
        </h2>
        <p className="mt-1 text-stone-700">We confirm by phone or email, usually within a working day.</p>
        <Form method="post" ref={formRef} className="mt-4 grid gap-5 rounded-lg border border-stone-200 bg-white p-5 shadow-sm sm:p-6" noValidate={false}>
          <FormAlert ref={alertRef} message={result?.message} />
          <Field label="Your name" name="name" autoComplete="name" required defaultValue={user?.name ?? ""} error={errorFor(result, "name")} />
          <div className="grid gap-5 sm:grid-cols-2">
            <EmailField defaultValue={user?.email ?? ""} error={errorFor(result, "email")} />
            <Field label="Phone" name="phone" type="tel" autoComplete="tel" required error={errorFor(result, "phone")} />
          </div>
          <Field label="Company" name="company" autoComplete="organization" optional error={errorFor(result, "company")} />
          <DepotSelect depots={depots} basketDepot={state.cart?.depot ?? null} value={depot} onChange={setDepot} error={errorFor(result, "depot")} />
          <fieldset className="grid gap-2">
            <legend className="mb-1 font-semibold">Delivery or collection</legend>
            {errorFor(result, "fulfilment") ? <p className="text-sm font-semibold text-red-700">{errorFor(result, "fulfilment")}</p> : null}
            {(
              [
                ["delivery", "Delivery to a site", `We deliver from ${depotName} and collect; priced by the distance from the depot.`],
                ["collection", "Collection from the branch", `Collect from and return to ${depotName}.`],
              ] as const
            ).map(([value, label, hint]) => (
              <label key={value} className="flex min-h-11 cursor-pointer items-start gap-3 rounded-md border border-stone-300 p-3 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50">
                <input type="radio" name="fulfilment" value={value} checked={fulfilment === value} onChange={() => setFulfilment(value)} className="mt-1 size-5 accent-brand-700" />
                <span>
                  <span className="font-semibold">{label}</span>
                  <span className="block text-sm text-stone-600">{hint}</span>
                </span>
              </label>
            ))}
          </fieldset>
          {fulfilment === "delivery" ? (
            <>
              <SiteAddressFields value={site} onChange={setSite} errors={(field) => errorFor(result, field)} />
              <DeliveryPrice depotName={depotName} delivery={delivery} />
            </>
          ) : null}
          <div className="grid gap-1.5">
            <label htmlFor="hire-notes" className="font-semibold">
              Notes <span className="font-normal text-stone-600">(optional)</span>
            </label>
            <p id="hire-notes-hint" className="text-sm text-stone-600">
              Site access, delivery times, anything we should know.
            </p>
            {errorFor(result, "notes") ? <p className="text-sm font-semibold text-red-700">{errorFor(result, "notes")}</p> : null}
            <textarea
              id="hire-notes"
              name="notes"
              rows={4}
              maxLength={2000}
              aria-describedby="hire-notes-hint"
              className="w-full rounded-md border border-stone-400 bg-white px-3 py-2 text-base focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-500"
            />
          </div>
          <SubmitButton busyLabel="Sending…">Send hire request</SubmitButton>
        </Form>
      </section>
    </BasketScreen>
  );
}

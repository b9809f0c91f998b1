import { Form, Link, data, useNavigation } from "react-router";
import { FieldError } from "../../../components/admin/field-error.tsx";
import { ADMIN_CONTROL, FormField, fieldProps } from "../../../components/admin/form-field.tsx";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { ResultBanner } from "../../../components/admin/result-banner.tsx";
import { serviceError } from "../../../lib/admin/access.ts";
import { longDay } from "../../../lib/admin/dashboard.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { formatPounds } from "../../../lib/money.ts";
import { CUSTOMER_KIND_LABELS } from "../../../../server/modules/account/customer-kinds.ts";
import { hireRequestHref } from "../../../../server/modules/hire/desk-labels.ts";
import { addDays, londonDate } from "../../../../server/modules/hire/calendar.ts";
import type { Route } from "./+types/book";
import { Options } from "../../../components/admin/options.tsx";
import { staffPost, staffScreen } from "../../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "New hire");

const KIND_LABELS = CUSTOMER_KIND_LABELS;

/**
 * A hire taken at the counter or by phone (issue 34), from the hire desk's
 * "New hire" or a free cell of the planner (`?unit=&starts_on=`): choose the
 * item, unit and dates and see the rate card's price and deposit; find the
 * customer or take a walk-in's name and phone; book. The service checks
 * `hire.desk`, prices it and refuses a taken unit with the clash named.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "hire.desk");
  const url = new URL(request.url);
  const get = (name: string, max = 200) => url.searchParams.get(name)?.trim().slice(0, max) ?? "";
  const unitParam = Number(get("unit", 12));
  const unitId = Number.isSafeInteger(unitParam) && unitParam > 0 && unitParam <= 2_147_483_647 ? unitParam : null;
  const ops = app.services.hireOperations;
  // A planner cell names the unit; its item follows.
  const item = get("item") || (unitId ? ((await ops.itemOfUnit(actor, unitId)) ?? "") : "");
  const today = londonDate();
  const startsOn = get("starts_on", 10) || today;
  const endsOn = get("ends_on", 10) || addDays(startsOn, 1);
  const q = get("q", 100);
  const [items, units, customers] = await Promise.all([
    app.services.adminHire.list(actor, { limit: 100 }),
    item ? ops.bookableUnits(actor, item).catch(() => []) : Promise.resolve([]),
    q ? app.services.adminCustomers.lookup(actor, q) : Promise.resolve([]),
  ]);
  let quote: Awaited<ReturnType<typeof ops.quoteBooking>> | null = null;
  let errors: Record<string, string[]> = {};
  if (item) {
    try {
      quote = await ops.quoteBooking(actor, { hire_item: item, starts_on: startsOn, ends_on: endsOn });
    } catch (error) {
      const known = serviceError(error);
      if (!known || known.status !== 422) throw error;
      errors = known.errors ?? { hire_item: [known.message] };
    }
  }
  return {
    items: items.data.map((i) => ({ slug: i.slug, name: i.name })),
    units,
    customers,
    quote,
    errors,
    chosen: { item, unit: unitId && units.some((u) => u.id === unitId) ? String(unitId) : "", starts_on: startsOn, ends_on: endsOn, q, customer_id: get("customer_id", 12) },
  };
}

type ActionResult =
  | { ok: true; booked: { number: string; asset_number: string; starts_on: string; ends_on: string; total: number; deposit: number } }
  | { ok: false; message: string; errors: Record<string, string[]>; values: Record<string, string> };

export async function action({ context, request }: Route.ActionArgs) {
  const { app, actor, form } = await staffPost(context, request, "hire.desk");
  const { parseInput } = await import("../../../../server/http-errors.ts");
  const { bookingBody } = await import("../../../../server/modules/hire/desk/contract.ts");
  const text = (name: string, max = 200) => String(form.get(name) ?? "").slice(0, max).trim();
  const values = Object.fromEntries(["hire_item", "unit_id", "starts_on", "ends_on", "who", "name", "phone", "email", "notes"].map((k) => [k, text(k, 1000)]));
  try {
    const who = text("who", 20);
    const body = parseInput(bookingBody, {
      hire_item: text("hire_item"),
      unit_id: text("unit_id", 12) || undefined,
      starts_on: text("starts_on", 10),
      ends_on: text("ends_on", 10),
      ...(who && who !== "walk_in" ? { customer_id: who } : who === "walk_in" ? { customer: { name: text("name"), phone: text("phone", 40), email: text("email", 254) } } : {}),
      notes: text("notes", 1000) || undefined,
    });
    const booked = await app.services.hireOperations.book(actor, body);
    return data<ActionResult>({ ok: true, booked: { number: booked.number, asset_number: booked.unit.asset_number, starts_on: booked.starts_on, ends_on: booked.ends_on, total: booked.hire_ex_vat + booked.vat, deposit: booked.deposit } });
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    return data<ActionResult>({ ok: false, message: known.status === 409 ? known.message : "The hire was not booked: check the fields marked below.", errors: known.errors ?? {}, values }, { status: known.status });
  }
}

export default function NewHire({ loaderData, actionData }: Route.ComponentProps) {
  const { items, units, customers, quote, chosen } = loaderData;
  const busy = useNavigation().state === "submitting";
  const failed = actionData && !actionData.ok ? actionData : null;
  const errors = { ...loaderData.errors, ...(failed?.errors ?? {}) };
  const who = failed?.values.who || (chosen.customer_id ? chosen.customer_id : customers.length ? "" : "walk_in");
  const walkIn = (name: string) => failed?.values[name] ?? "";

  if (actionData?.ok) {
    const b = actionData.booked;
    return (
      <>
        <PageHeader title="New hire" />
        <ResultBanner ok result={actionData}>
          Booked {b.number}: unit {b.asset_number} from {longDay(b.starts_on)} until {longDay(b.ends_on)}. Hire {formatPounds(b.total)} including VAT, deposit {formatPounds(b.deposit)}.
        </ResultBanner>
        <div className="flex flex-wrap gap-2">
          <Link to={hireRequestHref(b.number)} className="btn-primary">
            Open {b.number}
          </Link>
          <Link to="/admin/hire/planner" className="btn-secondary">
            Back to the planner
          </Link>
          <Link to="/admin/hire/bookings/new" reloadDocument className="btn-secondary">
            Book another hire
          </Link>
        </div>
      </>
    );
  }

  return (
    <>
      <PageHeader
        title="New hire"
        intro="A hire for a customer at the counter or on the phone: it is approved as soon as it is booked, and shows on the hire desk and the planner."
        links={[{ to: "/admin/hire/planner", label: "Planner" }]}
      />
      {failed ? (
        <ResultBanner ok={false} result={actionData}>
          {failed.message}
        </ResultBanner>
      ) : null}

      <Form method="get" aria-labelledby="what-heading" className="mb-6 grid gap-4 rounded-lg border border-stone-200 bg-white p-4">
        <h2 id="what-heading" className="text-lg font-bold">
          1. What and when
        </h2>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <FormField prefix="what" id="item" label="Hire item" errors={{ item: errors.hire_item ?? [] }}>
            <select {...fieldProps("what", "item", { item: errors.hire_item ?? [] })} defaultValue={chosen.item} className={ADMIN_CONTROL}>
              <option value="">Choose a hire item</option>
              <Options of={items} value={(i) => i.slug} label={(i) => i.name} />
            </select>
          </FormField>
          <FormField prefix="what" id="unit" label="Unit" errors={{ unit: errors.unit_id ?? [] }}>
            <select {...fieldProps("what", "unit", { unit: errors.unit_id ?? [] })} defaultValue={chosen.unit} className={ADMIN_CONTROL}>
              <option value="">Any free unit</option>
              <Options of={units} value={(u) => u.id} label={(u) => u.asset_number} />
            </select>
          </FormField>
          <FormField prefix="what" id="starts_on" label="Starts on" errors={errors}>
            <input type="date" {...fieldProps("what", "starts_on", errors)} defaultValue={chosen.starts_on} className={ADMIN_CONTROL} />
          </FormField>
          <FormField prefix="what" id="ends_on" label="Back on" errors={errors}>
            <input type="date" {...fieldProps("what", "ends_on", errors)} defaultValue={chosen.ends_on} className={ADMIN_CONTROL} />
          </FormField>
        </div>
        <FormField prefix="what" id="q" label="Find the customer" hint="Name, email, phone, postcode or company. Leave empty for a walk-in." errors={undefined} className="max-w-xl">
          <input type="search" {...fieldProps("what", "q", undefined, true)} defaultValue={chosen.q} className={ADMIN_CONTROL} />
        </FormField>
        <div>
          <button type="submit" className="btn-secondary">
            Show price and customers
          </button>
        </div>
      </Form>

      <Form method="post" aria-labelledby="who-heading" className="grid gap-4 rounded-lg border border-stone-200 bg-white p-4">
        <input type="hidden" name="hire_item" value={chosen.item} />
        <input type="hidden" name="unit_id" value={chosen.unit} />
        <input type="hidden" name="starts_on" value={chosen.starts_on} />
        <input type="hidden" name="ends_on" value={chosen.ends_on} />
        <h2 id="who-heading" className="text-lg font-bold">
          2. Who is hiring
        </h2>
        <fieldset className="grid gap-2">
          <legend className="mb-1 text-sm font-semibold">Customer</legend>
          <FieldError id="who-error" messages={errors.customer ?? errors.customer_id} />
          {chosen.q && customers.length === 0 ? <p className="text-sm text-stone-700">No customer with an account matches “{chosen.q}”: take their details as a walk-in.</p> : null}
          {customers.map((c) => (
            <label key={c.id} className="flex items-start gap-2 rounded-md border border-stone-200 p-2">
              <input type="radio" name="who" value={String(c.id)} defaultChecked={who === String(c.id)} className="mt-1 size-4" />
              <span className="min-w-0">
                <span className="font-semibold">{c.name}</span> <span className="text-sm text-stone-700">({KIND_LABELS[c.kind]}{c.company ? `, ${c.company}` : ""})</span>
                <span className="block break-words text-sm text-stone-700">
                  {c.email}
                  {c.phone ? ` · ${c.phone}` : ""}
                </span>
              </span>
            </label>
          ))}
          <label className="flex items-center gap-2 rounded-md border border-stone-200 p-2">
            <input type="radio" name="who" value="walk_in" defaultChecked={who === "walk_in"} className="size-4" />
            <span className="font-semibold">Walk-in customer</span>
          </label>
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-3">
          <FormField prefix="walk" id="customer.name" label="Walk-in's name" errors={errors}>
            <input {...fieldProps("walk", "customer.name", errors)} name="name" autoComplete="off" defaultValue={walkIn("name")} className={ADMIN_CONTROL} />
          </FormField>
          <FormField prefix="walk" id="customer.phone" label="Phone" errors={errors}>
            <input {...fieldProps("walk", "customer.phone", errors)} name="phone" type="tel" autoComplete="off" defaultValue={walkIn("phone")} className={ADMIN_CONTROL} />
          </FormField>
          <FormField prefix="walk" id="customer.email" label="Email (optional)" errors={errors}>
            <input {...fieldProps("walk", "customer.email", errors)} name="email" type="email" autoComplete="off" defaultValue={walkIn("email")} className={ADMIN_CONTROL} />
          </FormField>
        </div>
        <FormField prefix="walk" id="notes" label="Notes (optional)" errors={errors} className="max-w-xl">
          <textarea {...fieldProps("walk", "notes", errors)} rows={2} defaultValue={walkIn("notes")} className={`${ADMIN_CONTROL} py-2`} />
        </FormField>

        <h2 className="text-lg font-bold">3. Price</h2>
        {quote ? (
          <dl aria-label="Price by the rate card" className="grid max-w-md grid-cols-[1fr_auto] gap-x-4 gap-y-1 rounded-md bg-stone-50 p-3 tabular-nums">
            <dt>
              {quote.hire_item.name}, {quote.days} {quote.days === 1 ? "day" : "days"}
            </dt>
            <dd className="text-right">{formatPounds(quote.hire_ex_vat)}</dd>
            <dt>VAT</dt>
            <dd className="text-right">{formatPounds(quote.vat)}</dd>
            <dt>Refundable deposit</dt>
            <dd className="text-right">{formatPounds(quote.deposit)}</dd>
            <dt className="font-bold">To pay up front</dt>
            <dd className="text-right font-bold">{formatPounds(quote.total)}</dd>
          </dl>
        ) : (
          <p className="text-stone-700">Choose a hire item and dates, then “Show price and customers”, to see the price and deposit.</p>
        )}
        <div>
          <button type="submit" className="btn-primary" disabled={busy || !quote}>
            {busy ? "Booking…" : "Book hire"}
          </button>
        </div>
      </Form>
    </>
  );
}

import { Form, data, redirect, useNavigation } from "react-router";
import { ADMIN_CONTROL, FormField, fieldProps } from "../../../components/admin/form-field.tsx";
import { NewScreen } from "../../../components/admin/new-screen.tsx";
import { createQuote } from "../../../lib/admin/quote-form.server.ts";
import { type QuoteFormAnswer, quoteHref } from "../../../lib/admin/quotes.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { can } from "../../../../server/modules/staff/permissions.ts";
import type { Route } from "./+types/new";
import { staffPost, staffScreen } from "../../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "New quote");

/** `?customer_id=` (from a customer's page, issue 34) chooses the customer: their account's email, filled in. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "quotes.manage");
  const id = Number(new URL(request.url).searchParams.get("customer_id") ?? "");
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647 || !can(actor.role, "customers.view")) return { customer: null };
  const customer = await app.services.adminCustomers.detail(actor, id).catch(() => null);
  return { customer: customer ? { id: customer.id, name: customer.name, email: customer.email } : null };
}

/** Starts the quote through the desk's service (which checks quotes.manage again, and audits), then opens it to price. */
export async function action({ context, request }: Route.ActionArgs) {
  const { app, actor, form } = await staffPost(context, request, "quotes.manage");
  const made = await createQuote(app.services.quoteDesk, actor, form);
  if (made.ok) return redirect(`${quoteHref(made.quote.number)}?created=1`);
  return data<QuoteFormAnswer>(made, { status: made.status });
}

const P = "new-quote";

export default function NewQuote({ loaderData, actionData }: Route.ComponentProps) {
  const chosen = loaderData.customer;
  const busy = useNavigation().state === "submitting";
  const refused = actionData && !actionData.ok ? actionData : undefined;
  const errors = refused?.errors;
  const typed = (name: string) => refused?.values[name] ?? (name === "customer_email" && chosen ? chosen.email : "");
  const field = (id: string, hint = false) => fieldProps(P, id, errors, hint);
  return (
    <NewScreen crumbs={[{ label: "Quotes", to: "/admin/quotes" }, { label: "New quote" }]} title="New quote" intro="A quote for a customer with an account, at their own prices (their trade price for a trade account). It starts as Drafting: price it, then send it." result={refused}>
      <Form method="post" noValidate className="grid max-w-3xl gap-4 rounded-lg border border-stone-200 bg-white p-4" aria-label="New quote">
        <FormField prefix={P} id="customer_email" label="Customer's email" errors={errors} hint={chosen ? `${chosen.name || `Customer #${chosen.id}`}'s account, chosen from their page.` : "The email of their account on the shop."}>
          <input {...field("customer_email", true)} type="email" defaultValue={typed("customer_email")} autoComplete="off" spellCheck={false} className={ADMIN_CONTROL} />
        </FormField>
        <FormField prefix={P} id="lines" label="Lines" errors={errors} hint="A SKU and how many, one a line: “DR-1001 3”. Pasted from a spreadsheet works too.">
          <textarea {...field("lines", true)} defaultValue={typed("lines")} rows={6} spellCheck={false} className={`${ADMIN_CONTROL} py-2 font-mono`} />
        </FormField>
        <FormField prefix={P} id="notes" label="Notes (optional)" errors={errors} hint="What the customer asked for: shown on the quote.">
          <textarea {...field("notes", true)} defaultValue={typed("notes")} rows={3} maxLength={2000} className={`${ADMIN_CONTROL} py-2`} />
        </FormField>
        <FormField prefix={P} id="needed_by" label="Needed by (optional)" errors={errors} className="max-w-60">
          <input {...field("needed_by")} type="date" defaultValue={typed("needed_by")} className={ADMIN_CONTROL} />
        </FormField>
        <div>
          <button type="submit" className="btn-primary disabled:opacity-75" disabled={busy}>
            {busy ? "Starting…" : "Start the quote"}
          </button>
        </div>
      </Form>
    </NewScreen>
  );
}

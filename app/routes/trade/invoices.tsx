import { Form, Link } from "react-router";
import { InvoiceLink } from "../../components/trade/invoice-link.tsx";
import { appContext } from "#app-context";
import { SelectField } from "../../components/form.tsx";
import { HeadRow } from "../../components/head-row.tsx";
import { EmptyState, PageHeading } from "../../components/page.tsx";
import { SiteOptions } from "../../components/trade/site-options.tsx";
import { formatHireDate } from "../../lib/hire.ts";
import { pageMeta } from "../../lib/meta.ts";
import { formatPence } from "../../lib/money.ts";
import { notFound } from "../../lib/not-found.ts";
import type { Route } from "./+types/invoices";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Invoices");

const FILTERS = [
  { value: "all", label: "All" },
  { value: "unpaid", label: "Unpaid" },
  { value: "overdue", label: "Overdue" },
  { value: "paid", label: "Paid" },
] as const;
type Filter = (typeof FILTERS)[number]["value"];

/** Owners, admins and accounts users see the company's invoices; anyone else gets the same 404 as the API. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const url = new URL(request.url);
  const raw = url.searchParams.get("status") ?? "all";
  const status: Filter = FILTERS.some((f) => f.value === raw) ? (raw as Filter) : "all";
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 100);
  const after = Number(url.searchParams.get("after") ?? "");
  try {
    // The company's sites, to read one site's invoices and statement (the readers here are members, so they may read them).
    const sites = (await app.services.tradeSites.list(app.user!.id)).data.map((s) => ({ id: s.id, name: s.name, archived: s.archived }));
    const site = sites.find((s) => s.id === Number(url.searchParams.get("site")))?.id;
    const list = await app.services.tradeInvoices.list(app.user!.id, { status, q, site, after: Number.isInteger(after) && after > 0 ? after : undefined });
    const payable = await app.services.tradePayments.payableCount(app.user!.id);
    const creditNotes = await app.services.tradeDesk.creditNotesOfMember(app.user!.id);
    return { ...list, status, q, sites, site: site ?? null, payable, creditNotes, statementMonths: statementMonths(app.services.tradeStatements.today()) };
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404) notFound();
    throw err;
  }
}

/** The months a statement may be downloaded for: this one so far and the eleven before, newest first, with their names. */
function statementMonths(today: string): { value: string; label: string }[] {
  const first = new Date(`${today.slice(0, 7)}-15T12:00:00Z`);
  return Array.from({ length: 12 }, (_, i) => {
    const d = new Date(first);
    d.setUTCMonth(d.getUTCMonth() - i);
    return { value: d.toISOString().slice(0, 7), label: d.toLocaleDateString("en-GB", { month: "long", year: "numeric", timeZone: "UTC" }) + (i === 0 ? " (so far)" : "") };
  });
}

const STATUS = { unpaid: "Unpaid", payment_pending: "Payment pending", paid: "Paid" } as const;

export default function Invoices({ loaderData }: Route.ComponentProps) {
  const { data, totals, next_cursor, status, q, sites, site, payable, creditNotes, statementMonths } = loaderData;
  const nextHref = next_cursor ? `?${new URLSearchParams({ status, q, ...(site ? { site: String(site) } : {}), after: String(next_cursor) }).toString()}` : null;

  return (
    <>
      <PageHeading title="Invoices" />
      <div className="grid gap-6">
        {payable > 0 ? (
          <p>
            <Link to="/trade/invoices/pay" className="btn-primary inline-flex" data-testid="pay-invoices">
              Pay invoices
            </Link>
          </p>
        ) : null}
        <Form method="get" className="flex flex-wrap items-end gap-4" role="search">
          <fieldset className="flex flex-wrap gap-3">
            <legend className="mb-1 font-semibold">Show</legend>
            {FILTERS.map((f) => (
              <label key={f.value} className="flex items-center gap-1">
                <input type="radio" name="status" value={f.value} defaultChecked={status === f.value} />
                {f.label}
              </label>
            ))}
          </fieldset>
          <label className="grid gap-1">
            <span className="font-semibold">Invoice number or PO reference</span>
            <input type="search" name="q" defaultValue={q} maxLength={100} className="rounded border border-stone-400 px-3 py-2" />
          </label>
          {sites.length ? (
            <SelectField label="Site" name="site" defaultValue={site ?? ""} className="min-w-0 max-w-full">
              <SiteOptions sites={sites} />
            </SelectField>
          ) : null}
          <button type="submit" className="btn-primary">
            Show invoices
          </button>
        </Form>

        <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4" data-testid="invoice-totals">
          <div>
            <dt className="text-sm text-stone-700">Invoices</dt>
            <dd className="text-xl font-semibold">{totals.count}</dd>
          </div>
          <div>
            <dt className="text-sm text-stone-700">Total</dt>
            <dd className="text-xl font-semibold">{formatPence(totals.total)}</dd>
          </div>
          <div>
            <dt className="text-sm text-stone-700">Outstanding</dt>
            <dd className="text-xl font-semibold">{formatPence(totals.outstanding)}</dd>
          </div>
          <div>
            <dt className="text-sm text-stone-700">Overdue</dt>
            <dd className="text-xl font-semibold">{formatPence(totals.overdue)}</dd>
          </div>
        </dl>

        {data.length === 0 ? (
          <EmptyState title={q || site || status !== "all" ? "No invoices match." : "You have no invoices."} action={{ to: "/trade/dashboard", label: "Back to the dashboard" }} />
        ) : (
          <div className="overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-sm">
            <table className="w-full border-collapse text-left" data-testid="trade-invoices">
              <caption className="sr-only">Your company&rsquo;s invoices, newest first</caption>
              <thead className="bg-stone-100 text-sm text-stone-700">
                <HeadRow cells={[["Invoice", "px-4 py-3"], ["Date", "px-4 py-3"], ["Due", "px-4 py-3"], ["PO reference", "px-4 py-3"], ...(sites.length ? [["Site", "px-4 py-3"] as const] : []), ["Total", "px-4 py-3 text-right"], ["Status", "px-4 py-3"]]} />
              </thead>
              <tbody>
                {data.map((inv) => (
                  <tr key={inv.id} className="border-t border-stone-200">
                    <th scope="row" className="px-4 py-3 font-semibold">
                      <InvoiceLink invoice={inv} className="underline" />
                    </th>
                    <td className="px-4 py-3">{formatHireDate(inv.invoice_date)}</td>
                    <td className="px-4 py-3">{formatHireDate(inv.due_date)}</td>
                    <td className="break-all px-4 py-3">{inv.po_reference || "—"}</td>
                    {sites.length ? <td className="px-4 py-3 [overflow-wrap:anywhere]">{inv.site?.name ?? "—"}</td> : null}
                    <td className="px-4 py-3 text-right">{formatPence(inv.total)}</td>
                    <td className={`px-4 py-3 ${inv.overdue ? "font-semibold text-red-800" : ""}`}>{inv.overdue ? `Overdue (${STATUS[inv.status].toLowerCase()})` : STATUS[inv.status]}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {nextHref ? (
          <p>
            <Link to={nextHref} className="underline">
              Older invoices
            </Link>
          </p>
        ) : null}

        {/* A plain form: the browser downloads the PDF itself, with or without JavaScript. */}
        <form method="get" action="/api/trade/statement.pdf" className="flex flex-wrap items-end gap-3" data-testid="statement-download">
          <label className="grid gap-1">
            <span className="font-semibold">Statement</span>
            <select name="month" defaultValue={statementMonths[1]?.value} className="rounded border border-stone-400 px-3 py-2">
              {statementMonths.map((m) => (
                <option key={m.value} value={m.value}>
                  {m.label}
                </option>
              ))}
            </select>
          </label>
          {sites.length ? (
            <SelectField label="For" id="statement-site" name="site" defaultValue={site ?? ""} className="min-w-0 max-w-full">
              <SiteOptions sites={sites} />
            </SelectField>
          ) : null}
          <button type="submit" className="btn-secondary">
            Download statement (PDF)
          </button>
        </form>

        {creditNotes.length > 0 ? (
          <section aria-labelledby="credit-notes-heading" data-testid="credit-notes">
            <h2 id="credit-notes-heading" className="mb-2 text-lg font-bold">
              Credit notes
            </h2>
            <ul className="grid gap-2">
              {creditNotes.map((n) => (
                <li key={n.number}>
                  <a href={`/api/trade/credit-notes/${n.number}/pdf`} className="link font-semibold" download>
                    {n.number} (PDF)
                  </a>{" "}
                  · {formatPence(Math.round(n.total * 100))} against {n.invoice_number}, {n.issued_on}
                  {n.on_account > 0 ? ` · ${formatPence(Math.round(n.on_account * 100))} credit on your account` : ""}
                  <span className="block text-sm text-stone-700">{n.reason}</span>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </div>
    </>
  );
}

import { Link } from "react-router";
import { appContext } from "#app-context";
import { PageHeading } from "../../components/page.tsx";
import { formatHireDate } from "../../lib/hire.ts";
import { pageMeta } from "../../lib/meta.ts";
import { formatPence } from "../../lib/money.ts";
import { notFound } from "../../lib/not-found.ts";
import type { Route } from "./+types/invoice";

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData ? `Invoice ${loaderData.number}` : "Invoice");

/** One invoice for owners, admins and accounts users of its company; anyone else gets the same 404 as the API. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const id = Number(params.id);
  if (!Number.isInteger(id) || id <= 0 || id > 2_147_483_647) notFound();
  try {
    return await app.services.tradeInvoices.show(app.user!.id, id);
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404) notFound();
    throw err;
  }
}

const STATUS = { unpaid: "Unpaid", payment_pending: "Payment pending", paid: "Paid" } as const;

function Party({ title, name, lines }: { title: string; name: string; lines: string[] }) {
  return (
    <section aria-label={title}>
      <h2 className="text-sm font-semibold text-stone-700">{title}</h2>
      <p className="font-semibold">{name}</p>
      {lines.map((l) => (
        <p key={l}>{l}</p>
      ))}
    </section>
  );
}

export default function Invoice({ loaderData: inv }: Route.ComponentProps) {
  return (
    <>
      <PageHeading title={`Invoice ${inv.number}`} />
      <div className="grid gap-6">
        <p className="flex flex-wrap gap-4">
          {inv.status === "unpaid" ? (
            <Link to={`/trade/invoices/pay?invoice=${inv.id}`} className="btn-primary inline-flex">
              Pay this invoice
            </Link>
          ) : null}
          <a href={`/api/trade/invoices/${inv.id}/pdf`} className={`${inv.status === "unpaid" ? "btn-secondary" : "btn-primary"} inline-flex`} download>
            Download the PDF
          </a>
          <Link to="/trade/invoices" className="underline">
            All invoices
          </Link>
        </p>
        <div className="grid gap-6 sm:grid-cols-2">
          <Party title="From" name={inv.shop.name} lines={[...inv.shop.address, inv.shop.email, `VAT number: ${inv.shop.vat_number}`]} />
          <Party
            title="To"
            name={inv.company.name}
            lines={[...inv.company.address, ...(inv.company.company_number ? [`Company number: ${inv.company.company_number}`] : []), ...(inv.company.vat_number ? [`VAT number: ${inv.company.vat_number}`] : [])]}
          />
        </div>
        <dl className="grid grid-cols-2 gap-4 sm:grid-cols-5" data-testid="invoice-facts">
          <div>
            <dt className="text-sm text-stone-700">Invoice date</dt>
            <dd>{formatHireDate(inv.invoice_date)}</dd>
          </div>
          <div>
            <dt className="text-sm text-stone-700">Due date</dt>
            <dd>{formatHireDate(inv.due_date)}</dd>
          </div>
          <div>
            <dt className="text-sm text-stone-700">Status</dt>
            <dd className={inv.overdue ? "font-semibold text-red-800" : ""}>{inv.overdue ? "Overdue" : STATUS[inv.status]}</dd>
          </div>
          <div>
            <dt className="text-sm text-stone-700">Order</dt>
            <dd>{inv.order_number}</dd>
          </div>
          <div>
            <dt className="text-sm text-stone-700">PO reference</dt>
            <dd className="break-all">{inv.po_reference || "—"}</dd>
          </div>
        </dl>
        <div className="overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-sm">
          <table className="w-full border-collapse text-left" data-testid="invoice-lines">
            <caption className="sr-only">Lines of invoice {inv.number}</caption>
            <thead className="bg-stone-100 text-sm text-stone-700">
              <tr>
                <th scope="col" className="px-4 py-3">Item</th>
                <th scope="col" className="px-4 py-3 text-right">Quantity</th>
                <th scope="col" className="px-4 py-3 text-right">Unit ex VAT</th>
                <th scope="col" className="px-4 py-3 text-right">VAT rate</th>
                <th scope="col" className="px-4 py-3 text-right">Total ex VAT</th>
              </tr>
            </thead>
            <tbody>
              {inv.lines.map((l) => (
                <tr key={l.sku} className="border-t border-stone-200">
                  <th scope="row" className="px-4 py-3 font-normal">
                    {l.name} <span className="text-sm text-stone-700">({l.sku})</span>
                  </th>
                  <td className="px-4 py-3 text-right">{l.quantity}</td>
                  <td className="px-4 py-3 text-right">{formatPence(l.unit_price)}</td>
                  <td className="px-4 py-3 text-right">{l.vat_rate}%</td>
                  <td className="px-4 py-3 text-right">{formatPence(l.line_total)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="grid gap-6 sm:grid-cols-2">
          <section aria-labelledby="vat-breakdown">
            <h2 id="vat-breakdown" className="font-semibold">
              VAT breakdown
            </h2>
            <ul>
              {inv.vat_breakdown.map((b) => (
                <li key={b.rate}>
                  VAT at {b.rate}%: net {formatPence(b.net)}, VAT {formatPence(b.vat)}
                </li>
              ))}
            </ul>
          </section>
          <dl className="grid grid-cols-2 gap-1" data-testid="invoice-totals">
            <dt>Goods ex VAT</dt>
            <dd className="text-right">{formatPence(inv.subtotal)}</dd>
            <dt>VAT</dt>
            <dd className="text-right">{formatPence(inv.vat)}</dd>
            <dt>Delivery inc VAT</dt>
            <dd className="text-right">{formatPence(inv.delivery)}</dd>
            <dt className="font-semibold">Total</dt>
            <dd className="text-right font-semibold">{formatPence(inv.total)}</dd>
          </dl>
        </div>
      </div>
    </>
  );
}

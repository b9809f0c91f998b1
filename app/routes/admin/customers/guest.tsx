import { Link } from "react-router";
import { appContext } from "#app-context";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { STACKED } from "../../../components/admin/stacked-table.ts";
import { StatusBadge } from "../../../components/admin/status-badge.tsx";
import { notFoundOr, requirePermission } from "../../../lib/admin/access.ts";
import { formatDate } from "../../../lib/admin/format.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { formatPounds } from "../../../lib/money.ts";
import { can } from "../../../../server/modules/staff/permissions.ts";
import type { Route } from "./+types/guest";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Guest buyer");

/** A guest buyer (issue 34): someone who ordered without an account, by the email on their orders. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const actor = requirePermission(app.staff, request, "customers.view");
  const email = new URL(request.url).searchParams.get("email")?.trim().slice(0, 254) ?? "";
  if (!email) throw new Response("No such guest.", { status: 404, statusText: "Not Found" });
  const guest = await app.services.adminCustomers.guest(actor, email).catch(notFoundOr);
  return { guest, canOrder: can(actor.role, "orders.view") };
}

export default function GuestBuyer({ loaderData }: Route.ComponentProps) {
  const { guest, canOrder } = loaderData;
  return (
    <>
      <PageHeader crumbs={[{ label: "Customers", to: "/admin/customers" }, { label: guest.name }]} title={guest.name} intro="A guest buyer: ordered without an account, found by the email on their orders." />
      {guest.account_id ? (
        <p className="mb-4 rounded-md border border-sky-300 bg-sky-50 px-4 py-3 text-sky-950">
          An account now uses this email: <Link to={`/admin/customers/${guest.account_id}`} className="link font-semibold">open customer #{guest.account_id}</Link>.
        </p>
      ) : null}
      <section aria-labelledby="guest-details" className="mb-4 rounded-lg border border-stone-200 bg-white p-4 text-sm">
        <h2 id="guest-details" className="mb-2 text-lg font-bold">
          Details
        </h2>
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-6 gap-y-2">
          <dt className="font-semibold">Email</dt>
          <dd className="[overflow-wrap:anywhere]">
            <a href={`mailto:${guest.email}`} className="link">
              {guest.email}
            </a>
          </dd>
          <dt className="font-semibold">Phone</dt>
          <dd>{guest.phone || "—"}</dd>
          <dt className="font-semibold">Orders</dt>
          <dd>{guest.order_count}</dd>
          {guest.total_spent !== undefined ? (
            <>
              <dt className="font-semibold">Total spent</dt>
              <dd>{formatPounds(guest.total_spent)}</dd>
            </>
          ) : null}
          <dt className="font-semibold">Last order</dt>
          <dd>{formatDate(guest.last_order_at)}</dd>
        </dl>
      </section>
      <section aria-labelledby="guest-orders">
        <h2 id="guest-orders" className="mb-2 text-lg font-bold">
          Orders
        </h2>
        <div className={STACKED.frame}>
          <table className={STACKED.table}>
            <caption className="sr-only">The guest's orders, newest first</caption>
            <thead className={STACKED.head}>
              <tr>
                <th scope="col" className="px-3 py-2">Order</th>
                <th scope="col" className="px-3 py-2">Placed</th>
                <th scope="col" className="px-3 py-2">Status</th>
                {guest.total_spent !== undefined ? <th scope="col" className="px-3 py-2 text-right">Total</th> : null}
              </tr>
            </thead>
            <tbody className={STACKED.body}>
              {guest.orders.map((o) => (
                <tr key={o.number} className={`${STACKED.row} max-lg:bg-white`}>
                  <th scope="row" className={`${STACKED.cell} font-semibold`} data-label="Order">
                    {canOrder ? (
                      <Link to={`/admin/orders/${o.number}`} className="link">
                        {o.number}
                      </Link>
                    ) : (
                      o.number
                    )}
                  </th>
                  <td className={STACKED.cell} data-label="Placed">{formatDate(o.created_at)}</td>
                  <td className={STACKED.cell} data-label="Status">
                    <span>
                      <StatusBadge status={o.status} label={o.status_label} />
                    </span>
                  </td>
                  {o.total !== undefined ? <td className={`${STACKED.cell} lg:text-right`} data-label="Total">{formatPounds(o.total)}</td> : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}

import { Link } from "react-router";
import { CustomerOrders } from "../../../components/admin/customer-orders.tsx";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { notFoundOr } from "../../../lib/admin/access.ts";
import { formatDate } from "../../../lib/admin/format.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { formatPounds } from "../../../lib/money.ts";
import { can } from "../../../../server/modules/staff/permissions.ts";
import type { Route } from "./+types/guest";
import { Panel } from "../../../components/admin/panel.tsx";
import { staffScreen } from "../../../lib/admin/staff-route.ts";
import { EmailLink, Facts } from "../../../components/admin/facts.tsx";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Guest buyer");

/** A guest buyer (issue 34): someone who ordered without an account, by the email on their orders. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "customers.view");
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
      <Panel id="guest-details" title="Details" className="mb-4 text-sm">
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-6 gap-y-2">
          <Facts
            facts={[
              ["Email", <EmailLink email={guest.email} />, "[overflow-wrap:anywhere]"],
              ["Phone", guest.phone || "—"],
              ["Orders", guest.order_count],
              guest.total_spent !== undefined && ["Total spent", formatPounds(guest.total_spent)],
              ["Last order", formatDate(guest.last_order_at)],
            ]}
          />
        </dl>
      </Panel>
      <section aria-labelledby="guest-orders">
        <h2 id="guest-orders" className="mb-2 text-lg font-bold">
          Orders
        </h2>
        <CustomerOrders orders={guest.orders} caption="The guest's orders, newest first" linked={canOrder} />
      </section>
    </>
  );
}

import { Form, Link } from "react-router";
import { appContext } from "#app-context";
import { BlockedBadge } from "../../../components/admin/blocked-badge.tsx";
import { KeysetPager, useListAddress } from "../../../components/admin/pager.tsx";
import { AdminHeading } from "../../../components/admin/frame.tsx";
import { FormAlert } from "../../../components/form.tsx";
import { EmptyState } from "../../../components/page.tsx";
import { requirePermission, serviceError } from "../../../lib/admin/access.ts";
import { pageMeta } from "../../../lib/meta.ts";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Customers");

/** The search from the address: a link or a reload shows the same list. */
function filtersFrom(url: URL) {
  const get = (name: string) => url.searchParams.get(name)?.trim() || undefined;
  return { q: get("q")?.slice(0, 100), cursor: get("cursor") };
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const actor = requirePermission(app.staff, request, "customers.view");
  const filters = filtersFrom(new URL(request.url));
  try {
    const list = await app.services.adminCustomers.list(actor, filters);
    return { customers: list.data, nextCursor: list.next_cursor, filters, error: null };
  } catch (error) {
    const known = serviceError(error);
    if (!known || known.status !== 422) throw error;
    // An old page link: say so above an empty list, and keep the search to correct.
    return { customers: [], nextCursor: null, filters, error: Object.values(known.errors ?? {}).flat().join(" ") || known.message };
  }
}

export default function AdminCustomers({ loaderData }: Route.ComponentProps) {
  const { customers, filters, nextCursor, error } = loaderData;
  const { search, loading } = useListAddress();
  return (
    <>
      <AdminHeading title="Customers" intro="Customers' accounts on the shop, newest first. Open one to see their orders, send a password reset link, or block them." />

      <Form method="get" role="search" aria-label="Search customers" className="mb-4 flex flex-wrap items-end gap-3 rounded-lg border border-stone-200 bg-white p-4">
        <label className="grid min-w-0 flex-1 basis-72 gap-1 text-sm font-semibold">
          Search
          <input
            name="q"
            type="search"
            defaultValue={filters.q ?? ""}
            maxLength={100}
            placeholder="Name, email, postcode or company"
            className="min-h-10 rounded-md border border-stone-400 px-3 font-normal"
          />
        </label>
        <div className="flex gap-2">
          <button type="submit" className="btn-primary min-h-10">
            Search
          </button>
          {filters.q ? (
            <Link to="?" className="btn-secondary min-h-10">
              Clear
            </Link>
          ) : null}
        </div>
      </Form>

      <FormAlert message={error ?? undefined} className="mb-4" />

      {error ? null : customers.length === 0 ? (
        <EmptyState title={filters.q ? `No customers match “${filters.q}”` : "No customers yet"} action={search.size ? { to: "?", label: "Show every customer" } : undefined}>
          {filters.q ? "Try part of the name or email, a full postcode or its first half (LS1), or the trade company's name." : "Customers appear here when they create an account on the shop."}
        </EmptyState>
      ) : (
        <div className={`relative overflow-x-auto rounded-lg border border-stone-200 bg-white ${loading ? "opacity-75" : ""}`} aria-busy={loading || undefined}>
          <table className="w-full min-w-[40rem] text-left text-sm">
            <caption className="sr-only">Customers, newest first{filters.q ? `, matching “${filters.q}”` : ""}</caption>
            <thead className="border-b border-stone-200 bg-stone-50 text-stone-700">
              <tr>
                <th scope="col" className="px-3 py-2">Name</th>
                <th scope="col" className="px-3 py-2">Email</th>
                <th scope="col" className="px-3 py-2">Postcode</th>
                <th scope="col" className="px-3 py-2">Company</th>
                <th scope="col" className="px-3 py-2 text-right">Orders</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-100">
              {customers.map((c) => (
                <tr key={c.id} className="hover:bg-stone-50">
                  <th scope="row" className="px-3 py-2 font-semibold">
                    <Link to={`/admin/customers/${c.id}`} className="link">
                      {c.name || `Customer #${c.id}`}
                    </Link>
                    {/* Beside the name, so a phone shows it without scrolling the table. */}
                    {c.blocked ? (
                      <>
                        {" "}
                        <BlockedBadge />
                      </>
                    ) : null}
                  </th>
                  <td className="break-all px-3 py-2">{c.email}</td>
                  <td className="whitespace-nowrap px-3 py-2">{c.postcode ?? "—"}</td>
                  <td className="px-3 py-2">{c.company ?? "—"}</td>
                  <td className="px-3 py-2 text-right">{c.orders}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <KeysetPager search={search} cursor={filters.cursor} nextCursor={nextCursor} />
    </>
  );
}

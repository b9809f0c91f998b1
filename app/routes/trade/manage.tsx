import { Link } from "react-router";
import { appContext } from "#app-context";
import { EmptyState, PageHeading } from "../../components/page.tsx";
import { formatOrderDate } from "../../lib/basket-checkout.ts";
import { pageMeta } from "../../lib/meta.ts";
import { notFound } from "../../lib/not-found.ts";
import type { Route } from "./+types/manage";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Company users");

/** Owners and admins see the company's users; anyone else gets the same 404 as the API. */
export async function loader({ context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  try {
    return await app.services.tradeUsers.list(app.user!.id);
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404) notFound();
    throw err;
  }
}

const ROLE = { owner: "Owner", admin: "Admin", buyer: "Buyer", accounts: "Accounts" } as const;
const INVITATION = { pending: "Invited", expired: "Invitation expired", accepted: "Accepted", revoked: "Revoked" } as const;

export default function CompanyUsers(props: Route.ComponentProps) {
  const { users, invitations } = props.loaderData;
  return (
    <>
      <PageHeading title="Company users" />
      <div className="grid gap-6">
        <p>
          <Link to="/trade/manage/invite" className="btn-primary inline-flex">
            Invite a user
          </Link>
        </p>
        <div className="overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-sm">
          <table className="w-full border-collapse text-left" data-testid="trade-users">
            <caption className="sr-only">The users of your company&rsquo;s trade account</caption>
            <thead className="bg-stone-100 text-sm text-stone-700">
              <tr>
                <th scope="col" className="px-4 py-3">Name</th>
                <th scope="col" className="px-4 py-3">Email</th>
                <th scope="col" className="px-4 py-3">Role</th>
                <th scope="col" className="px-4 py-3">Status</th>
                <th scope="col" className="px-4 py-3">Last active</th>
              </tr>
            </thead>
            <tbody>
              {users.map((user) => (
                <tr key={`user-${user.id}`} className="border-t border-stone-200">
                  <th scope="row" className="px-4 py-3 font-semibold">
                    <Link to={`/trade/manage/user/${user.id}`} className="underline">
                      {user.name}
                    </Link>
                  </th>
                  <td className="break-all px-4 py-3">{user.email}</td>
                  <td className="px-4 py-3">{ROLE[user.role]}</td>
                  <td className="px-4 py-3">Active</td>
                  <td className="px-4 py-3">{user.last_active_at ? formatOrderDate(user.last_active_at) : "Not yet"}</td>
                </tr>
              ))}
              {invitations.map((invitation) => (
                <tr key={`invitation-${invitation.id}`} className="border-t border-stone-200 text-stone-700">
                  <th scope="row" className="px-4 py-3 font-normal italic">
                    Not yet joined
                  </th>
                  <td className="break-all px-4 py-3">{invitation.email}</td>
                  <td className="px-4 py-3">{ROLE[invitation.role]}</td>
                  <td className="px-4 py-3">{INVITATION[invitation.status]}</td>
                  <td className="px-4 py-3">Invitation valid until {formatOrderDate(invitation.expires_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {users.length === 1 && invitations.length === 0 ? <EmptyState title="No other users belong to your company yet." action={{ to: "/trade/manage/invite", label: "Invite a user" }} /> : null}
      </div>
    </>
  );
}

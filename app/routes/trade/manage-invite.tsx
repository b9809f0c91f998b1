import { EmptyState, PageHeading } from "../../components/page.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/manage-invite";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Invite a user");

export default function Page() {
  return (
    <>
      <PageHeading title="Invite a user" />
      <EmptyState title="Inviting users is not available yet." action={{ to: "/trade/manage", label: "Back to company users" }} />
    </>
  );
}

import { EmptyState, PageHeading } from "../../components/page.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/password";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Change your password");

export default function Page() {
  return (
    <>
      <PageHeading title="Change your password" />
      <EmptyState title="Password changes are not available yet." action={{ to: "/account", label: "Back to your account" }} />
    </>
  );
}

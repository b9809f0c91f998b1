import { EmptyState, PageHeading } from "../../components/page.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/manage";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Company users");

export default function Page() {
  return (
    <>
      <PageHeading title="Company users" />
      <EmptyState title="No other users belong to your company yet." action={{ to: "/trade/dashboard", label: "Back to the dashboard" }} />
    </>
  );
}

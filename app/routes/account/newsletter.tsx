import { EmptyState, PageHeading } from "../../components/page.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/newsletter";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Newsletter");

export default function Page() {
  return (
    <>
      <PageHeading title="Newsletter" />
      <EmptyState title="Newsletter settings are not available yet." action={{ to: "/account", label: "Back to your account" }} />
    </>
  );
}

import { EmptyState, PageHeading } from "../../components/page.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/manage";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Your details");

export default function Page() {
  return (
    <>
      <PageHeading title="Your details" />
      <EmptyState title="Your details will appear here." action={{ to: "/account", label: "Back to your account" }} />
    </>
  );
}

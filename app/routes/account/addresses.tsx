import { EmptyState, PageHeading } from "../../components/page.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/addresses";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Your addresses");

export default function Page() {
  return (
    <>
      <PageHeading title="Your addresses" />
      <EmptyState title="You have no saved addresses." action={{ to: "/account", label: "Back to your account" }} />
    </>
  );
}

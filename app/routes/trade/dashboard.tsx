import { EmptyState, PageHeading } from "../../components/page.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Trade dashboard");

export default function Page() {
  return (
    <>
      <PageHeading title="Trade dashboard" />
      <EmptyState title="Your trade account overview will appear here." action={{ to: "/trade/setup", label: "Apply for a trade account" }} />
    </>
  );
}

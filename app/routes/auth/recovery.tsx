import { EmptyState, PageHeading } from "../../components/page.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/recovery";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Reset your password");

export default function Page() {
  return (
    <>
      <PageHeading title="Reset your password" />
      <EmptyState title="Password recovery is not available yet." action={{ to: "/", label: "Go to the home page" }} />
    </>
  );
}

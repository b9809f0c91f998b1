import { EmptyState, PageHeading } from "../../components/page.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Your account");

export default function Page() {
  return (
    <>
      <PageHeading title="Your account" />
      <EmptyState title="Your account overview will appear here." />
    </>
  );
}

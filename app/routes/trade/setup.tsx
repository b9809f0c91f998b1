import { EmptyState, PageHeading } from "../../components/page.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/setup";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Apply for a trade account");

export default function Page() {
  return (
    <>
      <PageHeading title="Apply for a trade account" />
      <EmptyState title="Trade applications are not open yet." action={{ to: "/contact", label: "Contact the trade desk" }} />
    </>
  );
}

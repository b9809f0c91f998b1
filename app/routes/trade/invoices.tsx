import { EmptyState, PageHeading } from "../../components/page.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/invoices";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Invoices");

export default function Page() {
  return (
    <>
      <PageHeading title="Invoices" />
      <EmptyState title="You have no invoices." action={{ to: "/trade/dashboard", label: "Back to the dashboard" }} />
    </>
  );
}

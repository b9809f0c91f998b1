import { EmptyState, PageHeading } from "../../components/page.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/invoices-pay";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Pay invoices");

export default function Page() {
  return (
    <>
      <PageHeading title="Pay invoices" />
      <EmptyState title="You have no invoices to pay." action={{ to: "/trade/invoices", label: "Back to invoices" }} />
    </>
  );
}

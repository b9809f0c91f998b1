import { EmptyState, PageHeading } from "../../components/page.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Checkout");

export default function Checkout() {
  return (
    <>
      <PageHeading title="Checkout" />
      <EmptyState title="There is nothing to check out." action={{ to: "/category", label: "Continue shopping" }}>
        Your basket is empty. Add products to your basket, then come back here to pay.
      </EmptyState>
    </>
  );
}

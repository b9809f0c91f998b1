import { EmptyState, PageHeading } from "../../components/page.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/thank-you";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Thank you");

export default function Page() {
  return (
    <>
      <PageHeading title="Thank you" />
      <EmptyState title="There is no recent order to show." action={{ to: "/", label: "Continue shopping" }}>
        When you place an order, its confirmation appears here.
      </EmptyState>
    </>
  );
}

import { EmptyState, PageHeading } from "../components/page.tsx";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/compare";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Compare products");

export default function Page() {
  return (
    <>
      <PageHeading title="Compare products" intro="Compare up to four products side by side." />
      <EmptyState title="You have no products to compare." action={{ to: "/products", label: "Browse products" }}>
        Add products to compare from a product page or a listing, up to four at a time.
      </EmptyState>
    </>
  );
}

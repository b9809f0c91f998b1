import { EmptyState, PageHeading } from "../components/page.tsx";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/products";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "All products");

export default function Page() {
  return (
    <>
      <PageHeading title="All products" />
      <EmptyState title="No products are listed yet." action={{ to: "/category", label: "Browse categories" }}>
        Products will appear here as the catalogue is filled.
      </EmptyState>
    </>
  );
}

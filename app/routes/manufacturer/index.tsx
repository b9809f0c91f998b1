import { EmptyState, PageHeading } from "../../components/page.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Brands");

export default function Page() {
  return (
    <>
      <PageHeading title="Brands" intro="The manufacturers whose products we stock." />
      <EmptyState title="No brands are listed yet." action={{ to: "/category", label: "Browse categories" }} />
    </>
  );
}

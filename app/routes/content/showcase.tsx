import { EmptyState, PageHeading } from "../../components/page.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/showcase";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Showcase");

export default function Page() {
  return (
    <>
      <PageHeading title="Showcase" intro="Projects and products we are proud of." />
      <EmptyState title="Nothing to showcase yet." action={{ to: "/category", label: "Browse categories" }} />
    </>
  );
}

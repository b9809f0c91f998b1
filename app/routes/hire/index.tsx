import { EmptyState, PageHeading } from "../../components/page.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Equipment hire");

export default function Page() {
  return (
    <>
      <PageHeading title="Equipment hire" intro="Hire tools and plant by the day, weekend or week." />
      <EmptyState title="No hire equipment is listed yet." action={{ to: "/contact", label: "Ask about hire" }}>
        Our hire fleet will appear here with day, weekend and week rates.
      </EmptyState>
    </>
  );
}

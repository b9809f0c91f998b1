import { EmptyState, PageHeading } from "../../components/page.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/orders-history";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Your orders");

export default function Page() {
  return (
    <>
      <PageHeading title="Your orders" />
      <EmptyState title="You have no orders yet." action={{ to: "/products", label: "Start shopping" }} />
    </>
  );
}

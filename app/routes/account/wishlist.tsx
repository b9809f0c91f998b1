import { EmptyState, PageHeading } from "../../components/page.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/wishlist";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Your wishlist");

export default function Page() {
  return (
    <>
      <PageHeading title="Your wishlist" />
      <EmptyState title="Your wishlist is empty." action={{ to: "/products", label: "Browse products" }} />
    </>
  );
}

import { EmptyState, PageHeading } from "../../components/page.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/register";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Create an account");

export default function Page() {
  return (
    <>
      <PageHeading title="Create an account" />
      <EmptyState title="Registration is not open yet." action={{ to: "/", label: "Continue shopping" }}>
        Accounts with addresses, orders and a wishlist are on their way.
      </EmptyState>
    </>
  );
}

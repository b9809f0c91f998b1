import { appContext } from "#app-context";
import { EmptyState, PageHeading } from "../components/page.tsx";
import { pageMeta } from "../lib/meta.ts";
import { notFound } from "../lib/not-found.ts";
import type { Route } from "./+types/basket";

export function loader({ context }: Route.LoaderArgs) {
  // With BASKET_ENABLED off the basket does not exist at all.
  if (!context.get(appContext).config.basketEnabled) notFound();
  return null;
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Your basket");

export default function Basket() {
  return (
    <>
      <PageHeading title="Your basket" />
      <EmptyState title="Your basket is empty." action={{ to: "/category", label: "Continue shopping" }} />
    </>
  );
}

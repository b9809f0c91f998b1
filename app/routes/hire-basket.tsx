import { appContext } from "#app-context";
import { EmptyState, PageHeading } from "../components/page.tsx";
import { pageMeta } from "../lib/meta.ts";
import { notFound } from "../lib/not-found.ts";
import type { Route } from "./+types/hire-basket";

export function loader({ context }: Route.LoaderArgs) {
  // With HIRE_BASKET_ENABLED off the hire basket does not exist at all.
  if (!context.get(appContext).config.hireBasketEnabled) notFound();
  return null;
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Your hire request");

export default function HireBasket() {
  return (
    <>
      <PageHeading title="Your hire request" intro="Choose equipment and dates, then send us your hire request." />
      <EmptyState title="Your hire request is empty." action={{ to: "/hire", label: "Browse hire equipment" }} />
    </>
  );
}

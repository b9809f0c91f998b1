import { PageHeading } from "../../components/page.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/delivery";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Delivery");

export default function Delivery() {
  return (
    <article className="max-w-prose">
      <PageHeading title="Delivery" />
      <div className="grid gap-4 text-stone-800">
        <p>We deliver across the UK mainland. The delivery options and charges for your order are shown at checkout, before you pay, once you have entered your postcode.</p>
        <p>Hired equipment is delivered and collected on the dates of your hire request, which we confirm with you first.</p>
      </div>
    </article>
  );
}

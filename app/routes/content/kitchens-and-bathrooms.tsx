import { Link } from "react-router";
import { PageHeading } from "../../components/page.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/kitchens-and-bathrooms";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Kitchens & Bathrooms");

export default function KitchensAndBathrooms() {
  return (
    <>
      <PageHeading title="Kitchens & Bathrooms" intro="Worktops, sinks, taps, showers and tiles for every project." />
      <div className="grid gap-4 sm:grid-cols-2">
        <Link to="/category/kitchens" className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-stone-200 hover:ring-brand-700">
          <h2 className="text-lg font-bold">Kitchens</h2>
          <p className="mt-1 text-stone-600">Worktops, sinks and taps.</p>
        </Link>
        <Link to="/category/bathrooms" className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-stone-200 hover:ring-brand-700">
          <h2 className="text-lg font-bold">Bathrooms</h2>
          <p className="mt-1 text-stone-600">Showers and tiles.</p>
        </Link>
      </div>
    </>
  );
}

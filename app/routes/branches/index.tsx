import { useState } from "react";
import { Form, Link, useNavigate, useNavigation } from "react-router";
import { appContext } from "#app-context";
import { MakeMyBranch } from "../../components/branches/branch-choice.tsx";
import { ServiceChips, milesLabel } from "../../components/branches/branch-labels.tsx";
import { Field, FormAlert } from "../../components/form.tsx";
import { Breadcrumbs } from "../../components/page.tsx";
import { requestOrigin } from "../../lib/catalog/listing.server.ts";
import { seoMeta } from "../../lib/catalog/seo.ts";
import { useHydrated } from "../../lib/use-session.ts";
import type { BranchJson, Near } from "../../../server/modules/branches/service.ts";
import type { Route } from "./+types/index";

/** The branch finder (issue 30): by postcode, or by the browser's position when the customer asks for it. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const url = new URL(request.url);
  const postcode = url.searchParams.get("near")?.trim().slice(0, 12) ?? "";
  const lat = Number(url.searchParams.get("lat"));
  const lng = Number(url.searchParams.get("lng"));
  const byPosition = url.searchParams.has("lat") && url.searchParams.has("lng") && Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180;
  const near: Near | undefined = postcode ? { postcode } : byPosition ? { lat, lng } : undefined;
  try {
    const found = await app.services.branches.list(near);
    return { branches: found.data, postcode: found.postcode ?? postcode, nearYou: byPosition && !postcode, error: null as string | null, origin: requestOrigin(request) };
  } catch (error) {
    // A postcode we cannot place (the service's 422, read by its status: the build holds its own copy of the error classes): say so, and still list every branch.
    const refused = error as { statusCode?: number; message?: string; errors?: Record<string, string[]> };
    if (refused.statusCode !== 422) throw error;
    const all = await app.services.branches.list();
    return { branches: all.data, postcode, nearYou: false, error: refused.errors?.near?.[0] ?? refused.message ?? "Check the postcode.", origin: requestOrigin(request) };
  }
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  loaderData
    ? seoMeta(matches, {
        title: "Find a branch",
        description: `Our ${loaderData.branches.length} branches: opening hours, click & collect, trade counters, hire depots and showrooms. Find the nearest by postcode.`,
        origin: loaderData.origin,
        path: "/branches",
        noindex: loaderData.postcode !== "" || loaderData.nearYou,
      })
    : [];

function BranchCard({ branch }: { branch: BranchJson }) {
  return (
    <li className="rounded-lg border border-stone-200 bg-white p-4 sm:p-5" data-testid="branch-card">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h2 className="text-lg font-bold">
          <Link to={`/branches/${branch.slug}`} className="link">
            {branch.name}
          </Link>
        </h2>
        {branch.distance_miles !== undefined ? <p className="font-semibold text-stone-800">{milesLabel(branch.distance_miles)} away</p> : null}
      </div>
      <p className="mt-1 text-stone-700">{[branch.address.line_1, branch.address.town, branch.address.postcode].filter(Boolean).join(", ")}</p>
      <p className={`mt-2 font-semibold ${branch.open_now ? "text-green-800" : "text-stone-700"}`}>{branch.open_label}</p>
      <div className="mt-3">
        <ServiceChips services={branch.services} label={`Services at ${branch.name}`} />
      </div>
      {branch.services.includes("collect") ? (
        <div className="mt-3 max-w-xs">
          <MakeMyBranch slug={branch.slug} name={branch.name} />
        </div>
      ) : null}
    </li>
  );
}

export default function Branches({ loaderData }: Route.ComponentProps) {
  const { branches, postcode, nearYou, error } = loaderData;
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const busy = useNavigation().state !== "idle";
  const [locating, setLocating] = useState(false);
  const [locationError, setLocationError] = useState<string | null>(null);

  /** The browser's position, only when the customer presses the button, never assumed. */
  function locateMe() {
    if (!("geolocation" in navigator)) {
      setLocationError("This browser cannot share its location: enter your postcode instead.");
      return;
    }
    setLocating(true);
    setLocationError(null);
    navigator.geolocation.getCurrentPosition(
      (position) => {
        setLocating(false);
        const round = (n: number) => n.toFixed(3);
        void navigate(`/branches?lat=${round(position.coords.latitude)}&lng=${round(position.coords.longitude)}`);
      },
      () => {
        setLocating(false);
        setLocationError("We could not get your location (it may be turned off for this site): enter your postcode instead.");
      },
      { timeout: 10_000, maximumAge: 600_000 },
    );
  }

  const heading = postcode && !error ? `Branches nearest ${postcode}` : nearYou ? "Branches nearest you" : "Our branches";
  return (
    <>
      <Breadcrumbs items={[{ label: "Home", to: "/" }, { label: "Branches" }]} />
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Find a branch</h1>
      <p className="mt-2 max-w-3xl text-stone-700">Collect your order, buy at the trade counter, hire equipment or book a showroom visit.</p>
      <div className="mt-5 rounded-lg border border-stone-200 bg-white p-4 sm:p-5">
        <Form method="get" action="/branches" className="flex flex-wrap items-end gap-3">
          <Field label="Your postcode" name="near" defaultValue={postcode} autoComplete="postal-code" maxLength={12} error={error ?? undefined} className="w-52" inputClassName="uppercase" />
          <button type="submit" className="btn-primary min-h-11" disabled={busy}>
            Find branches
          </button>
          {hydrated ? (
            <button type="button" className="btn-secondary min-h-11" onClick={locateMe} disabled={locating || busy}>
              {locating ? "Finding you…" : "Use my location"}
            </button>
          ) : null}
        </Form>
        {locationError ? <FormAlert message={locationError} className="mt-3" /> : null}
      </div>
      <h2 className="mt-8 text-xl font-bold" aria-live="polite">
        {heading}
      </h2>
      {branches.length === 0 ? (
        <p className="mt-3 text-stone-700">No branches are open yet.</p>
      ) : (
        <ol className="mt-3 grid gap-4 md:grid-cols-2">
          {branches.map((b) => (
            <BranchCard key={b.id} branch={b} />
          ))}
        </ol>
      )}
    </>
  );
}

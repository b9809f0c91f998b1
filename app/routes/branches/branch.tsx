import { appContext } from "#app-context";
import { MakeMyBranch } from "../../components/branches/branch-choice.tsx";
import { SERVICE_LABELS, ServiceChips, WEEKDAY_NAMES } from "../../components/branches/branch-labels.tsx";
import { Breadcrumbs } from "../../components/page.tsx";
import { requestOrigin } from "../../lib/catalog/listing.server.ts";
import { absoluteUrl, breadcrumbJsonLd, seoMeta } from "../../lib/catalog/seo.ts";
import { notFound } from "../../lib/not-found.ts";
import type { BranchJson } from "../../../server/modules/branches/service.ts";
import type { Route } from "./+types/branch";

export async function loader({ context, params, request }: Route.LoaderArgs) {
  if (!/^[a-z0-9-]{1,80}$/.test(params.slug)) notFound();
  const app = context.get(appContext);
  const branch = await app.services.branches.bySlug(params.slug).catch((error: unknown) => {
    if ((error as { statusCode?: number }).statusCode === 404) notFound();
    throw error;
  });
  const crumbs = [{ label: "Home", to: "/" }, { label: "Branches", to: "/branches" }, { label: branch.name }];
  return { branch, crumbs, origin: requestOrigin(request) };
}

/** schema.org's LocalBusiness (a hardware store) with its address, place, hours and services. */
function localBusinessJsonLd(origin: string, b: BranchJson): object {
  return {
    "@context": "https://schema.org",
    "@type": "HardwareStore",
    name: b.name,
    url: absoluteUrl(origin, `/branches/${b.slug}`),
    ...(b.phone ? { telephone: b.phone } : {}),
    ...(b.email ? { email: b.email } : {}),
    address: { "@type": "PostalAddress", streetAddress: [b.address.line_1, b.address.line_2].filter(Boolean).join(", "), addressLocality: b.address.town, addressRegion: b.address.county || undefined, postalCode: b.address.postcode, addressCountry: "GB" },
    ...(b.lat !== null && b.lng !== null ? { geo: { "@type": "GeoCoordinates", latitude: b.lat, longitude: b.lng } } : {}),
    openingHoursSpecification: b.opening_hours.map((h) => ({ "@type": "OpeningHoursSpecification", dayOfWeek: `https://schema.org/${WEEKDAY_NAMES[h.day - 1]}`, opens: h.opens, closes: h.closes })),
    specialOpeningHoursSpecification: b.exceptions.map((e) => ({ "@type": "OpeningHoursSpecification", validFrom: e.date, validThrough: e.date, opens: e.opens ?? "00:00", closes: e.closes ?? "00:00" })),
    amenityFeature: b.services.map((s) => ({ "@type": "LocationFeatureSpecification", name: SERVICE_LABELS[s], value: true })),
  };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  if (!loaderData) return [];
  const { branch, crumbs, origin } = loaderData;
  const path = `/branches/${branch.slug}`;
  return seoMeta(matches, {
    title: `${branch.name} branch`,
    description: `${branch.name}: ${[branch.address.line_1, branch.address.town, branch.address.postcode].join(", ")}. Opening hours, ${branch.services.map((s) => SERVICE_LABELS[s].toLowerCase()).join(", ")}.`,
    origin,
    path,
    jsonLd: [localBusinessJsonLd(origin, branch), breadcrumbJsonLd(origin, crumbs, path)],
  });
};

const DATE = new Intl.DateTimeFormat("en-GB", { weekday: "long", day: "numeric", month: "long", timeZone: "UTC" });

export default function Branch({ loaderData }: Route.ComponentProps) {
  const { branch, crumbs } = loaderData;
  const located = branch.lat !== null && branch.lng !== null;
  const place = located ? `${branch.lat},${branch.lng}` : "";
  return (
    <>
      <Breadcrumbs items={crumbs} />
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{branch.name}</h1>
      <p className={`mt-2 text-lg font-semibold ${branch.open_now ? "text-green-800" : "text-stone-700"}`}>{branch.open_label}</p>
      {branch.services.includes("collect") ? (
        <div className="mt-3 max-w-xs">
          <MakeMyBranch slug={branch.slug} name={branch.name} />
        </div>
      ) : null}
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <section aria-labelledby="branch-where" className="rounded-lg border border-stone-200 bg-white p-4 sm:p-5">
          <h2 id="branch-where" className="text-lg font-bold">
            Where we are
          </h2>
          <address className="mt-2 not-italic text-stone-800">
            {[branch.address.line_1, branch.address.line_2, branch.address.town, branch.address.county, branch.address.postcode]
              .filter(Boolean)
              .map((line) => (
                <span key={line} className="block">
                  {line}
                </span>
              ))}
          </address>
          <ul className="mt-3 grid gap-1">
            {branch.phone ? (
              <li>
                Phone:{" "}
                <a href={`tel:${branch.phone.replace(/\s+/g, "")}`} className="link">
                  {branch.phone}
                </a>
              </li>
            ) : null}
            {branch.email ? (
              <li>
                Email:{" "}
                <a href={`mailto:${branch.email}`} className="link">
                  {branch.email}
                </a>
              </li>
            ) : null}
          </ul>
          {located ? (
            <p className="mt-4 flex flex-wrap gap-3">
              <a className="btn-primary min-h-11" href={`https://www.openstreetmap.org/directions?route=%3B${encodeURIComponent(place)}`} rel="noopener noreferrer" target="_blank">
                Directions<span className="sr-only"> to {branch.name} on OpenStreetMap (opens in a new tab)</span>
              </a>
              <a className="btn-secondary min-h-11" href={`https://www.openstreetmap.org/?mlat=${branch.lat}&mlon=${branch.lng}#map=16/${branch.lat}/${branch.lng}`} rel="noopener noreferrer" target="_blank">
                See the map<span className="sr-only"> on OpenStreetMap (opens in a new tab)</span>
              </a>
            </p>
          ) : null}
          <h3 className="mt-5 font-bold">At this branch</h3>
          <div className="mt-2">
            <ServiceChips services={branch.services} />
          </div>
        </section>
        <section aria-labelledby="branch-hours" className="rounded-lg border border-stone-200 bg-white p-4 sm:p-5">
          <h2 id="branch-hours" className="text-lg font-bold">
            Opening hours
          </h2>
          <table className="mt-2 w-full text-left">
            <caption className="sr-only">Opening hours by day of the week</caption>
            <tbody>
              {WEEKDAY_NAMES.map((day, i) => {
                const hours = branch.opening_hours.find((h) => h.day === i + 1);
                return (
                  <tr key={day} className="border-b border-stone-100 last:border-0">
                    <th scope="row" className="py-2 pr-4 font-semibold">
                      {day}
                    </th>
                    <td className="py-2">{hours ? `${hours.opens} to ${hours.closes}` : "Closed"}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <p className="mt-3 text-sm text-stone-700">Closed on bank holidays unless shown below.</p>
          {branch.exceptions.length ? (
            <>
              <h3 className="mt-4 font-bold">Coming up</h3>
              <ul className="mt-2 grid gap-1">
                {branch.exceptions.map((e) => (
                  <li key={e.date}>
                    <span className="font-semibold">{DATE.format(new Date(`${e.date}T12:00:00Z`))}</span>: {e.opens && e.closes ? `${e.opens} to ${e.closes}` : "Closed"}
                    {e.note ? ` (${e.note})` : ""}
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </section>
      </div>
    </>
  );
}

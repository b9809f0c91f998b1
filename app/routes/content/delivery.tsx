import { appContext } from "#app-context";
import { PageHeading } from "../../components/page.tsx";
import { HeadRow } from "../../components/head-row.tsx";
import { formatPence } from "../../lib/money.ts";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/delivery";

// Rendered from the same rules checkout prices with, so the two can never disagree.
export async function loader({ context }: Route.LoaderArgs) {
  const { methods, zones } = await context.get(appContext).services.delivery.rules();
  const zoneRows = new Map<string, { name: string; areas: string[]; action: string; surcharge: number }>();
  for (const z of zones) {
    const area = z.districtFrom === null ? z.area : `${z.area}${z.districtFrom}${z.districtTo && z.districtTo !== z.districtFrom ? `–${z.districtTo}` : ""}`;
    const row = zoneRows.get(z.name) ?? { name: z.name, areas: [], action: z.action, surcharge: z.surcharge };
    row.areas.push(area);
    zoneRows.set(z.name, row);
  }
  return {
    methods: methods.map((m) => ({ code: m.code, name: m.name, description: m.description, kind: m.kind, price: m.price, freeOver: m.freeOver, cutoff: m.cutoff, heavy: m.heavySurcharge })),
    zones: [...zoneRows.values()],
  };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, "Delivery", "Delivery charges, next working day cut-off, click & collect and the areas we deliver to.");

export default function Delivery({ loaderData }: Route.ComponentProps) {
  const { methods, zones } = loaderData;
  return (
    <article className="max-w-3xl">
      <PageHeading title="Delivery" intro="Prices include VAT. Your exact charge is shown at checkout once you enter your postcode." />
      <h2 className="mt-2 text-xl font-bold">How you can get your order</h2>
      <ul className="mt-3 grid gap-3">
        {methods.map((m) => (
          <li key={m.code} className="rounded-lg bg-white p-4 shadow-sm ring-1 ring-stone-200">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <h3 className="font-semibold">{m.name}</h3>
              <p className="font-semibold">{m.price === 0 ? "Free" : formatPence(m.price)}</p>
            </div>
            <p className="mt-1 text-stone-700">{m.description}</p>
            <ul className="mt-2 list-disc pl-5 text-sm text-stone-600">
              {m.freeOver !== null ? <li>Free on orders of {formatPence(m.freeOver)} or more.</li> : null}
              {m.cutoff ? <li>Order by {m.cutoff} (UK time) on a working day.</li> : null}
              {m.heavy > 0 ? <li>Heavy or bulky items (building materials, sheet timber, paving, worktops) add {formatPence(m.heavy)} per order.</li> : null}
            </ul>
          </li>
        ))}
      </ul>
      <h2 className="mt-8 text-xl font-bold">Remote and offshore areas</h2>
      <div className="mt-3 overflow-x-auto">
        <table className="w-full border-collapse text-left text-sm">
          <caption className="sr-only">Delivery areas with a surcharge or not served, by postcode area</caption>
          <thead>
            <HeadRow className="border-b border-stone-300" cells={[["Area", "py-2 pr-3"], ["Postcodes", "py-2 pr-3"], ["Delivery", "py-2"]]} />
          </thead>
          <tbody>
            {zones.map((z) => (
              <tr key={z.name} className="border-b border-stone-200 align-top">
                <th scope="row" className="py-2 pr-3 font-medium">{z.name.replace(/^the (.)/, (_, c: string) => c.toUpperCase())}</th>
                <td className="py-2 pr-3 break-words">{z.areas.join(", ")}</td>
                <td className="py-2">{z.action === "not_served" ? "Click & collect only" : `${formatPence(z.surcharge)} extra, no next day`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="mt-6 text-stone-700">Hired equipment is delivered and collected on the dates of your hire request, which we confirm with you first.</p>
    </article>
  );
}

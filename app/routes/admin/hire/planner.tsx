import { Link, data } from "react-router";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { KeysetPager, useListAddress } from "../../../components/admin/pager.tsx";
import { EmptyState, ErrorState } from "../../../components/admin/empty-state.tsx";
import { FilterDate, FilterForm, FilterSearch, FilterSelect } from "../../../components/admin/filter-form.tsx";
import { serviceError } from "../../../lib/admin/access.ts";
import { longDay, shortDay } from "../../../lib/admin/dashboard.ts";
import { withParam } from "../../../lib/admin/format.ts";
import { BAR_KINDS, type PlannerBarView, barLabel, barSpan, barText, windowDays } from "../../../lib/admin/hire-planner.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { hireRequestHref } from "../../../../server/modules/hire/desk-labels.ts";
import { addDays, weekday } from "../../../../server/modules/hire/calendar.ts";
import type { Route } from "./+types/planner";
import { staffScreen } from "../../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Hire planner");

const DAYS_CHOICES = [7, 14, 21, 28];

export async function loader({ context, request }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "hire.desk");
  const url = new URL(request.url);
  const get = (name: string) => url.searchParams.get(name)?.trim() ?? "";
  const typed = { from: get("from").slice(0, 20), days: get("days").slice(0, 5), q: get("q").slice(0, 100), depot: get("depot").slice(0, 80) };
  // Hire depots (issue 30): the planner keeps to one when asked.
  const depots = (await app.services.hireDepots.list()).map((d) => ({ slug: d.slug, name: d.name }));
  try {
    const planner = await app.services.hirePlanner.planner(actor, { ...typed, cursor: get("cursor") || undefined });
    return { planner, typed, depots, cursor: get("cursor") || undefined, error: null, errors: {} as Record<string, string[]> };
  } catch (error) {
    const known = serviceError(error);
    if (!known || known.status !== 422) throw error;
    return data({ planner: null, typed, depots, cursor: undefined, error: known.message, errors: known.errors ?? {} }, { status: 422 });
  }
}

/**
 * One unit's row: its bars where they fall, and a free cell for each day
 * between them. A free day from today on, of an active unit, starts a
 * booking for that unit and day (issue 34): a link, so a click or Enter does it.
 */
function UnitRow({ unitId, asset, active, bars, from, days, today }: { unitId: number; asset: string; active: boolean; bars: PlannerBarView[]; from: string; days: number; today: string }) {
  const cells: React.ReactNode[] = [];
  let column = 0;
  const free = (until: number) => {
    for (; column < until; column++) {
      const date = addDays(from, column);
      const bookable = active && date >= today;
      cells.push(
        <td key={`free-${date}`} className={`h-11 border-l border-stone-200 p-0 ${date === today ? "bg-brand-50" : weekday(date) % 6 === 0 ? "bg-stone-50" : ""}`}>
          {bookable ? (
            <Link
              to={`/admin/hire/bookings/new?unit=${unitId}&starts_on=${date}&ends_on=${addDays(date, 1)}`}
              aria-label={`Book ${asset} from ${longDay(date)}`}
              className="group flex h-11 w-full items-center justify-center text-stone-500 hover:bg-brand-100 focus-visible:bg-brand-100 focus-visible:outline focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-700"
            >
              <span aria-hidden="true" className="invisible text-lg font-bold group-hover:visible group-focus-visible:visible">
                +
              </span>
            </Link>
          ) : null}
        </td>,
      );
    }
  };
  for (const bar of bars) {
    const where = barSpan(bar, from, days);
    if (!where) continue;
    // Live allocations never overlap (the exclusion constraint); a bar is still never drawn over another.
    const start = Math.max(where.start, column);
    const span = where.start + where.span - start;
    if (span <= 0) continue;
    free(start);
    const look = BAR_KINDS[bar.kind];
    const shape = `${where.before ? "rounded-l-none border-l-0" : "rounded-l-md"} ${where.after ? "rounded-r-none border-r-0" : "rounded-r-md"}`;
    const body = (
      <>
        <span aria-hidden="true" className="block truncate text-xs font-semibold">
          {where.before ? "← " : ""}
          {barLabel(bar)}
          {where.after ? " →" : ""}
        </span>
        <span className="sr-only">{barText(asset, bar)}</span>
      </>
    );
    const boxClass = `flex h-8 min-w-0 items-center px-1.5 ${look.className} ${shape}`;
    cells.push(
      <td key={`${bar.kind}-${bar.from}`} colSpan={span} className="border-l border-stone-200 px-0.5 py-1.5">
        {bar.request_number ? (
          <Link to={hireRequestHref(bar.request_number)} title={barText(asset, bar)} className={`${boxClass} hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-700`}>
            {body}
          </Link>
        ) : (
          // Service has no request to open: the bar still takes focus, so a keyboard reaches its dates and reason.
          <span tabIndex={0} title={barText(asset, bar)} className={`${boxClass} focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-700`}>
            {body}
          </span>
        )}
      </td>,
    );
    column = start + span;
  }
  free(days);
  return (
    <tr className="border-t border-stone-100">
      <th scope="row" className="sticky left-0 z-10 border-r border-stone-200 bg-white px-3 py-1 text-left font-mono text-sm font-normal">
        {asset}
        {active ? null : <span className="block font-sans text-xs text-stone-600">Retired</span>}
      </th>
      {cells}
    </tr>
  );
}

function Legend() {
  return (
    <ul aria-label="What the bars mean" className="mb-3 flex flex-wrap gap-x-5 gap-y-2 text-sm">
      {(Object.keys(BAR_KINDS) as PlannerBarView["kind"][]).map((kind) => (
        <li key={kind} className="flex items-center gap-2">
          <span aria-hidden="true" className={`inline-block h-4 w-8 rounded ${BAR_KINDS[kind].swatch}`} />
          <span>
            <strong>{BAR_KINDS[kind].label}</strong>
            {kind === "hold" ? ": waiting for approval, lapses unless approved" : kind === "booking" ? ": approved" : kind === "out" ? ": handed over" : ": cleaning or repair"}
          </span>
        </li>
      ))}
      <li className="flex items-center gap-2">
        <span aria-hidden="true" className="inline-block h-4 w-8 rounded border border-stone-300 bg-white" />
        <span>
          <strong>Empty</strong>: free; choose a day to book it
        </span>
      </li>
    </ul>
  );
}

export default function HirePlanner({ loaderData }: Route.ComponentProps) {
  const { planner, typed, depots, cursor, error, errors } = loaderData;
  const { search, loading } = useListAddress();
  const days = planner ? windowDays(planner.from, planner.days) : [];
  const move = (from: string) => withParam(search, { from, cursor: null }) || "?";

  return (
    <>
      <PageHeader
        title="Hire planner"
        intro="Each unit's holds, bookings, time out on hire and time in service, day by day. An empty day is free: choose it to book that unit from that day; the database refuses any booking over a bar."
        links={[{ to: "/admin/hire/bookings/new", label: "New hire", primary: true }, { to: "/admin/hire", label: "Hire desk" }, { to: "/admin/hire/requests", label: "Hire requests" }]}
      />
      <FilterForm label="Choose the days and hire items" submitLabel="Show" className="mb-4 sm:grid-cols-[auto_auto_1fr_auto] sm:items-end" buttonsClassName="">
        <FilterDate name="from" label="From" value={planner?.from ?? typed.from} errors={errors.from} />
        <FilterSelect
          name="days"
          label="Days"
          value={String(planner?.days ?? (typed.days || 14))}
          any={null}
          options={(DAYS_CHOICES.includes(Number(typed.days)) || !typed.days ? DAYS_CHOICES : [...DAYS_CHOICES, typed.days]).map((d) => [d, `${d} days`] as const)}
          errors={errors.days}
        />
        {depots.length > 1 ? <FilterSelect name="depot" label="Depot" value={typed.depot} any="All depots" options={depots.map((d) => [d.slug, d.name] as const)} /> : null}
        <FilterSearch label="Hire items" value={typed.q} placeholder="Any words of the name" />
      </FilterForm>

      <ErrorState message={error} />

      {planner ? (
        <>
          <nav aria-label="Days" className="mb-3 flex flex-wrap items-center gap-2">
            <Link to={move(addDays(planner.from, -planner.days))} className="btn-secondary">
              <span aria-hidden="true">← </span>Previous {planner.days} days
            </Link>
            <Link to={withParam(search, { from: null, cursor: null }) || "?"} className="btn-secondary" aria-current={planner.from === planner.today ? "page" : undefined}>
              From today
            </Link>
            <Link to={move(planner.to)} className="btn-secondary">
              Next {planner.days} days<span aria-hidden="true"> →</span>
            </Link>
            <p className="text-sm text-stone-700" aria-live="polite">
              {longDay(planner.from)} to {longDay(addDays(planner.to, -1))}
            </p>
          </nav>
          <Legend />
          {planner.items.length === 0 ? (
            <EmptyState title={typed.q ? "No hire items match" : "No hire items yet"} action={typed.q ? { to: withParam(search, { q: null, cursor: null }) || "?", label: "Show every hire item" } : undefined}>
              {typed.q ? "Try a shorter search." : "Add hire items and their units in the hire catalogue; they show here."}
            </EmptyState>
          ) : (
            <div className={`overflow-x-auto rounded-lg border border-stone-200 bg-white ${loading ? "opacity-75" : ""}`} aria-busy={loading || undefined} tabIndex={0} role="region" aria-label="Planner, scrolls sideways">
              <table className="w-full border-collapse text-sm" style={{ minWidth: `${9 + planner.days * 3.75}rem` }}>
                <caption className="sr-only">
                  Hire units by day, {longDay(planner.from)} to {longDay(addDays(planner.to, -1))}. Each bar runs from its first day to its return day.
                </caption>
                <colgroup>
                  <col className="w-36" />
                  {days.map((d) => (
                    <col key={d} className="w-[3.75rem]" />
                  ))}
                </colgroup>
                <thead>
                  <tr className="bg-stone-50 text-stone-700">
                    <th scope="col" className="sticky left-0 z-20 border-r border-stone-200 bg-stone-50 px-3 py-2 text-left">
                      Unit
                    </th>
                    {days.map((d) => (
                      <th key={d} scope="col" aria-current={d === planner.today ? "date" : undefined} className={`border-l border-stone-200 px-1 py-2 text-center text-xs font-semibold ${d === planner.today ? "bg-brand-100 text-brand-900" : weekday(d) % 6 === 0 ? "bg-stone-100" : ""}`}>
                        <span className="block">{shortDay(d).split(" ")[1]}</span>
                        <span className="block text-base">{Number(d.slice(8))}</span>
                        <span className="block font-normal">{["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][weekday(d)]}</span>
                        {d === planner.today ? <span className="block font-bold">Today</span> : null}
                      </th>
                    ))}
                  </tr>
                </thead>
                {planner.items.map((item) => (
                  // One row group a hire item, headed by its name.
                  <tbody key={item.id}>
                    <tr className="border-t-2 border-stone-300 bg-stone-50">
                      <th scope="rowgroup" colSpan={planner.days + 1} className="px-3 py-1.5 text-left">
                        <span className="sticky left-3">{item.name}</span>
                        {item.units.length === 0 ? <span className="ml-2 font-normal text-stone-600">no units</span> : null}
                      </th>
                    </tr>
                    {item.units.map((unit) => (
                      <UnitRow key={unit.id} unitId={unit.id} asset={unit.asset_number} active={unit.active} bars={unit.bars} from={planner.from} days={planner.days} today={planner.today} />
                    ))}
                  </tbody>
                ))}
              </table>
            </div>
          )}
          <KeysetPager search={search} cursor={cursor} nextCursor={planner.next_cursor} first="First hire items" next="More hire items" />
        </>
      ) : null}
    </>
  );
}

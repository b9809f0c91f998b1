import { formatDayMonth, formatHireDateLong, weekdayOf } from "../../lib/hire.ts";

const WEEKDAYS = [
  { short: "Mon", long: "Monday" },
  { short: "Tue", long: "Tuesday" },
  { short: "Wed", long: "Wednesday" },
  { short: "Thu", long: "Thursday" },
  { short: "Fri", long: "Friday" },
  { short: "Sat", long: "Saturday" },
  { short: "Sun", long: "Sunday" },
];

/**
 * Units free on each of the coming days, as a table of weeks (Monday first).
 * Every day says how many units are free; fully booked days are marked.
 */
export function AvailabilityCalendar({ days, units, selected }: { days: { date: string; free: number }[]; units: number; selected?: { start: string; end: string } }) {
  if (days.length === 0) return null;
  // Pad the first week so the columns line up with the weekdays.
  const lead = (weekdayOf(days[0]!.date) + 6) % 7;
  const cells: ({ date: string; free: number } | null)[] = [...Array.from({ length: lead }, () => null), ...days];
  while (cells.length % 7) cells.push(null);
  const weeks: (typeof cells)[] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  const inRange = (date: string) => selected && date >= selected.start && (date < selected.end || date === selected.start);

  return (
    <div>
      <table className="w-full table-fixed border-collapse text-center text-sm" aria-describedby="availability-key">
        <caption className="sr-only">Units free each day for the next four weeks</caption>
        <thead>
          <tr>
            {WEEKDAYS.map((d) => (
              <th key={d.short} scope="col" className="pb-1 font-semibold text-stone-700">
                <abbr title={d.long} className="no-underline">
                  {d.short}
                </abbr>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week, w) => (
            <tr key={w}>
              {week.map((day, i) => {
                if (!day) return <td key={i} className="p-0.5" />;
                const booked = day.free === 0;
                const label = `${formatHireDateLong(day.date)}: ${booked ? "fully booked" : `${day.free} of ${units} free`}`;
                return (
                  <td key={day.date} className="p-0.5">
                    <div
                      title={label}
                      data-date={day.date}
                      className={`flex min-h-11 flex-col items-center justify-center rounded border px-0.5 py-1 leading-tight ${
                        booked ? "border-red-300 bg-red-50 text-red-800 line-through decoration-red-400" : day.free < units ? "border-amber-300 bg-amber-50" : "border-green-300 bg-green-50"
                      } ${inRange(day.date) ? "ring-2 ring-brand-700" : ""}`}
                    >
                      <span aria-hidden="true" className="font-semibold">
                        {formatDayMonth(day.date)}
                      </span>
                      <span aria-hidden="true" className="text-xs">
                        {booked ? "Booked" : `${day.free} free`}
                      </span>
                      <span className="sr-only">{label}</span>
                    </div>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <p id="availability-key" className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-stone-700">
        <span>
          <span aria-hidden="true" className="mr-1 inline-block size-3 rounded-sm border border-green-300 bg-green-50" />
          All {units} free
        </span>
        <span>
          <span aria-hidden="true" className="mr-1 inline-block size-3 rounded-sm border border-amber-300 bg-amber-50" />
          Some free
        </span>
        <span>
          <span aria-hidden="true" className="mr-1 inline-block size-3 rounded-sm border border-red-300 bg-red-50" />
          Fully booked
        </span>
      </p>
    </div>
  );
}

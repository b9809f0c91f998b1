import { useEffect, useId, useMemo, useState } from "react";
import { browserApi } from "../../lib/browser-api.ts";
import type { SlotWeek } from "../../lib/appointments.ts";
import { useHydrated } from "../../lib/use-session.ts";
import { ErrorText } from "../form.tsx";

const choice =
  "flex min-h-11 cursor-pointer items-center gap-2 rounded-md border border-stone-300 bg-white px-3 py-2 font-medium text-stone-900 hover:border-brand-700 has-checked:border-2 has-checked:border-brand-700 has-checked:bg-brand-50";

/**
 * A showroom's free times, a week at a time: a day, then a time, each a group
 * of radio buttons (arrow keys move within a group), fetched from the slots
 * call in the browser so a shared, cached page never shows stale places.
 * `refresh` fetches again (after a time was taken); `exclude` leaves out the
 * customer's own time when they move it.
 */
export function SlotPicker({ branch, error, refresh, exclude, phone }: { branch: string; error?: string; refresh?: unknown; exclude?: string; phone?: string }) {
  const hydrated = useHydrated();
  const [from, setFrom] = useState<string | undefined>(undefined);
  const [day, setDay] = useState<string | undefined>(undefined);
  const id = useId();
  // Each request is a new object: an answer counts only for the request still wanted, so a change of week shows "Loading" until its own answer.
  const wanted = useMemo(() => ({ branch, from, refresh, exclude }), [branch, from, refresh, exclude]);
  const [answer, setAnswer] = useState<{ for: typeof wanted; week: SlotWeek | null } | null>(null);

  useEffect(() => {
    let live = true;
    const query = new URLSearchParams({ branch: wanted.branch, ...(wanted.from ? { from: wanted.from } : {}) });
    browserApi()
      .get<SlotWeek>(`/api/appointments/slots?${query}`)
      .then((got) => {
        if (!live) return;
        const days = got.days.map((d) => ({ ...d, slots: d.slots.filter((s) => s.start !== wanted.exclude) })).filter((d) => d.slots.length);
        setAnswer({ for: wanted, week: { ...got, days } });
        setDay(days[0]?.date);
      })
      .catch(() => live && setAnswer({ for: wanted, week: null }));
    return () => {
      live = false;
    };
  }, [wanted]);
  const current = answer?.for === wanted ? answer : null;
  const week = current?.week ?? null;
  const failed = current !== null && current.week === null;

  const chosen = week?.days.find((d) => d.date === day);
  const errorId = `${id}-error`;
  return (
    <div className="grid gap-4">
      <ErrorText id={errorId} error={error} />
      <fieldset className="grid gap-2" aria-describedby={error ? errorId : undefined}>
        <legend className="mb-2 font-semibold text-stone-900">Day</legend>
        {!hydrated ? (
          <p className="text-stone-700">The free times appear here once the page has loaded.{phone ? ` Or call the showroom on ${phone} to book.` : ""}</p>
        ) : failed ? (
          <p role="alert" className="text-red-800">
            We could not load the free times. Check your connection and try again.
          </p>
        ) : !week ? (
          <p role="status" className="text-stone-700">
            Loading free times…
          </p>
        ) : week.days.length === 0 ? (
          <p role="status" className="text-stone-700">
            No free times in these dates{week.next ? ": try later dates." : "."}
          </p>
        ) : (
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
            {week.days.map((d) => (
              <label key={d.date} className={choice}>
                <input type="radio" name="day" value={d.date} checked={day === d.date} onChange={() => setDay(d.date)} className="size-4 accent-brand-700" />
                <span>
                  {d.label}
                  <span className="block text-sm font-normal text-stone-600">{d.slots.length === 1 ? "1 time" : `${d.slots.length} times`}</span>
                </span>
              </label>
            ))}
          </div>
        )}
        <div className="mt-1 flex flex-wrap gap-2">
          <button type="button" className="btn-secondary min-h-11" disabled={!week?.previous} onClick={() => setFrom(week?.previous ?? undefined)}>
            Earlier dates
          </button>
          <button type="button" className="btn-secondary min-h-11" disabled={!week?.next} onClick={() => setFrom(week?.next ?? undefined)}>
            Later dates
          </button>
        </div>
      </fieldset>
      {chosen ? (
        <fieldset className="grid gap-2">
          <legend className="mb-2 font-semibold text-stone-900">{/^(Today|Tomorrow)$/.test(chosen.label) ? `Time ${chosen.label.toLowerCase()}` : `Time on ${chosen.label}`}</legend>
          <div className="grid grid-cols-3 gap-2 sm:grid-cols-6">
            {chosen.slots.map((s) => (
              <label key={s.start} className={choice}>
                <input type="radio" name="start" value={s.start} required className="size-4 accent-brand-700" aria-invalid={error ? true : undefined} />
                {s.time}
              </label>
            ))}
          </div>
          <p className="text-sm text-stone-600">Each consultation lasts {week?.branch.slot_minutes} minutes.</p>
        </fieldset>
      ) : null}
    </div>
  );
}

import { Form, data, useNavigation } from "react-router";
import { appContext } from "#app-context";
import { FieldError } from "../../components/admin/field-error.tsx";
import { PageHeader } from "../../components/admin/page-header.tsx";
import { ActionResultBanner } from "../../components/admin/result-banner.tsx";
import { STACKED } from "../../components/admin/stacked-table.ts";
import { control } from "../../components/admin/stock-lines.tsx";
import { EmptyState } from "../../components/page.tsx";
import { requirePermission, requireSameOrigin, serviceError } from "../../lib/admin/access.ts";
import { pageMeta } from "../../lib/meta.ts";
import { londonClock } from "../../../server/modules/branches/hours.ts";
import type { Route } from "./+types/appointments";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Showroom appointments");

const TOPICS = { kitchen: "Kitchen", bathroom: "Bathroom", both: "Kitchen and bathroom" } as const;

/** The day's design consultations at a showroom: today, and the member's own showroom (else the first), unless the filters say otherwise. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const actor = requirePermission(app.staff, request, "appointments.manage");
  const url = new URL(request.url);
  const showrooms = (await app.services.adminAppointments.showrooms(actor)).data;
  const branch = showrooms.find((s) => s.slug === url.searchParams.get("branch"))?.slug ?? showrooms.find((s) => actor.branchIds?.includes(s.id))?.slug ?? showrooms[0]?.slug;
  const asked = url.searchParams.get("date") ?? "";
  const date = /^\d{4}-\d{2}-\d{2}$/.test(asked) ? asked : londonClock(new Date()).date;
  // When the list was read: an appointment already begun cannot be cancelled.
  const now = Date.now();
  if (!branch) return { showrooms, branch: null, date, day: null, now };
  try {
    return { showrooms, branch, date, day: await app.services.adminAppointments.day(actor, branch, date), now };
  } catch (error) {
    const known = serviceError(error);
    if (known?.status !== 422) throw error;
    const today = londonClock(new Date()).date;
    return { showrooms, branch, date: today, day: await app.services.adminAppointments.day(actor, branch, today), now };
  }
}

type Result = { ok: true; message: string } | { ok: false; message: string; errors?: Record<string, string[]>; id?: number };

/** Cancels one for the customer, with a reason for the audit log; the customer is emailed. */
export async function action({ context, request }: Route.ActionArgs) {
  requireSameOrigin(request);
  const app = context.get(appContext);
  const actor = requirePermission(app.staff, request, "appointments.manage");
  const form = await request.formData();
  const id = Number(form.get("id"));
  try {
    const done = await app.services.adminAppointments.cancel(actor, id, String(form.get("reason") ?? ""));
    return data<Result>({ ok: true, message: `Cancelled ${done.data.name}'s appointment at ${done.data.time}; they have been emailed.` });
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    return data<Result>({ ok: false, message: known.errors ? "Nothing was cancelled: give a reason." : known.message, errors: known.errors, id }, { status: known.status });
  }
}

export default function AdminAppointments({ loaderData, actionData }: Route.ComponentProps) {
  const { showrooms, branch, date, day, now } = loaderData;
  const result = actionData as Result | undefined;
  const busy = useNavigation().state === "submitting";
  const booked = day?.data.filter((a) => a.status === "booked").length ?? 0;
  return (
    <>
      <PageHeader title="Showroom appointments" intro="Design consultations booked by customers on the Kitchens & Bathrooms page, a showroom and a day at a time." />
      <ActionResultBanner result={result} />
      {!branch || !day ? (
        <EmptyState title="No showrooms">Give a branch the showroom service (Branches) and customers can book consultations there.</EmptyState>
      ) : (
        <>
          <Form method="get" className="mb-6 flex flex-wrap items-end gap-3" aria-label="Showroom and day">
            <label className="grid gap-1 text-sm font-semibold">
              Showroom
              <select name="branch" defaultValue={branch} className={control}>
                {showrooms.map((s) => (
                  <option key={s.slug} value={s.slug}>
                    {s.name}
                  </option>
                ))}
              </select>
            </label>
            <label className="grid gap-1 text-sm font-semibold">
              Day
              <input type="date" name="date" defaultValue={date} className={control} />
            </label>
            <button type="submit" className="btn-secondary min-h-10">
              Show
            </button>
          </Form>

          <section aria-labelledby="day-title">
            <h2 id="day-title" className="mb-1 text-xl font-bold">
              {day.branch.name}, {new Date(`${day.date}T12:00:00Z`).toLocaleDateString("en-GB", { weekday: "long", day: "numeric", month: "long", year: "numeric", timeZone: "UTC" })}
            </h2>
            <p className="mb-3 text-sm text-stone-700">
              {booked} booked · {day.branch.slot_minutes}-minute consultations · {day.branch.designers} {day.branch.designers === 1 ? "designer" : "designers"}
            </p>
            {day.data.length === 0 ? (
              <EmptyState title="No appointments">Nobody has booked this day.</EmptyState>
            ) : (
              <div className={STACKED.frame}>
                <table className={STACKED.table}>
                  <caption className="sr-only">Appointments by time</caption>
                  <thead className={STACKED.head}>
                    <tr>
                      {["Time", "Customer", "Project", "State", ""].map((h, i) => (
                        <th key={i} scope="col" className="px-3 py-2">
                          {h || <span className="sr-only">Actions</span>}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody className={STACKED.body}>
                    {day.data.map((a) => (
                      <tr key={a.id} className={`${STACKED.row} ${a.status === "cancelled" ? "bg-stone-50 text-stone-600" : "max-lg:bg-white"}`}>
                        <th scope="row" data-label="Time" className={`${STACKED.cell} whitespace-nowrap font-semibold`}>
                          <span>
                            {a.time}–{a.ends_time}
                          </span>
                        </th>
                        <td data-label="Customer" className={STACKED.cell}>
                          <span>
                            {a.name}
                            <span className="block">
                              <a href={`mailto:${a.email}`} className="link">
                                {a.email}
                              </a>{" "}
                              · <a href={`tel:${a.phone.replace(/\s/g, "")}`} className="link">{a.phone}</a>
                            </span>
                          </span>
                        </td>
                        <td data-label="Project" className={STACKED.cell}>
                          <span>
                            {TOPICS[a.topic]}
                            {a.notes ? <span className="block whitespace-pre-line text-stone-700">{a.notes}</span> : null}
                          </span>
                        </td>
                        <td data-label="State" className={STACKED.cell}>
                          <span>{a.status === "cancelled" ? `Cancelled${a.cancelled_by === "customer" ? " by the customer" : " by staff"}` : "Booked"}</span>
                        </td>
                        <td data-label="Actions" className={STACKED.cell}>
                          {a.status === "booked" && new Date(a.starts_at).getTime() > now ? (
                            <details>
                              <summary className="cursor-pointer font-semibold text-red-800">Cancel…</summary>
                              <Form method="post" className="mt-2 grid gap-2">
                                <input type="hidden" name="id" value={a.id} />
                                <label className="grid gap-1 text-sm font-semibold">
                                  Reason (for the audit log)
                                  <input name="reason" required maxLength={300} className={control} aria-invalid={result && !result.ok && result.id === a.id && result.errors?.reason ? true : undefined} />
                                </label>
                                <FieldError messages={result && !result.ok && result.id === a.id ? result.errors?.reason : undefined} />
                                <button type="submit" className="btn min-h-10 justify-self-start bg-red-700 text-white hover:bg-red-800" disabled={busy}>
                                  Cancel {a.name}'s appointment
                                </button>
                              </Form>
                            </details>
                          ) : (
                            <span className="sr-only">None</span>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </>
      )}
    </>
  );
}

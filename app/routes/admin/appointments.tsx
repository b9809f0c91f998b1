import { Form, data, useNavigation } from "react-router";
import { PageHeader } from "../../components/admin/page-header.tsx";
import { ActionResultBanner } from "../../components/admin/result-banner.tsx";
import { control } from "../../components/admin/stock-lines.tsx";
import { serviceError } from "../../lib/admin/access.ts";
import { pageMeta } from "../../lib/meta.ts";
import { londonClock } from "../../../server/modules/branches/hours.ts";
import type { Route } from "./+types/appointments";
import { DataTable } from "../../components/admin/table-or-cards.tsx";
import { EmptyState } from "../../components/admin/empty-state.tsx";
import { ConfirmWithReason } from "../../components/admin/confirm-with-reason.tsx";
import { Options } from "../../components/admin/options.tsx";
import { staffScreen, staffPost } from "../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Showroom appointments");

const TOPICS = { kitchen: "Kitchen", bathroom: "Bathroom", both: "Kitchen and bathroom" } as const;

/** The day's design consultations at a showroom: today, and the member's own showroom (else the first), unless the filters say otherwise. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "appointments.manage");
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
  const { app, actor, form } = await staffPost(context, request, "appointments.manage");
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
                <Options of={showrooms} value={(s) => s.slug} label={(s) => s.name} />
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
            <DataTable
              empty={<EmptyState title="No appointments">Nobody has booked this day.</EmptyState>}
              caption="Appointments by time"
              rows={day.data}
              rowKey={(a) => a.id}
              rowProps={(a) => ({ className: a.status === "cancelled" ? "bg-stone-50 text-stone-600" : "max-lg:bg-white" })}
              columns={[
                {
                  label: "Time",
                  head: true,
                  cellClassName: "whitespace-nowrap font-semibold",
                  cell: (a) => (
                    <span>
                      {a.time}–{a.ends_time}
                    </span>
                  ),
                },
                {
                  label: "Customer",
                  cell: (a) => (
                    <span>
                      {a.name}
                      <span className="block">
                        <a href={`mailto:${a.email}`} className="link">
                          {a.email}
                        </a>{" "}
                        ·{" "}
                        <a href={`tel:${a.phone.replace(/\s/g, "")}`} className="link">
                          {a.phone}
                        </a>
                      </span>
                    </span>
                  ),
                },
                {
                  label: "Project",
                  cell: (a) => (
                    <span>
                      {TOPICS[a.topic]}
                      {a.notes ? <span className="block whitespace-pre-line text-stone-700">{a.notes}</span> : null}
                    </span>
                  ),
                },
                { label: "State", cell: (a) => (a.status === "cancelled" ? `Cancelled${a.cancelled_by === "customer" ? " by the customer" : " by staff"}` : "Booked") },
                {
                  label: "Actions",
                  header: <span className="sr-only">Actions</span>,
                  cell: (a) =>
                    a.status === "booked" && new Date(a.starts_at).getTime() > now ? (
                      <ConfirmWithReason
                        id={`cancel-${a.id}`}
                        summary="Cancel…"
                        fields={{ id: a.id }}
                        reason={{ label: "Reason (for the audit log)", required: true, maxLength: 300 }}
                        errors={result && !result.ok && result.id === a.id ? result.errors : undefined}
                        button={`Cancel ${a.name}'s appointment`}
                        busy={busy}
                      />
                    ) : (
                      <span className="sr-only">None</span>
                    ),
                },
              ]}
            />
          </section>
        </>
      )}
    </>
  );
}

import { useEffect, useRef, useState } from "react";
import { Form, Link } from "react-router";
import { appContext } from "#app-context";
import { SlotPicker } from "../../components/appointments/slot-picker.tsx";
import { FormAlert, FormSuccess, SubmitButton, useFocusOnFailure } from "../../components/form.tsx";
import { PageHeading } from "../../components/page.tsx";
import { TOPIC_LABELS, manageAppointment } from "../../lib/appointments.ts";
import { errorFor } from "../../lib/form-result.ts";
import { pageMeta } from "../../lib/meta.ts";
import { notFound } from "../../lib/not-found.ts";
import type { Route } from "./+types/manage";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta(matches, "Your design consultation"), { name: "robots", content: "noindex" }];

/** The appointment the email's link names: anyone holding the link may see, move or cancel it (its token is stored only as a hash). */
export async function loader({ context, params }: Route.LoaderArgs) {
  if (!/^[A-Za-z0-9_-]{43}$/.test(params.token)) notFound();
  try {
    return { appointment: (await context.get(appContext).services.appointments.byToken(params.token)).data };
  } catch (error) {
    // The service's HttpError, read by its status: this module is also the page's browser code.
    if ((error as { status?: number }).status === 404) notFound();
    throw error;
  }
}

export const clientAction = ({ request, params }: Route.ClientActionArgs) => manageAppointment(request, params.token);

export default function ManageAppointment({ loaderData, actionData }: Route.ComponentProps) {
  const a = loaderData.appointment;
  const result = actionData;
  const [confirming, setConfirming] = useState(false);
  const changeRef = useRef<HTMLFormElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const doneRef = useRef<HTMLDivElement>(null);
  useFocusOnFailure(result, changeRef, alertRef);
  useEffect(() => {
    if (result?.ok) doneRef.current?.focus();
  }, [result]);

  return (
    <>
      <PageHeading title="Your design consultation" />
      <div className="grid max-w-3xl gap-6">
        {result?.ok ? (
          <div ref={doneRef} tabIndex={-1}>
            <FormSuccess>{result.message}</FormSuccess>
          </div>
        ) : null}
        <FormAlert ref={alertRef} message={result && !result.ok ? result.message : undefined} />

        <section aria-labelledby="appointment-heading" className="rounded-lg border border-stone-200 bg-white p-5 shadow-sm sm:p-8">
          <h2 id="appointment-heading" className="text-xl font-bold">
            {a.status === "cancelled" ? "Cancelled" : a.can_change ? "Booked" : "This appointment has passed"}
          </h2>
          <dl className="mt-4 grid gap-x-6 gap-y-3 sm:grid-cols-[max-content_1fr]">
            <dt className="font-semibold">When</dt>
            <dd className={a.status === "cancelled" ? "line-through" : undefined}>
              {a.when} to {a.ends_time}
            </dd>
            <dt className="font-semibold">Where</dt>
            <dd>
              {a.branch.name}, {a.branch.address}
              {a.branch.phone ? <span className="block text-stone-700">Showroom: {a.branch.phone}</span> : null}
            </dd>
            <dt className="font-semibold">For</dt>
            <dd>
              {a.name}, {a.email}, {a.phone}
            </dd>
            <dt className="font-semibold">Project</dt>
            <dd>
              {TOPIC_LABELS[a.topic]}
              {a.notes ? <span className="block whitespace-pre-line text-stone-700">{a.notes}</span> : null}
            </dd>
          </dl>
          {a.status === "cancelled" ? (
            <p className="mt-4">
              <Link to="/kitchens-and-bathrooms#book" className="link font-semibold">
                Book another consultation
              </Link>
            </p>
          ) : null}
        </section>

        {a.can_change ? (
          <>
            <section aria-labelledby="change-heading" className="rounded-lg border border-stone-200 bg-white p-5 shadow-sm sm:p-8">
              <h2 id="change-heading" className="text-xl font-bold">
                Change the time
              </h2>
              <p className="mt-1 text-stone-700">Choose another free time at {a.branch.name}; we email you an updated calendar invite.</p>
              <Form method="post" ref={changeRef} className="mt-4 grid gap-5" noValidate>
                <input type="hidden" name="intent" value="change" />
                <SlotPicker branch={a.branch.slug} exclude={a.starts_at} refresh={result && !result.ok && result.taken ? result : undefined} error={errorFor(result, "start")} phone={a.branch.phone} />
                <div>
                  <SubmitButton busyLabel="Moving…">Move my appointment</SubmitButton>
                </div>
              </Form>
            </section>

            <section aria-labelledby="cancel-heading" className="rounded-lg border border-stone-200 bg-white p-5 shadow-sm sm:p-8">
              <h2 id="cancel-heading" className="text-xl font-bold">
                Cancel
              </h2>
              <p className="mt-1 text-stone-700">If you no longer need the consultation, cancel it so another customer can have the time.</p>
              {confirming ? (
                <Form method="post" className="mt-4 flex flex-wrap items-center gap-3">
                  <input type="hidden" name="intent" value="cancel" />
                  <p className="w-full font-semibold">Cancel your consultation on {a.when}?</p>
                  <SubmitButton busyLabel="Cancelling…" className="btn bg-red-700 text-white hover:bg-red-800">
                    Yes, cancel it
                  </SubmitButton>
                  <button type="button" className="btn-secondary" onClick={() => setConfirming(false)}>
                    No, keep it
                  </button>
                </Form>
              ) : (
                <button type="button" className="btn-secondary mt-4" onClick={() => setConfirming(true)}>
                  Cancel my appointment
                </button>
              )}
            </section>
          </>
        ) : null}
      </div>
    </>
  );
}

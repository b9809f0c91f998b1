import { useEffect, useId, useRef, useState } from "react";
import { Link, useFetcher } from "react-router";
import { type BookingResult, type Showroom, TOPIC_LABELS } from "../../lib/appointments.ts";
import { errorFor } from "../../lib/form-result.ts";
import { usePageUser } from "../../lib/use-session.ts";
import { EmailField, Field, FormAlert, SubmitButton, useFillFromUser, useFocusOnFailure } from "../form.tsx";
import { SlotPicker } from "./slot-picker.tsx";

const choice = "flex min-h-11 cursor-pointer items-center gap-2 rounded-md border border-stone-300 bg-white px-3 py-2 font-medium hover:border-brand-700 has-checked:border-2 has-checked:border-brand-700 has-checked:bg-brand-50";

/**
 * "Book a design consultation" (issue 30): a showroom, a day and a time from
 * its free places, the customer's details, then the booking, confirmed on
 * the page (and by email, with a calendar invite). Sent through the page's
 * client action; a time taken meanwhile is said plainly and the times are
 * fetched again.
 */
export function ConsultationBooking({ showrooms, action }: { showrooms: Showroom[]; action: string }) {
  const fetcher = useFetcher<BookingResult>({ key: "book-consultation" });
  const user = usePageUser();
  const [branch, setBranch] = useState(showrooms[0]?.slug ?? "");
  const formRef = useRef<HTMLFormElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const doneRef = useRef<HTMLHeadingElement>(null);
  const notesId = useId();
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  useFocusOnFailure(result, formRef, alertRef);

  useEffect(() => {
    if (result?.ok) doneRef.current?.focus();
  }, [result]);

  useFillFromUser(formRef, user);

  if (!showrooms.length) return <p className="text-stone-700">Our showrooms are not taking bookings online just now: please call your nearest branch.</p>;

  if (result?.ok) {
    const a = result.appointment;
    return (
      <div className="grid gap-3 rounded-md border-l-4 border-green-700 bg-green-50 p-4 text-stone-900" role="status">
        <h3 ref={doneRef} tabIndex={-1} className="text-lg font-bold">
          Your consultation is booked
        </h3>
        <p>
          <strong>{a.when}</strong> to {a.ends_time}, at {a.branch.name}, {a.branch.address}.
        </p>
        <h4 className="font-semibold">What happens next</h4>
        <ul className="list-disc space-y-1 pl-5">
          <li>We have emailed a confirmation to {a.email}, with a calendar invite to add it to your calendar.</li>
          <li>Bring any measurements, photos or plans of the room: the designer draws a plan with you and prices it from our ranges.</li>
          <li>To change the time or cancel, use the link in the email{a.branch.phone ? ` or call the showroom on ${a.branch.phone}` : ""}.</li>
        </ul>
        <p>
          <Link to={result.manage_path} className="link font-semibold">
            See or change your appointment
          </Link>
        </p>
      </div>
    );
  }

  const selected = showrooms.find((s) => s.slug === branch) ?? showrooms[0]!;
  return (
    <fetcher.Form method="post" action={action} ref={formRef} className="grid gap-6" noValidate>
      <FormAlert ref={alertRef} message={result && !result.ok ? result.message : undefined} />
      {showrooms.length > 1 ? (
        <fieldset className="grid gap-2">
          <legend className="mb-2 font-semibold text-stone-900">Showroom</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {showrooms.map((s) => (
              <label key={s.slug} className={choice}>
                <input type="radio" name="branch" value={s.slug} checked={branch === s.slug} onChange={() => setBranch(s.slug)} className="size-4 accent-brand-700" />
                <span>
                  {s.name}
                  <span className="block text-sm font-normal text-stone-600">{s.address}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      ) : (
        <div>
          <input type="hidden" name="branch" value={selected.slug} />
          <p className="font-semibold text-stone-900">Showroom</p>
          <p className="text-stone-700">
            {selected.name}, {selected.address}
          </p>
        </div>
      )}
      <SlotPicker branch={selected.slug} refresh={result && !result.ok && result.taken ? result : undefined} error={errorFor(result, "start")} phone={selected.phone} />
      <fieldset className="grid gap-2">
        <legend className="mb-2 font-semibold text-stone-900">Your project</legend>
        <div className="flex flex-wrap gap-2">
          {(["kitchen", "bathroom", "both"] as const).map((t) => (
            <label key={t} className={choice}>
              <input type="radio" name="topic" value={t} defaultChecked={t === "kitchen"} className="size-4 accent-brand-700" />
              {TOPIC_LABELS[t]}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="Your name" name="name" autoComplete="name" required maxLength={100} defaultValue={user?.name ?? ""} error={errorFor(result, "name")} />
        <EmailField defaultValue={user?.email ?? ""} error={errorFor(result, "email")} />
        <Field label="Phone number" name="phone" type="tel" autoComplete="tel" required maxLength={30} error={errorFor(result, "phone")} hint="So the showroom can reach you on the day." />
      </div>
      <div className="grid gap-1.5">
        <label htmlFor={notesId} className="font-semibold text-stone-900">
          Notes <span className="font-normal text-stone-600">(optional)</span>
        </label>
        <textarea
          id={notesId}
          name="notes"
          rows={3}
          maxLength={2000}
          placeholder="The room's size, what you would like, anything we should know"
          className="w-full rounded-md border border-stone-400 bg-white px-3 py-2 text-base text-stone-900 shadow-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-500"
        />
      </div>
      <div>
        <SubmitButton busy={fetcher.state !== "idle"} busyLabel="Booking…">
          Book the consultation
        </SubmitButton>
      </div>
    </fetcher.Form>
  );
}

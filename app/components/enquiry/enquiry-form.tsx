import { useEffect, useId, useRef } from "react";
import { useFetcher } from "react-router";
import { browserApi } from "../../lib/browser-api.ts";
import { errorFor, failure, failureFrom, type FormResult, text } from "../../lib/form-result.ts";
import { usePageUser } from "../../lib/use-session.ts";
import { EmailField, ErrorText, Field, FormAlert, FormSuccess, SubmitButton, useFillFromUser, useFocusOnFailure } from "../form.tsx";

export type EnquiryType = "contact" | "design-consultation";

const FIELDS = ["name", "email", "phone", "postcode", "message"] as const;
const FALLBACK = "Your message could not be sent. Please try again, or email us.";

/** The client action of a page with an enquiry form: `POST /api/enquiries`. */
export async function sendEnquiry(request: Request, type: EnquiryType): Promise<FormResult> {
  const form = await request.formData();
  try {
    const answer = await browserApi().post<{ success?: boolean; message?: string }>("/api/enquiries", {
      type,
      name: text(form, "name"),
      email: text(form, "email"),
      phone: text(form, "phone"),
      ...(type === "design-consultation" ? { postcode: text(form, "postcode") } : {}),
      message: text(form, "message"),
    });
    if (!answer?.success) return failure(FALLBACK);
    return { ok: true, message: answer.message || "Thank you. Your message has been sent." };
  } catch (error) {
    return failureFrom(error, { fallback: FALLBACK, fields: FIELDS, showServerMessageFor: [429] });
  }
}

function MessageField({ error, label }: { error?: string; label: string }) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="grid content-start gap-1.5">
      <label htmlFor={id} className="font-semibold text-stone-900">
        {label}
      </label>
      <ErrorText id={errorId} error={error} />
      <textarea
        id={id}
        name="message"
        rows={5}
        required
        minLength={10}
        maxLength={5000}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={`min-h-32 w-full rounded-md border bg-white px-3 py-2 text-base text-stone-900 shadow-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-500 ${error ? "border-2 border-red-700" : "border-stone-400"}`}
      />
    </div>
  );
}

/**
 * A contact or design-consultation enquiry. It is sent through the page's
 * client action by a fetcher, so it can live in a dialog without leaving the
 * page; input stays after a failure and is cleared after success.
 */
export function EnquiryForm({
  type,
  action,
  submitLabel,
  formKey = "page",
  onSent,
}: {
  type: EnquiryType;
  action: string;
  submitLabel: string;
  formKey?: string;
  onSent?: () => void;
}) {
  const fetcher = useFetcher<FormResult>({ key: `enquiry-${type}-${formKey}` });
  const user = usePageUser();
  const formRef = useRef<HTMLFormElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const successRef = useRef<HTMLDivElement>(null);
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  useFocusOnFailure(result, formRef, alertRef);

  useFillFromUser(formRef, user);

  useEffect(() => {
    if (result?.ok) {
      formRef.current?.reset();
      successRef.current?.focus();
      onSent?.();
    }
    // Only when a new answer arrives.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result]);

  const consultation = type === "design-consultation";
  return (
    <fetcher.Form method="post" action={action} ref={formRef} className="grid gap-5" noValidate>
      {result?.ok ? (
        <div ref={successRef} tabIndex={-1}>
          <FormSuccess>{result.message}</FormSuccess>
        </div>
      ) : null}
      <FormAlert ref={alertRef} message={result && !result.ok ? result.message : undefined} />
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="Your name" name="name" autoComplete="name" required maxLength={100} defaultValue={user?.name ?? ""} error={errorFor(result, "name")} />
        <EmailField defaultValue={user?.email ?? ""} error={errorFor(result, "email")} />
        <Field label="Phone number" name="phone" type="tel" autoComplete="tel" optional maxLength={30} error={errorFor(result, "phone")} />
        {consultation ? (
          <Field label="Postcode" name="postcode" autoComplete="postal-code" optional maxLength={8} inputClassName="max-w-40 uppercase" error={errorFor(result, "postcode")} hint="Where the kitchen or bathroom is." />
        ) : null}
      </div>
      <MessageField label={consultation ? "About your project" : "Your message"} error={errorFor(result, "message")} />
      <div>
        <SubmitButton busy={fetcher.state !== "idle"} busyLabel="Sending…">
          {submitLabel}
        </SubmitButton>
      </div>
    </fetcher.Form>
  );
}

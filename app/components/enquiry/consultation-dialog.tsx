import { useId, useRef, useState } from "react";
import { useHydrated } from "../../lib/use-session.ts";
import { EnquiryForm } from "./enquiry-form.tsx";

const TITLE = "Book a design consultation";

/**
 * "Book a design consultation": with scripts, a modal dialog (native <dialog>
 * opened with showModal, so the rest of the page is inert and Escape closes it;
 * focus goes back to the button). Without scripts, the button is a link to the
 * same form shown inline at #design-consultation.
 */
export function ConsultationEnquiry({ action }: { action: string }) {
  const hydrated = useHydrated();
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLAnchorElement>(null);
  const [open, setOpen] = useState(false);
  // Each opening starts a fresh form: an earlier "thank you" does not linger.
  const [openings, setOpenings] = useState(0);
  const titleId = useId();

  function show(event: React.MouseEvent) {
    if (!dialog.current) return;
    event.preventDefault();
    setOpen(true);
    setOpenings((n) => n + 1);
    dialog.current.showModal();
  }

  function close() {
    dialog.current?.close();
  }

  return (
    <>
      <a ref={opener} href="#design-consultation" onClick={show} className="btn bg-accent-400 text-stone-900 hover:bg-accent-500">
        {TITLE}
      </a>
      {hydrated ? (
        <dialog
          ref={dialog}
          aria-labelledby={titleId}
          onClose={() => {
            setOpen(false);
            opener.current?.focus();
          }}
          className="m-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-2xl overflow-y-auto rounded-lg bg-white p-0 text-stone-900 shadow-2xl backdrop:bg-stone-950/60"
        >
          <div className="sticky top-0 z-10 flex items-start justify-between gap-4 border-b border-stone-200 bg-white px-5 py-4 sm:px-8">
            <div>
              <h2 id={titleId} className="text-xl font-bold">
                {TITLE}
              </h2>
              <p className="mt-1 text-sm text-stone-600">Tell us about your project and a designer will call or email you to arrange a free visit or a showroom appointment.</p>
            </div>
            <button type="button" onClick={close} className="btn-secondary size-11 shrink-0 p-0" aria-label="Close">
              <svg viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
                <path d="M6 6l12 12M18 6L6 18" strokeLinecap="round" />
              </svg>
            </button>
          </div>
          <div className="px-5 py-5 sm:px-8 sm:py-6">{open ? <EnquiryForm type="design-consultation" action={action} submitLabel="Send request" formKey={`dialog-${openings}`} /> : null}</div>
        </dialog>
      ) : null}
    </>
  );
}

/** The same form inline, for a page whose scripts have not run (the button above links here). */
export function InlineConsultation({ action }: { action: string }) {
  const hydrated = useHydrated();
  return (
    <section id="design-consultation" aria-labelledby="design-consultation-heading" className="mt-12 scroll-mt-4 rounded-lg border border-stone-200 bg-white p-5 shadow-sm sm:p-8">
      <h2 id="design-consultation-heading" className="text-xl font-bold">
        {TITLE}
      </h2>
      <p className="mt-2 max-w-prose text-stone-700">
        Our kitchen and bathroom designers measure up, draw a plan with you and price it from our ranges. The consultation is free and there is no obligation to buy.
      </p>
      <div className="mt-5">
        {hydrated ? <ConsultationEnquiry action={action} /> : <EnquiryForm type="design-consultation" action={action} submitLabel="Send request" />}
      </div>
    </section>
  );
}

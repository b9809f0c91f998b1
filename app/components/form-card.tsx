import { type ReactNode, type RefObject, useRef } from "react";
import { Form } from "react-router";
import type { FormResult } from "../lib/form-result.ts";
import { FormAlert, FormSuccess, useFocusOnFailure } from "./form.tsx";

/**
 * A page's one form in its white card, posted to the page's action (or to
 * `action`): the answer's alert first inside it, and after a refusal the
 * keyboard on the first field in error (else on the alert). With
 * `showSuccess`, a successful answer's message stands above the card;
 * `formRef` for a page that clears the form after it.
 */
export function FormCard({ result, showSuccess = false, action, gap = "gap-5", formRef: givenRef, children }: { result: FormResult | undefined; showSuccess?: boolean; action?: string; gap?: "gap-5" | "gap-6"; formRef?: RefObject<HTMLFormElement | null>; children: ReactNode }) {
  const ownRef = useRef<HTMLFormElement>(null);
  const formRef = givenRef ?? ownRef;
  const alertRef = useRef<HTMLDivElement>(null);
  useFocusOnFailure(result, formRef, alertRef);
  return (
    <>
      {showSuccess && result?.ok ? (
        <div className="mb-6">
          <FormSuccess>{result.message}</FormSuccess>
        </div>
      ) : null}
      <div className="rounded-lg border border-stone-200 bg-white p-5 shadow-sm sm:p-8">
        <Form method="post" action={action} ref={formRef} className={`grid ${gap}`}>
          <FormAlert ref={alertRef} message={result && !result.ok ? result.message : undefined} />
          {children}
        </Form>
      </div>
    </>
  );
}

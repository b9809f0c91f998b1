import { useEffect, useRef, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { londonToday } from "../../lib/hire.ts";
import { useCompanySites } from "../../lib/trade-sites.ts";
import { Field, FormAlert, SelectField, TextAreaField } from "../form.tsx";

/** What the basket page's action hands back when the request was refused. */
export interface QuoteRequestFailure {
  message: string;
  errors: Record<string, string[]>;
  values: Record<string, string>;
}

/** Why the request was refused, at the top of the basket page: with an empty basket there is no form to show it in. */
export function QuoteRequestAlert({ failure }: { failure: QuoteRequestFailure | undefined }) {
  const alert = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (failure && !Object.keys(failure.errors).length) alert.current?.focus();
  }, [failure]);
  return <FormAlert ref={alert} message={failure ? `We could not ask for your quote. ${failure.message}` : undefined} className="mb-5" />;
}

const panel = "mt-8 rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:p-5";

/**
 * Under the basket (issue 32): a signed-in customer asks for a quote on its
 * lines, with notes and the date they need the goods by, posted to the basket
 * page's action (the quote service's `request`); a guest is asked to sign in first.
 * Opened by a native disclosure: no script is needed to open or send it.
 */
export function QuoteRequest({ signedIn, failure }: { signedIn: boolean; failure: QuoteRequestFailure | undefined }) {
  const navigation = useNavigation();
  const sending = navigation.state !== "idle" && navigation.formData?.get("intent") === "quote";
  const error = (field: string) => failure?.errors[field]?.join(" ");
  const invalid = error("site_id") ? "quote-site" : error("needed_by") ? "quote-needed-by" : error("notes") ? "quote-notes" : null;
  // A trade member's company's sites, read when the form is first opened: the quote can name the one it is for.
  const [opened, setOpened] = useState(Boolean(failure));
  const sites = useCompanySites(signedIn && opened);
  // A field in error takes the focus once the form is there (the alert above has it otherwise).
  useEffect(() => {
    if (invalid) document.getElementById(invalid)?.focus();
  }, [failure, invalid]);

  if (!signedIn) {
    return (
      <section aria-labelledby="quote-request-heading" className={panel} data-testid="quote-request">
        <h2 id="quote-request-heading" className="text-lg font-semibold">
          Need a price for a larger order?
        </h2>
        <p className="mt-1 text-stone-700">
          <Link to="/auth/login?redirect=%2Fbasket" className="link">
            Sign in to ask for a quote
          </Link>{" "}
          on what is in your basket.
        </p>
      </section>
    );
  }

  return (
    <section aria-labelledby="quote-request-heading" className={panel} data-testid="quote-request">
      <h2 id="quote-request-heading" className="text-lg font-semibold">
        Need a price for a larger order?
      </h2>
      <p className="mt-1 text-stone-700">We price what is in your basket and email you the quote. Your basket is emptied: the quote holds its lines.</p>
      <details open={failure ? true : undefined} className="mt-3" onToggle={(e) => e.currentTarget.open && setOpened(true)}>
        <summary className="btn-secondary w-fit cursor-pointer">Request a quote</summary>
        <Form method="post" className="mt-4 grid gap-4">
          <input type="hidden" name="intent" value="quote" />
          <TextAreaField
            id="quote-notes"
            label="Notes for our team"
            name="notes"
            optional
            hint="The job, delivery to site, anything we should know."
            maxLength={2000}
            defaultValue={failure?.values.notes ?? ""}
            error={error("notes")}
          />
          {sites.length ? (
            <SelectField id="quote-site" label="Site" name="site_id" optional hint="The site the goods are for; the order made from the quote is for it too." defaultValue={failure?.values.site_id ?? ""} error={error("site_id")} className="max-w-md">
              <option value="">No particular site</option>
              {sites.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name} ({s.postcode})
                </option>
              ))}
            </SelectField>
          ) : null}
          <Field
            id="quote-needed-by"
            label="Needed by"
            name="needed_by"
            type="date"
            optional
            min={londonToday()}
            defaultValue={failure?.values.needed_by ?? ""}
            error={error("needed_by")}
            className="max-w-xs"
          />
          <div>
            <button type="submit" className="btn-primary disabled:cursor-not-allowed disabled:opacity-75" disabled={sending}>
              {sending ? "Sending…" : "Send my quote request"}
            </button>
          </div>
        </Form>
      </details>
    </section>
  );
}

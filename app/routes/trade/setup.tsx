import { useRef, useState } from "react";
import { Form, Link, redirect } from "react-router";
import { appContext } from "#app-context";
import { AddressFields } from "../../components/checkout/address-fields.tsx";
import { Field, FormAlert, SubmitButton, useFocusOnFailure } from "../../components/form.tsx";
import { PageHeading } from "../../components/page.tsx";
import { type Address, EMPTY_ADDRESS } from "../../lib/basket-checkout.ts";
import { browserApi } from "../../lib/browser-api.ts";
import { ApiError } from "../../lib/api-client.ts";
import { errorFor, failure, failureFrom, type FormResult, redirectIfSignedOut, text } from "../../lib/form-result.ts";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/setup";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Apply for a trade account");

export async function loader({ context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const account = await app.services.trade.accountOf(app.user!.id);
  return { account: account ? { state: account.state, company_name: account.company_name } : null };
}

const FIELDS = [
  "company_name",
  "company_type",
  "company_number",
  "vat_number",
  "trade",
  "line1",
  "line2",
  "town",
  "county",
  "postcode",
  "phone",
  "accounts_email",
  "expected_monthly_spend",
  "requested_credit_limit",
] as const;

const COMPANY_TYPE_LABELS = { sole_trader: "Sole trader", partnership: "Partnership", limited_company: "Limited company" } as const;

/** "£2,500" → 2500; anything else goes to the server as typed, which says what is wrong. */
function amount(value: string): number | string | undefined {
  const plain = value.replace(/[£,\s]/g, "");
  if (plain === "") return undefined;
  return /^\d+(\.\d+)?$/.test(plain) ? Number(plain) : plain;
}

export async function clientAction({ request }: Route.ClientActionArgs): Promise<FormResult> {
  const form = await request.formData();
  // The form's third address line has no column of its own: it joins the second.
  const line2 = [text(form, "business_line_2"), text(form, "business_line_3")].filter(Boolean).join(", ");
  const body = {
    company_name: text(form, "company_name"),
    company_type: text(form, "company_type") || undefined,
    company_number: text(form, "company_number"),
    vat_number: text(form, "vat_number"),
    trade: text(form, "trade"),
    line1: text(form, "business_line_1"),
    line2,
    town: text(form, "business_town"),
    county: text(form, "business_county"),
    postcode: text(form, "business_postcode"),
    phone: text(form, "phone"),
    accounts_email: text(form, "accounts_email"),
    expected_monthly_spend: amount(text(form, "expected_monthly_spend")),
    requested_credit_limit: amount(text(form, "requested_credit_limit")),
  };
  try {
    await browserApi().post("/api/trade/setup", body);
  } catch (error) {
    redirectIfSignedOut(error, request);
    // Already pending or approved: the server's message says which.
    if (error instanceof ApiError && error.status === 409) return failure(error.message);
    return failureFrom(error, { fallback: "Your application could not be sent. Please try again.", fields: FIELDS });
  }
  throw redirect("/trade/dashboard");
}

/** The address fields are named after checkout's (line_1…); the server's are line1…. */
const ADDRESS_FIELD: Record<string, string> = { line_1: "line1", line_2: "line2", line_3: "line2", town: "town", county: "county", postcode: "postcode" };

export default function TradeSetup(props: Route.ComponentProps) {
  const { account } = props.loaderData;
  const result = props.actionData;
  const [address, setAddress] = useState<Address>(EMPTY_ADDRESS);
  const [companyType, setCompanyType] = useState("");
  const formRef = useRef<HTMLFormElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  useFocusOnFailure(result, formRef, alertRef);

  if (account && account.state !== "declined") {
    const words = {
      pending: "Your application is with our trade desk. We will email you when it is decided.",
      approved: "Your trade account is open: trade prices show across the shop while you are signed in.",
      suspended: "Your trade account is suspended. Please contact the trade desk.",
    }[account.state];
    return (
      <>
        <PageHeading title="Apply for a trade account" />
        <div className="max-w-2xl rounded-lg border border-stone-200 bg-white p-5 shadow-sm sm:p-8" data-testid="trade-setup-status">
          <h2 className="text-xl font-bold">{account.company_name}</h2>
          <p className="mt-2 text-stone-700">{words}</p>
          <Link to="/trade/dashboard" className="btn-primary mt-5 inline-flex">
            Go to your trade dashboard
          </Link>
        </div>
      </>
    );
  }

  return (
    <>
      <PageHeading
        title="Apply for a trade account"
        intro="Trade prices on everything we sell, payment on account and invoices for your business. Tell us about your company; our trade desk replies by email, usually within a working day."
      />
      {account?.state === "declined" ? (
        <p className="mb-6 max-w-3xl rounded-md border-l-4 border-amber-600 bg-amber-50 px-4 py-3">
          We could not offer {account.company_name} a trade account last time. You are welcome to apply again.
        </p>
      ) : null}
      <Form method="post" ref={formRef} className="grid max-w-3xl gap-8" noValidate>
        <FormAlert ref={alertRef} message={result && !result.ok ? result.message : undefined} />

        <fieldset className="grid gap-5 rounded-lg border border-stone-200 bg-white p-5 shadow-sm sm:p-8">
          <legend className="px-1 text-lg font-bold">Your company</legend>
          <Field label="Company name" name="company_name" autoComplete="organization" required maxLength={120} error={errorFor(result, "company_name")} />
          <fieldset className="grid gap-2">
            <legend className="font-semibold text-stone-900">Company type</legend>
            {errorFor(result, "company_type") ? (
              <p className="text-sm font-semibold text-red-700">
                <span className="sr-only">Error: </span>
                {errorFor(result, "company_type")}
              </p>
            ) : null}
            <div className="flex flex-wrap gap-2">
              {Object.entries(COMPANY_TYPE_LABELS).map(([value, label]) => (
                <label key={value} className="flex min-h-11 cursor-pointer items-center gap-2 rounded-md border border-stone-400 bg-white px-3 has-[:checked]:border-brand-800 has-[:checked]:bg-brand-50">
                  <input type="radio" name="company_type" value={value} checked={companyType === value} onChange={() => setCompanyType(value)} className="size-4" />
                  {label}
                </label>
              ))}
            </div>
          </fieldset>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field
              label="Companies House number"
              name="company_number"
              optional={companyType !== "limited_company"}
              required={companyType === "limited_company"}
              hint="8 characters, e.g. 01234567 or SC123456. Required for a limited company."
              autoCapitalize="characters"
              maxLength={12}
              inputClassName="uppercase"
              error={errorFor(result, "company_number")}
            />
            <Field label="VAT number" name="vat_number" optional hint="GB and 9 digits, e.g. GB123456789." autoCapitalize="characters" maxLength={20} inputClassName="uppercase" error={errorFor(result, "vat_number")} />
          </div>
          <Field label="Your trade" name="trade" required hint="For example builder, plumber, electrician." maxLength={80} error={errorFor(result, "trade")} />
        </fieldset>

        <fieldset className="grid gap-5 rounded-lg border border-stone-200 bg-white p-5 shadow-sm sm:p-8">
          <legend className="px-1 text-lg font-bold">Business address</legend>
          <AddressFields prefix="business" value={address} onChange={setAddress} errors={(f) => errorFor(result, ADDRESS_FIELD[f] ?? f)} />
        </fieldset>

        <fieldset className="grid gap-5 rounded-lg border border-stone-200 bg-white p-5 shadow-sm sm:p-8">
          <legend className="px-1 text-lg font-bold">Contact and spend</legend>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field label="Phone number" name="phone" type="tel" autoComplete="tel" required maxLength={30} error={errorFor(result, "phone")} />
            <Field
              label="Accounts email"
              name="accounts_email"
              type="email"
              autoComplete="email"
              spellCheck={false}
              required
              hint="Where invoices and statements go."
              error={errorFor(result, "accounts_email")}
            />
            <Field label="Expected monthly spend (£)" name="expected_monthly_spend" inputMode="decimal" required error={errorFor(result, "expected_monthly_spend")} />
            <Field label="Credit limit you would like (£)" name="requested_credit_limit" inputMode="decimal" required error={errorFor(result, "requested_credit_limit")} />
          </div>
        </fieldset>

        <div>
          <SubmitButton busyLabel="Sending…">Apply for a trade account</SubmitButton>
        </div>
      </Form>
    </>
  );
}

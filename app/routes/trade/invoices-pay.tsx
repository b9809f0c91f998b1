import { useEffect, useRef, useState } from "react";
import { InvoiceLink } from "../../components/trade/invoice-link.tsx";
import { Form, Link, redirect, redirectDocument, useNavigation } from "react-router";
import { appContext } from "#app-context";
import { EmptyState, PageHeading } from "../../components/page.tsx";
import { loginUrlFor, requireOwnOrigin } from "../../lib/access.ts";
import { formatHireDate } from "../../lib/hire.ts";
import { pageMeta } from "../../lib/meta.ts";
import { formatPence, formatPounds } from "../../lib/money.ts";
import { notFound } from "../../lib/not-found.ts";
import { useHydrated } from "../../lib/use-session.ts";
import type { Route } from "./+types/invoices-pay";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Pay invoices");

const REFERENCE = /^REM-\d{6,}$/;

/** Owners, admins and accounts users pay the company's invoices; anyone else gets the same 404 as the API. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const url = new URL(request.url);
  const reference = (url.searchParams.get("paid") ?? "").trim().toUpperCase();
  const preselect = Number(url.searchParams.get("invoice") ?? "");
  try {
    const invoices = await app.services.tradePayments.payable(app.user!.id);
    // A reference that is not the company's shows nothing, as a wrong link would.
    const paid = REFERENCE.test(reference)
      ? await app.services.tradePayments.show(app.user!.id, reference).catch((err: unknown) => {
          if ((err as { statusCode?: number }).statusCode === 404) return null;
          throw err;
        })
      : null;
    // Card is among them only when the shop takes cards (its name says so when it is the test page).
    const providers = app.services.tradePayments.providers;
    const cancelled = url.searchParams.get("payment") === "cancelled";
    return { invoices, paid, preselect: Number.isInteger(preselect) && preselect > 0 ? preselect : null, providers, cancelled };
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404) notFound();
    throw err;
  }
}

type PayFailure = { errors: string[]; chosen: number[]; provider: string };

/**
 * A plain form post, so paying works without scripts; with them React Router
 * sends the same post. Success redirects to the confirmation (post, redirect,
 * get: a reload does not pay twice, and a second post is refused as pending).
 * By card, the browser goes on to the payment page: a full navigation, as it
 * is another site (or the built-in test page).
 */
export async function action({ request, context }: Route.ActionArgs): Promise<PayFailure> {
  const app = context.get(appContext);
  const url = new URL(request.url);
  requireOwnOrigin(request, app.config.apiBaseUrl);
  if (!app.user) throw redirect(loginUrlFor(url));
  const form = await request.formData();
  const chosen = form
    .getAll("invoice_ids")
    .map((v) => Number(v))
    .filter((n) => Number.isInteger(n) && n > 0 && n <= 2_147_483_647);
  const provider = form.get("provider") === "card" ? "card" : "bank_transfer";
  try {
    const paid = await app.services.tradePayments.pay(app.user.id, { invoiceIds: chosen, provider });
    if (paid.payment) throw redirectDocument(paid.payment.redirect_url);
    throw redirect(`/trade/invoices/pay?paid=${encodeURIComponent(paid.remittance.reference)}`);
  } catch (err) {
    if (err instanceof Response) throw err;
    const failed = err as { statusCode?: number; message?: string; errors?: Record<string, string[]> };
    if (failed.statusCode === 404) notFound();
    if (failed.statusCode === 422 && failed.errors) return { errors: Object.values(failed.errors).flat(), chosen, provider };
    // The payment page could not be opened: nothing was recorded, the message says so.
    if (failed.statusCode === 503 && failed.message) return { errors: [failed.message], chosen, provider };
    throw err;
  }
}

function PaidPanel({ paid }: { paid: NonNullable<Route.ComponentProps["loaderData"]["paid"]> }) {
  const { remittance, instructions } = paid;
  const byCard = remittance.provider === "card";
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby="paid-heading" className="grid gap-4 rounded-lg border-l-4 border-green-700 bg-green-50 p-5 sm:p-6" data-testid="remittance">
      <h2 id="paid-heading" ref={heading} tabIndex={-1} className="text-xl font-bold text-green-900">
        Payment {remittance.reference} recorded
      </h2>
      <p>{instructions?.summary ?? `Pay ${formatPounds(remittance.amount)} quoting ${remittance.reference}.`}</p>
      <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
        <dt className="font-semibold">Amount</dt>
        <dd>{formatPounds(remittance.amount)}</dd>
        {instructions?.pay_to ? (
          <>
            <dt className="font-semibold">Account name</dt>
            <dd>{instructions.pay_to.account_name}</dd>
            <dt className="font-semibold">Sort code</dt>
            <dd className="tabular-nums">{instructions.pay_to.sort_code}</dd>
            <dt className="font-semibold">Account number</dt>
            <dd className="tabular-nums">{instructions.pay_to.account_number}</dd>
          </>
        ) : null}
        <dt className="font-semibold">Reference</dt>
        <dd>
          <strong className="rounded bg-white px-2 py-0.5 font-mono text-lg">{remittance.reference}</strong>
          {byCard ? null : <span className="block text-sm text-stone-700">Quote this reference so we can match your payment.</span>}
        </dd>
      </dl>
      <div>
        <h3 className="font-semibold">Invoices in this payment</h3>
        <ul className="mt-1 grid gap-1">
          {remittance.invoices.map((inv) => (
            <li key={inv.id} className="flex flex-wrap items-center gap-x-3">
              <InvoiceLink invoice={inv} className="underline" />
              <span>{formatPence(inv.total)}</span>
              <span className="rounded-full bg-amber-100 px-2.5 py-0.5 text-sm font-semibold text-amber-900">{STATUS[inv.status]}</span>
            </li>
          ))}
        </ul>
      </div>
      <p className="text-sm text-stone-700">
        {byCard
          ? remittance.status === "confirmed"
            ? "Paid by card: the invoices are marked paid and we have emailed a receipt."
            : "The invoices show as payment pending until the card payment is confirmed; then we mark them paid and email a receipt."
          : "The invoices show as payment pending until the money arrives; then we mark them paid and email a receipt."}
      </p>
    </section>
  );
}

const STATUS = { unpaid: "Unpaid", payment_pending: "Payment pending", paid: "Paid" } as const;

export default function PayInvoices(props: Route.ComponentProps) {
  const { invoices, paid, preselect, providers, cancelled } = props.loaderData;
  const failure = props.actionData;
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const sending = navigation.state === "submitting";
  const summary = useRef<HTMLDivElement>(null);
  const initial = failure?.chosen ?? (preselect !== null ? [preselect] : invoices.filter((i) => i.overdue).map((i) => i.id));
  const [chosen, setChosen] = useState<ReadonlySet<number>>(() => new Set(initial));
  const [provider, setProvider] = useState(failure?.provider ?? "bank_transfer");
  const by = provider === "card" ? "by card" : "by bank transfer";
  useEffect(() => {
    if (failure) summary.current?.focus();
  }, [failure]);
  // After paying, the paid ones leave the list: count only what is still there.
  const picked = invoices.filter((i) => chosen.has(i.id));
  const total = picked.reduce((sum, i) => sum + i.total, 0);
  const toggle = (id: number, on: boolean) =>
    setChosen((now) => {
      const next = new Set(now);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  return (
    <>
      <PageHeading title="Pay invoices" intro="Choose the invoices to pay. We give you our bank details and a reference to quote; the invoices show as payment pending until the money arrives." />
      <div className="grid gap-6">
        {paid ? <PaidPanel paid={paid} /> : null}
        {cancelled && !failure ? (
          <div role="alert" className="rounded-md border-l-4 border-amber-600 bg-amber-50 px-4 py-3 text-amber-900" data-testid="payment-cancelled">
            The card payment was not completed, so nothing was charged and your invoices are unpaid as they were. Choose how to pay and try again.
          </div>
        ) : null}
        {failure ? (
          <div ref={summary} role="alert" tabIndex={-1} aria-labelledby="pay-problem" className="rounded-md border-l-4 border-red-700 bg-red-50 px-4 py-3 text-red-800">
            <h2 id="pay-problem" className="font-bold">
              There is a problem
            </h2>
            <ul className="mt-1 list-disc pl-5">
              {failure.errors.map((message) => (
                <li key={message}>
                  <a href="#invoices-to-pay" className="underline">
                    {message}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {invoices.length === 0 ? (
          <EmptyState title="You have no invoices to pay." action={{ to: "/trade/invoices", label: "Back to invoices" }} />
        ) : (
          <Form method="post" className="grid gap-5" data-testid="pay-form">
            <fieldset id="invoices-to-pay" tabIndex={-1} className="grid gap-3" aria-describedby={failure ? "pay-problem" : undefined}>
              <legend className="mb-2 text-lg font-semibold">Invoices to pay</legend>
              {invoices.some((i) => i.overdue) ? <p className="-mt-1 text-sm text-stone-700">Overdue invoices come first and are ticked for you.</p> : null}
              <ul className="grid gap-3">
                {invoices.map((inv) => {
                  const id = `pay-invoice-${inv.id}`;
                  return (
                    <li key={inv.id} className={`rounded-lg border bg-white shadow-sm ${chosen.has(inv.id) ? "border-brand-700" : "border-stone-200"}`}>
                      <label htmlFor={id} className="flex cursor-pointer items-start gap-3 p-4">
                        <input
                          id={id}
                          type="checkbox"
                          name="invoice_ids"
                          value={inv.id}
                          checked={chosen.has(inv.id)}
                          onChange={(e) => toggle(inv.id, e.currentTarget.checked)}
                          className="mt-1 size-6 shrink-0 accent-brand-700"
                        />
                        <span className="grid flex-1 gap-1 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_minmax(0,1.2fr)_8rem] sm:items-center sm:gap-4">
                          <span>
                            <span className="block font-semibold">{inv.number}</span>
                            <span className="block break-all text-sm text-stone-700">PO {inv.po_reference || "none"}</span>
                          </span>
                          <span className="text-sm">
                            <span className="text-stone-700">Invoice date </span>
                            {formatHireDate(inv.invoice_date)}
                          </span>
                          <span className="flex flex-wrap items-center gap-2 text-sm">
                            <span>
                              <span className="text-stone-700">Due </span>
                              {formatHireDate(inv.due_date)}
                            </span>
                            {inv.overdue ? <span className="rounded-full bg-red-100 px-2.5 py-0.5 font-semibold text-red-800">Overdue</span> : null}
                          </span>
                          <span className="text-lg font-semibold sm:text-right">{formatPence(inv.total)}</span>
                        </span>
                      </label>
                    </li>
                  );
                })}
              </ul>
            </fieldset>
            {providers.length > 1 ? (
              <fieldset className="grid gap-2">
                <legend className="mb-2 text-lg font-semibold">How you will pay</legend>
                {providers.map((p) => (
                  <label key={p.id} htmlFor={`pay-by-${p.id}`} className="flex cursor-pointer items-start gap-3">
                    <input
                      id={`pay-by-${p.id}`}
                      type="radio"
                      name="provider"
                      value={p.id}
                      checked={provider === p.id}
                      onChange={() => setProvider(p.id)}
                      className="mt-1 size-5 shrink-0 accent-brand-700"
                    />
                    <span>
                      <span className="block font-semibold">{p.name}</span>
                      <span className="block text-sm text-stone-700">{p.description}</span>
                    </span>
                  </label>
                ))}
              </fieldset>
            ) : null}
            {/* Kept in sight below a long list: the total and the button. */}
            <div className="sticky bottom-0 flex flex-wrap items-center gap-x-4 gap-y-2 border-t border-stone-200 bg-stone-50 py-3">
              {hydrated ? (
                <p aria-live="polite" className="text-lg" data-testid="pay-total">
                  {picked.length === 0 ? "No invoices chosen." : `${picked.length} ${picked.length === 1 ? "invoice" : "invoices"} chosen: `}
                  {picked.length > 0 ? <strong>{formatPence(total)}</strong> : null}
                </p>
              ) : null}
              <button type="submit" className="btn-primary disabled:cursor-not-allowed disabled:opacity-75" disabled={sending}>
                {sending ? "Recording the payment…" : hydrated && picked.length > 0 ? `Pay ${formatPence(total)} ${by}` : `Pay the chosen invoices ${by}`}
              </button>
            </div>
            <p>
              <Link to="/trade/invoices" className="underline">
                Back to invoices
              </Link>
            </p>
          </Form>
        )}
      </div>
    </>
  );
}

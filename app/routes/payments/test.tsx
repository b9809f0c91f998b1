import { useEffect, useRef } from "react";
import { Form, redirectDocument, useNavigation } from "react-router";
import { appContext } from "#app-context";
import { requireSameOrigin } from "../../lib/admin/access.ts";
import { formatPounds } from "../../lib/money.ts";
import { notFound } from "../../lib/not-found.ts";
import type { Route } from "./+types/test";

// The built-in test payment page (ADR 0033): what Stripe's hosted page does,
// with no card and no money, so the demo shows the whole card flow. It exists
// only outside production and without Stripe keys; its outcomes reach the
// shop as signed events through the same webhook handler as Stripe's.

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });
export const meta: Route.MetaFunction = () => [{ title: "Test payment" }, { name: "robots", content: "noindex, nofollow" }];

const OUTCOMES = ["pay", "decline", "authenticate", "authentication_failed"] as const;
type Outcome = (typeof OUTCOMES)[number];

function sessionOf(context: Route.LoaderArgs["context"], id: string) {
  const app = context.get(appContext);
  const processor = app.services.testPayments;
  const session = processor && /^cs_test_\w{1,64}$/.test(id) ? processor.session(id) : null;
  if (!processor || !session) notFound();
  return { app, processor, session };
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const { app, session } = sessionOf(context, params.id);
  return {
    shop: app.config.appName,
    session: {
      id: session.id,
      amount: session.amount / 100,
      description: session.description,
      email: session.email,
      status: session.status,
      decline: session.lastDecline,
      cancelUrl: session.cancelUrl,
      expiresAt: session.expiresAt.toISOString(),
    },
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  requireSameOrigin(request);
  const { processor } = sessionOf(context, params.id);
  const outcome = String((await request.formData()).get("outcome") ?? "");
  if (!OUTCOMES.includes(outcome as Outcome)) return { step: "card" as const, message: "Choose how the test payment goes." };
  const done = await processor.act(params.id, outcome as Outcome);
  // A document navigation: the return link is the shop's API, not a screen the router can load as data.
  if (done.redirect) throw redirectDocument(done.redirect);
  return { step: outcome === "authenticate" ? ("authenticate" as const) : ("card" as const), message: done.message };
}

export default function TestPayment({ loaderData, actionData }: Route.ComponentProps) {
  const { session, shop } = loaderData;
  const busy = useNavigation().state !== "idle";
  const message = actionData?.message ?? session.decline;
  const alert = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (actionData) alert.current?.focus();
  }, [actionData]);
  const open = session.status === "open";

  return (
    <main id="main" tabIndex={-1} className="mx-auto grid min-h-dvh max-w-lg content-start gap-5 px-4 py-8 sm:py-14">
      <p className="rounded-md border-2 border-amber-600 bg-amber-50 px-4 py-3 font-semibold text-amber-950" data-testid="test-banner">
        Test payment page: no real card is charged and no money moves. A shop with Stripe keys sends you to Stripe&apos;s own page instead.
      </p>
      <section aria-labelledby="pay-heading" className="grid gap-4 rounded-xl border border-stone-200 bg-white p-6 shadow-sm">
        <div>
          <p className="text-sm text-stone-600">{shop}</p>
          <h1 id="pay-heading" className="text-2xl font-bold">
            Pay {formatPounds(session.amount)}
          </h1>
          <p className="text-stone-700">{session.description}</p>
          {session.email ? <p className="text-sm text-stone-600">Receipt to {session.email}</p> : null}
        </div>
        {message ? (
          <div ref={alert} tabIndex={-1} role="alert" className="rounded-md border-l-4 border-red-700 bg-red-50 px-4 py-3 font-semibold text-red-800">
            {message}
          </div>
        ) : null}
        {!open ? (
          <p role="status" className="font-semibold">
            {session.status === "expired" ? "This payment page has expired. Go back to the shop to try again." : "This payment is complete."}
          </p>
        ) : actionData?.step === "authenticate" ? (
          <Form method="post" className="grid gap-3" aria-labelledby="auth-heading">
            <h2 id="auth-heading" className="text-lg font-semibold">
              Your bank asks you to confirm this payment
            </h2>
            <p className="text-stone-700">In a real payment, your bank&apos;s app or a code by text message confirms it is you (3-D Secure).</p>
            <button type="submit" name="outcome" value="pay" className="btn-primary" disabled={busy}>
              Complete authentication
            </button>
            <button type="submit" name="outcome" value="authentication_failed" className="btn-secondary" disabled={busy}>
              Fail authentication
            </button>
          </Form>
        ) : (
          <Form method="post" className="grid gap-3">
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-md bg-stone-50 p-3 text-sm">
              <dt className="text-stone-600">Card</dt>
              <dd className="font-mono">4242 4242 4242 4242 (test)</dd>
            </dl>
            <button type="submit" name="outcome" value="pay" className="btn-primary" disabled={busy}>
              Pay {formatPounds(session.amount)}
            </button>
            <button type="submit" name="outcome" value="decline" className="btn-secondary" disabled={busy}>
              Use a card that is declined
            </button>
            <button type="submit" name="outcome" value="authenticate" className="btn-secondary" disabled={busy}>
              Use a card that needs authentication
            </button>
          </Form>
        )}
        <a href={session.cancelUrl} className="link justify-self-start">
          ← Back to {shop} without paying
        </a>
      </section>
    </main>
  );
}

import { useEffect, useId, useRef } from "react";
import { useActionData, useFetcher } from "react-router";
import { CANCELLABLE } from "../../../server/modules/orders/statuses.ts";
import { type OrderView, formatOrderDate } from "../../lib/basket-checkout.ts";
import { errorFor } from "../../lib/form-result.ts";
import { formatPounds } from "../../lib/money.ts";
import { RETURN_PHOTOS_MAX } from "../../../server/modules/returns/photos/limits.ts";
import { type CustomerReturn, type OrderReturnsView, PHOTOS_FIELD, RETURN_METHOD_LABELS, RETURN_REASONS, RETURN_REASON_LABELS, type ReturnsResult, fieldOf } from "../../lib/returns.ts";
import { ReturnPhotos } from "./return-photos.tsx";
import { Field, FormAlert, FormSuccess, QuantityField, SubmitButton, useFocusOnFailure } from "../form.tsx";


const REFUND_HOW: Record<string, string> = { card: "to your card", credit_note: "as a credit note on your account", manual: "the way you paid" };

/**
 * An order's returns on its page (issue 31): each return's progress and
 * refund, the form to return items while the window is open (per line, what
 * may still come back, or why not), and cancelling before dispatch.
 */
export function OrderReturns({ order, view }: { order: OrderView; view: OrderReturnsView }) {
  const cancellable = (CANCELLABLE as readonly string[]).includes(order.status);
  // Said here, not in the cancel section: a whole order cancelled takes that section away.
  const posted = useActionData<ReturnsResult>();
  const cancelled = useFetcher<ReturnsResult>({ key: CANCEL_KEY }).data ?? (posted?.intent !== "return" ? posted : undefined);
  return (
    <div className="mt-8 grid gap-8">
      {cancelled?.ok ? <FormSuccess>{cancelled.message}</FormSuccess> : null}
      {view.returns.length ? <ReturnsList returns={view.returns} /> : null}
      {cancellable ? <CancelOrder order={order} /> : null}
      {order.status === "completed" ? <ReturnItems view={{ ...view, number: order.number }} /> : null}
    </div>
  );
}

function ReturnsList({ returns }: { returns: CustomerReturn[] }) {
  return (
    <section aria-labelledby="returns-heading">
      <h2 id="returns-heading" className="text-lg font-semibold">
        Your returns
      </h2>
      <ul className="mt-3 grid gap-4">
        {returns.map((r) => (
          <li key={r.number} className="rounded-lg border border-stone-200 bg-white p-4 shadow-sm" data-testid="customer-return">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <h3 className="font-semibold">Return {r.number}</h3>
              <span className="rounded-full bg-stone-100 px-3 py-0.5 text-sm font-semibold text-stone-800">{r.status_label}</span>
            </div>
            <p className="text-sm text-stone-600">
              Asked {formatOrderDate(r.created_at)} · {r.method_label}
              {r.branch ? `: ${r.branch.name}` : ""}
            </p>
            <ul className="mt-2 text-sm">
              {r.lines.map((l) => (
                <li key={l.line_id}>
                  {l.quantity} × {l.name} <span className="text-stone-600">({l.reason_label})</span>
                </li>
              ))}
            </ul>
            {r.photos.length ? (
              <div className="mt-3">
                <h4 className="sr-only">Your photos</h4>
                <ReturnPhotos photos={r.photos} whose="yours" testId="customer-return-photos" />
              </div>
            ) : null}
            {r.reject_reason ? <p className="mt-2 text-sm font-semibold text-red-800">Not accepted: {r.reject_reason}</p> : null}
            {r.refund ? (
              <p className="mt-2 font-semibold text-green-900" data-testid="return-refund">
                Refunded {formatPounds(r.refund.amount)} {REFUND_HOW[r.refund.method ?? ""] ?? ""}
                {r.refund.credit_note ? ` (credit note ${r.refund.credit_note})` : ""}
                {r.refund.at ? ` on ${formatOrderDate(r.refund.at)}` : ""}.
              </p>
            ) : null}
            <ol className="mt-3 grid gap-1 border-l-2 border-brand-700 pl-4 text-sm">
              {r.timeline.map((e, i) => (
                <li key={i}>
                  <span className="font-semibold">{e.label}</span> <span className="text-stone-600">{formatOrderDate(e.at)}</span>
                  {e.note ? <span className="block text-stone-700">{e.note}</span> : null}
                </li>
              ))}
            </ol>
          </li>
        ))}
      </ul>
    </section>
  );
}

function useFormFeedback(key: string, intents: ReturnsResult["intent"][]) {
  const fetcher = useFetcher<ReturnsResult>({ key });
  // With scripts the fetcher's answer; without, the page's own action's (returns.server.ts).
  const posted = useActionData<ReturnsResult>();
  const answer = fetcher.data ?? posted;
  const result = answer && intents.includes(answer.intent) ? answer : undefined;
  const form = useRef<HTMLFormElement>(null);
  const alert = useRef<HTMLDivElement>(null);
  useFocusOnFailure(result, form, alert);
  return { fetcher, result, form, alert, busy: fetcher.state !== "idle" };
}

function ReturnItems({ view }: { view: OrderReturnsView & { number: string } }) {
  const { fetcher, result, form, alert, busy } = useFormFeedback("order-return", ["return"]);
  const success = useRef<HTMLDivElement>(null);
  const made = result?.ok ? result.made : undefined;
  useEffect(() => {
    if (!made) return;
    // Sent: the form starts again empty for anything else, and focus goes to what was made.
    form.current?.reset();
    success.current?.focus();
  }, [made, form]);
  const { returnable } = view;
  const heavy = returnable.lines.some((l) => l.heavy && l.returnable > 0);
  const methodName = useId();
  // A refusal without scripts comes back with what was typed (a file cannot be).
  const typed = result && !result.ok ? result.values : undefined;
  return (
    <section aria-labelledby="return-items-heading" className="rounded-lg border border-stone-200 bg-white p-5 shadow-sm">
      <h2 id="return-items-heading" className="text-lg font-semibold">
        Return items
      </h2>
      {made ? (
        <div ref={success} tabIndex={-1} className="mt-3 grid gap-2" data-testid="return-made">
          <FormSuccess>
            Return {made.number} is {made.status === "approved" ? "approved" : "requested"}. We have emailed you {made.status === "approved" ? "how to send it back" : "and will tell you how to send it back once we have checked it"}.
          </FormSuccess>
          {made.instructions.length ? (
            <ul className="list-disc pl-6 text-stone-800">
              {made.instructions.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      {!returnable.open ? (
        <p className="mt-2 text-stone-700">{returnable.closed_reason ?? "Everything on this order has been returned already."}</p>
      ) : (
        <fetcher.Form method="post" encType="multipart/form-data" ref={form} className="mt-2 grid gap-5" noValidate>
          <input type="hidden" name="intent" value="return" />
          <OrderFields number={view.number} lineIds={returnable.lines.map((l) => l.line_id)} />
          <p className="text-stone-700">
            You can return items until <strong>{returnable.deadline_label}</strong>, for any reason. Choose how many of each and why; we refund you within 14 days of getting them back, with the standard delivery charge if you return the whole order.
          </p>
          <FormAlert ref={alert} message={result && !result.ok ? result.message : undefined} />
          <ul className="grid gap-4">
            {returnable.lines.map((line) => (
              <li key={line.line_id} className="rounded-md border border-stone-200 p-4">
                <p className="font-semibold">{line.name}</p>
                <p className="text-sm text-stone-600">
                  Code {line.sku} · bought {line.quantity}
                  {line.asked_back ? ` · ${line.asked_back} already in a return` : ""}
                  {line.cancelled ? ` · ${line.cancelled} cancelled` : ""}
                </p>
                {line.returnable > 0 ? (
                  <div className="mt-3 grid gap-3 sm:grid-cols-[10rem_1fr]">
                    <QuantityField
                      min={0}
                      defaultValue={typed?.[fieldOf("qty", line.line_id)] ?? 0}
                      label={`How many (up to ${line.returnable})`}
                      name={fieldOf("qty", line.line_id)}
                      max={line.returnable}
                      error={errorFor(result, fieldOf("qty", line.line_id))}
                    />
                    <ReasonSelect lineId={line.line_id} defaultValue={typed?.[fieldOf("reason", line.line_id)]} error={errorFor(result, fieldOf("reason", line.line_id))} />
                    <Field
                      className="sm:col-span-2"
                      label="Anything we should know"
                      optional
                      name={fieldOf("note", line.line_id)}
                      defaultValue={typed?.[fieldOf("note", line.line_id)]}
                      maxLength={500}
                      error={errorFor(result, fieldOf("note", line.line_id))}
                      hint="Needed for “Other”. For a fault, what happens."
                    />
                  </div>
                ) : (
                  <p className="mt-2 text-sm text-stone-700">{line.not_returnable_reason ?? "Nothing left to return."}</p>
                )}
              </li>
            ))}
          </ul>
          <Field
            type="file"
            name={PHOTOS_FIELD}
            label="Photos"
            optional
            multiple
            accept="image/jpeg,image/png,image/webp,image/avif"
            hint={`Up to ${RETURN_PHOTOS_MAX} photos of a fault or the damage help us: JPEG, PNG, WebP or AVIF, up to 20 MB each. Location data is removed.`}
            error={errorFor(result, PHOTOS_FIELD)}
            inputClassName="file:mr-3 file:rounded-md file:border-0 file:bg-stone-100 file:px-3 file:py-2 file:font-semibold"
          />
          <fieldset className="grid gap-2">
            <legend className="font-semibold text-stone-900">How it comes back</legend>
            {errorFor(result, "method") ? (
              <p className="text-sm font-semibold text-red-700">
                <span className="sr-only">Error: </span>
                {errorFor(result, "method")}
              </p>
            ) : null}
            {(["branch", "post", ...(heavy ? ["collection" as const] : [])] as const).map((method, i) => (
              <label key={method} className="flex min-h-11 items-center gap-3">
                <input type="radio" name="method" value={method} defaultChecked={typed?.method ? typed.method === method : i === 0} className="size-5" aria-describedby={`${methodName}-${method}`} />
                <span>
                  {RETURN_METHOD_LABELS[method]}
                  <span id={`${methodName}-${method}`} className="block text-sm text-stone-600">
                    {method === "branch" ? "Hand it in at the counter of the branch you ordered from." : method === "post" ? "We email you our returns address; you pay the postage unless it is faulty or wrong." : "For heavy goods; a charge comes off your refund unless it is faulty or wrong."}
                  </span>
                </span>
              </label>
            ))}
          </fieldset>
          <div>
            <SubmitButton busy={busy} busyLabel="Sending your return…">
              Request return
            </SubmitButton>
          </div>
        </fetcher.Form>
      )}
    </section>
  );
}

/** Which order and lines a form is about, for the client action (lib/returns.ts). */
function OrderFields({ number, lineIds }: { number: string; lineIds: number[] }) {
  return (
    <>
      <input type="hidden" name="order" value={number} />
      <input type="hidden" name="lines" value={lineIds.join(",")} />
    </>
  );
}

function ReasonSelect({ lineId, error, defaultValue }: { lineId: number; error?: string; defaultValue?: string }) {
  const id = useId();
  return (
    <div className="grid content-start gap-1.5">
      <label htmlFor={id} className="font-semibold text-stone-900">
        Why
      </label>
      {error ? (
        <p id={`${id}-error`} className="text-sm font-semibold text-red-700">
          <span className="sr-only">Error: </span>
          {error}
        </p>
      ) : null}
      <select id={id} name={fieldOf("reason", lineId)} defaultValue={defaultValue ?? "changed_mind"} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} className="min-h-11 w-full rounded-md border border-stone-400 bg-white px-3 py-2 text-base">
        {RETURN_REASONS.map((r) => (
          <option key={r} value={r}>
            {RETURN_REASON_LABELS[r]}
          </option>
        ))}
      </select>
    </div>
  );
}

const CANCEL_KEY = "order-cancel";

function CancelOrder({ order }: { order: OrderView }) {
  const { fetcher, result, form, alert, busy } = useFormFeedback(CANCEL_KEY, ["cancel-all", "cancel-lines"]);
  const confirmId = useId();
  // Some lines only for an order paid by card or on account (returns/cancel.ts).
  const byLines = (order.payment_method === "card" && order.status !== "awaiting_payment") || order.payment_method === "pay_on_account";
  const open = order.lines.filter((l) => l.quantity - (l.cancelled_quantity ?? 0) > 0);
  return (
    <section aria-labelledby="cancel-heading" className="rounded-lg border border-stone-200 bg-white p-5 shadow-sm">
      <h2 id="cancel-heading" className="text-lg font-semibold">
        Cancel this order
      </h2>
      <p className="mt-1 text-stone-700">
        Changed your mind? Until we send it you can cancel it{byLines && open.length > 1 ? ", or some of it," : ""} here{order.payment_method === "card" ? ", and your card payment is refunded at once" : ""}.
      </p>
      <fetcher.Form method="post" ref={form} className="mt-3 grid gap-4" noValidate>
        <OrderFields number={order.number} lineIds={order.lines.map((l) => l.id)} />
        <FormAlert ref={alert} message={result && !result.ok ? result.message : undefined} />
        {byLines && open.length > 1 ? (
          <fieldset className="grid gap-3">
            <legend className="font-semibold">Cancel some items</legend>
            {open.map((line) => (
              <QuantityField
                min={0}
                defaultValue={0}
                key={line.id}
                label={`${line.name}: how many to cancel`}
                name={fieldOf("cancel", line.id)}
                max={line.quantity - (line.cancelled_quantity ?? 0)}
                inputClassName="max-w-32"
                error={errorFor(result, fieldOf("cancel", line.id))}
              />
            ))}
            <div>
              <SubmitButton busy={busy} busyLabel="Cancelling…" className="btn-secondary" name="intent" value="cancel-lines">
                Cancel these items
              </SubmitButton>
            </div>
          </fieldset>
        ) : null}
        <div className="grid gap-2">
          <label className="flex min-h-11 items-center gap-3" htmlFor={confirmId}>
            <input id={confirmId} type="checkbox" name="confirm" className="size-5" aria-invalid={errorFor(result, "confirm") ? true : undefined} aria-describedby={errorFor(result, "confirm") ? `${confirmId}-error` : undefined} />
            <span>Yes, cancel the whole of order {order.number}</span>
          </label>
          {errorFor(result, "confirm") ? (
            <p id={`${confirmId}-error`} className="text-sm font-semibold text-red-700">
              <span className="sr-only">Error: </span>
              {errorFor(result, "confirm")}
            </p>
          ) : null}
          <div>
            <SubmitButton busy={busy} busyLabel="Cancelling…" className="btn border-2 border-red-700 bg-white text-red-800 hover:bg-red-50" name="intent" value="cancel-all">
              Cancel the whole order
            </SubmitButton>
          </div>
        </div>
      </fetcher.Form>
    </section>
  );
}

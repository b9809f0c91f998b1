import { useEffect, useRef, useState } from "react";
import { Form, useNavigation } from "react-router";
import type { Address as SavedAddress } from "../../lib/account.ts";
import type { FieldErrors } from "../../lib/api-client.ts";
import { type Address, EMPTY_ADDRESS, siteAddress, sitePoRule } from "../../lib/basket-checkout.ts";
import { browserApi } from "../../lib/browser-api.ts";
import { formatPounds } from "../../lib/money.ts";
import type { AcceptOptions, QuoteView } from "../../lib/quotes.ts";
import { useHydrated } from "../../lib/use-session.ts";
import { AddressFields } from "../checkout/address-fields.tsx";
import { SavedAddressPicker, checkoutAddress, savedInOrder } from "../checkout/saved-addresses.tsx";
import { DeliveryChoice, PaymentChoice, SiteChoice } from "../checkout/choices.tsx";
import { Field, FormAlert, TextAreaField } from "../form.tsx";

/** What a refused acceptance hands back: the form as sent, the errors, and the delivery prices for the address given when they moved the total. */
export interface AcceptFailure {
  message: string;
  errors: FieldErrors;
  values: Record<string, string>;
  repriced?: { options: AcceptOptions; priced_for: string };
}

const box = "grid gap-3 rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:p-5";
const fieldError = "text-sm font-semibold text-red-700";

/** The address the form starts from: as sent after a refusal, else the default delivery address, else none. */
function startingAddress(addresses: SavedAddress[], values: Record<string, string> | undefined): Address {
  if (values) return { line_1: values.delivery_line_1 ?? "", line_2: values.delivery_line_2 ?? "", line_3: values.delivery_line_3 ?? "", town: values.delivery_town ?? "", county: values.delivery_county ?? "", postcode: values.delivery_postcode ?? "" };
  const first = savedInOrder(addresses, "delivery")[0];
  return first ? checkoutAddress(first) : EMPTY_ADDRESS;
}

/**
 * Accepting a sent quote, as checkout takes an order: how it reaches you
 * (collection at a branch, or delivery to an address from the address book or
 * typed), how you pay (pay on account with its credit and PO reference, bank
 * transfer, card), notes. A plain form post to the page's action, so it works
 * without scripts; with them, the delivery prices follow the postcode typed
 * (GET /api/quotes/{number}/delivery-options) and the fields that do not apply
 * to the method chosen are hidden. The key is this render's: a second post of
 * the same form answers with the same order.
 */
export function AcceptQuote({
  quote,
  options: loaded,
  pricedFor: loadedFor,
  addresses,
  idempotencyKey,
  failure,
}: {
  quote: QuoteView;
  options: AcceptOptions;
  /** The postcode `options` are priced for ("" for none). */
  pricedFor: string;
  addresses: SavedAddress[];
  idempotencyKey: string;
  failure: AcceptFailure | undefined;
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const sending = navigation.state !== "idle" && navigation.formData?.get("intent") === "accept";
  const values = failure?.values;
  const [options, setOptions] = useState(failure?.repriced?.options ?? loaded);
  const [pricedFor, setPricedFor] = useState(failure?.repriced?.priced_for ?? loadedFor);
  const [method, setMethod] = useState(values?.delivery_method ?? "");
  const [payment, setPayment] = useState(values?.payment_method ?? options.payment.find((p) => p.id !== "pay_on_collection")?.id ?? "");
  const [address, setAddress] = useState(() => startingAddress(addresses, values));
  const readyAt = options.collect_at.filter((b) => b.ready_label);
  const [branch, setBranch] = useState(values?.branch_id ?? String(readyAt[0]?.id ?? options.collect_at[0]?.id ?? ""));
  const [po, setPo] = useState(values?.po_reference ?? "");
  const [siteId, setSiteId] = useState<number | undefined>(() => (values?.site_id ? Number(values.site_id) : quote.site?.id));
  const [notes, setNotes] = useState(values?.notes ?? "");
  const alert = useRef<HTMLDivElement>(null);
  const form = useRef<HTMLFormElement>(null);

  // A refusal: to the first field in error, or to the message.
  useEffect(() => {
    if (!failure) return;
    (form.current?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? alert.current)?.focus();
  }, [failure]);

  /** The delivery prices for a postcode the customer settled on, as the API works them for this quote. */
  function priceFor(postcode: string) {
    const wanted = postcode.trim().toUpperCase();
    if (!wanted || wanted === pricedFor) return;
    browserApi()
      .get<{ data: AcceptOptions }>(`/api/quotes/${quote.number}/delivery-options`, { query: { postcode: wanted } })
      .then((answer) => {
        setOptions(answer.data);
        setPricedFor(wanted);
        setMethod((m) => (answer.data.delivery.some((d) => d.id === m) ? m : ""));
      })
      // Not a postcode the API takes: the prices shown stay, and the order is checked against the address anyway.
      .catch(() => undefined);
  }

  const err = (field: string) => failure?.errors[field]?.join(" ");
  const chosen = options.delivery.find((d) => d.id === method);
  const collecting = chosen?.kind === "collect";
  // Without scripts nothing can hide: every field shows, each saying when it applies.
  const showAddress = !hydrated || !collecting;
  const showBranch = options.collect_at.length > 0 && (!hydrated || collecting);
  const goods = Math.round(((quote.subtotal ?? 0) + (quote.vat ?? 0)) * 100) / 100;
  const total = chosen ? Math.round((goods + chosen.price) * 100) / 100 : null;
  const onAccount = options.payment.find((p) => p.id === "pay_on_account");
  // On account, a company that keeps sites names the one the order is for: the quote's, unless changed here.
  const sites = onAccount?.sites ?? [];
  const site = sites.find((s) => s.id === siteId);
  const poRequired = payment === "pay_on_account" && (!!onAccount?.po_required || !!site?.po_required || !!site?.po_prefix);
  const payments = options.payment.filter((p) => p.id !== "pay_on_collection" || !hydrated || collecting);

  return (
    <Form method="post" ref={form} className="grid gap-5" data-testid="accept-form">
      <input type="hidden" name="intent" value="accept" />
      <input type="hidden" name="idempotency_key" value={idempotencyKey} />
      <input type="hidden" name="priced_for" value={pricedFor} />
      <FormAlert ref={alert} message={failure?.message} />

      <fieldset className={box}>
        <legend className="px-1 text-lg font-semibold">How it reaches you</legend>
        {err("delivery_method") ? <p className={fieldError}>{err("delivery_method")}</p> : null}
        {quote.delivery === null ? (
          <p className="text-sm text-stone-700">Delivery is at our usual rates for the method and your postcode{pricedFor ? ` (priced here for ${pricedFor})` : ": enter your address to see them"}.</p>
        ) : (
          <p className="text-sm text-stone-700">Delivery is at the quoted {formatPounds(quote.delivery)} inc VAT; collection is free.</p>
        )}
        {options.delivery.map((d) => (
          <DeliveryChoice
            key={d.id}
            option={d}
            checked={method === d.id}
            onChoose={() => setMethod(d.id)}
            // At the quoted price, the usual rates' notes (free over an amount, surcharges) do not apply.
            note={[d.description, ...(quote.delivery !== null && d.kind !== "collect" ? ["At the quoted price."] : d.notes)].filter(Boolean).join(" ")}
          />
        ))}
        {showBranch ? (
          <div className="grid gap-1.5">
            <label htmlFor="accept-branch" className="font-semibold">
              Collect from{hydrated ? "" : <span className="font-normal text-stone-600"> (for click &amp; collect)</span>}
            </label>
            {err("branch_id") ? (
              <p id="accept-branch-error" className={fieldError}>
                {err("branch_id")}
              </p>
            ) : null}
            <select
              id="accept-branch"
              name="branch_id"
              value={branch}
              onChange={(e) => setBranch(e.target.value)}
              aria-invalid={err("branch_id") ? true : undefined}
              aria-describedby={err("branch_id") ? "accept-branch-error" : undefined}
              className="min-h-11 w-full min-w-0 truncate rounded-md border border-stone-400 bg-white px-3"
            >
              {options.collect_at.map((b) => (
                <option key={b.id} value={b.id}>
                  {b.name} ({b.ready_label ? `ready ${b.ready_label}` : "cannot supply this quote"})
                </option>
              ))}
            </select>
          </div>
        ) : null}
      </fieldset>

      {showAddress ? (
        <fieldset className={box} data-testid="accept-address">
          <legend className="px-1 text-lg font-semibold">Delivery address{hydrated ? "" : <span className="font-normal text-stone-600"> (for delivery)</span>}</legend>
          {err("delivery_address") ? <p className={fieldError}>{err("delivery_address")}</p> : null}
          {addresses.length ? (
            <SavedAddressPicker
              addresses={addresses}
              use="delivery"
              value={address}
              onChoose={(a) => {
                setAddress(checkoutAddress(a));
                priceFor(a.postcode);
              }}
              onNew={() => setAddress(EMPTY_ADDRESS)}
            />
          ) : null}
          <AddressFields prefix="delivery" value={address} onChange={setAddress} errors={(f) => err(`delivery_address.${f}`)} onPostcodeSettled={priceFor} />
        </fieldset>
      ) : null}

      <fieldset className={box}>
        <legend className="px-1 text-lg font-semibold">How you pay</legend>
        {err("payment_method") ? <p className={fieldError}>{err("payment_method")}</p> : null}
        {payments.map((p) => (
          <PaymentChoice key={p.id} option={p} checked={payment === p.id} onChoose={() => setPayment(p.id)} total={total} />
        ))}
        {sites.length && (!hydrated || payment === "pay_on_account") ? (
          <SiteChoice
            sites={sites}
            value={site?.id}
            error={err("site_id")}
            onChoose={(s) => {
              setSiteId(s.id);
              if (!collecting) {
                setAddress(siteAddress(s));
                priceFor(s.postcode);
              }
            }}
          />
        ) : null}
        <Field
          label="Purchase-order reference"
          name="po_reference"
          optional={!poRequired}
          required={poRequired}
          hint={sitePoRule(site) ?? (onAccount?.po_required ? "Your trade account needs one on orders paid on account." : undefined)}
          maxLength={50}
          value={po}
          onChange={(e) => setPo(e.target.value)}
          error={err("po_reference")}
        />
        <TextAreaField label="Notes for the order" name="notes" optional maxLength={1000} value={notes} onChange={(e) => setNotes(e.target.value)} error={err("notes")} />
      </fieldset>

      <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-stone-200 bg-stone-50 p-4">
        <p className="text-lg" aria-live="polite" data-testid="accept-total">
          {total === null ? (
            "Choose how it reaches you to see the total."
          ) : (
            <>
              Total to pay: <strong>{formatPounds(total)}</strong> inc VAT{chosen && chosen.price > 0 ? `, with ${formatPounds(chosen.price)} delivery` : ""}
            </>
          )}
        </p>
        <button type="submit" className="btn-primary disabled:cursor-not-allowed disabled:opacity-75" disabled={sending}>
          {sending ? "Placing your order…" : payment === "card" ? "Accept and pay by card" : "Accept and place order"}
        </button>
      </div>
    </Form>
  );
}

import { useEffect, useRef, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { appContext } from "#app-context";
import { AddressFields } from "../../components/checkout/address-fields.tsx";
import { DeliveryChoice, PaymentChoice, SiteChoice } from "../../components/checkout/choices.tsx";
import { PendingCardPayment } from "../../components/checkout/pending-card-payment.tsx";
import { SavedAddressPicker, checkoutAddress, matchingSaved, savedInOrder } from "../../components/checkout/saved-addresses.tsx";
import { Checkbox, EmailField, Field, FormAlert } from "../../components/form.tsx";
import { EmptyState, PageHeading } from "../../components/page.tsx";
import { TOTAL_ROW, TotalsList, type TotalsListRow } from "../../components/totals-list.tsx";
import { ApiError, fieldMessage } from "../../lib/api-client.ts";
import { refreshBasket, useBasket } from "../../lib/basket.ts";
import { type Address, type CardOrder, type ChangedTotals, type DeliveryOptions, EMPTY_ADDRESS, type PlacedOrder, newIdempotencyKey, siteAddress, sitePoRule } from "../../lib/basket-checkout.ts";
import { browserApi } from "../../lib/browser-api.ts";
import { useMyBranch } from "../../components/branches/branch-choice.tsx";
import { formatPounds } from "../../lib/money.ts";
import type { Address as SavedAddress } from "../../lib/account.ts";
import { pageMeta } from "../../lib/meta.ts";
import { notFound } from "../../lib/not-found.ts";
import { usePageUser } from "../../lib/use-session.ts";
import type { Route } from "./+types/index";

export async function loader({ context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  if (!app.config.basketEnabled) notFound();
  // The basket and the delivery prices are fetched in the browser. A signed-in
  // customer's address book comes with the page (never cached); a guest's page carries nothing.
  const addresses: SavedAddress[] = app.user ? await app.services.account.listAddresses(app.user.id) : [];
  // Where a click & collect order can be collected (issue 30): the branches that offer it, in the merchant's order.
  const collectAt = (await app.services.branches.list()).data.filter((b) => b.services.includes("collect")).map((b) => ({ id: b.id, slug: b.slug, name: b.name, open_label: b.open_label }));
  return { addresses, collectAt };
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Checkout");

const FAILED = "Failed to place your order. Please try again.";
/** Back from the card payment page without paying (payments/service.ts sends the browser here). */
const PAYMENT_NOT_COMPLETED = "The card payment was not completed, so your order was not placed. Nothing was charged and your basket is as it was: choose how to pay and try again.";

/** The saved address to start from: the default for this use, else the first. */
function startingAddress(addresses: SavedAddress[], use: "delivery" | "billing"): Address {
  const first = savedInOrder(addresses, use)[0];
  return first ? checkoutAddress(first) : EMPTY_ADDRESS;
}

export default function Checkout(props: Route.ComponentProps) {
  const addresses = props.loaderData.addresses;
  const user = usePageUser();
  const navigate = useNavigate();
  const { cart, error: fetchError } = useBasket(true);
  const key = useRef<string | null>(null);
  const [email, setEmail] = useState(user?.email ?? "");
  const [phone, setPhone] = useState(() => savedInOrder(addresses, "delivery")[0]?.phone ?? "");
  const [delivery, setDelivery] = useState<Address>(() => startingAddress(addresses, "delivery"));
  // Who the order is for (issue 34): the recipient of a delivery, else whoever collects it; the account holder to start with.
  const accountName = user ? `${user.firstname} ${user.lastname}`.trim() : "";
  const [recipient, setRecipient] = useState(() => {
    const saved = savedInOrder(addresses, "delivery")[0];
    return saved ? `${saved.firstname} ${saved.lastname}`.trim() : accountName;
  });
  const [company, setCompany] = useState("");
  const [collector, setCollector] = useState(accountName);
  const [billingSame, setBillingSame] = useState(true);
  const [billing, setBilling] = useState<Address>(() => startingAddress(addresses, "billing"));
  const [postcode, setPostcode] = useState(() => startingAddress(addresses, "delivery").postcode);
  const [saveAddress, setSaveAddress] = useState(false);
  const [options, setOptions] = useState<DeliveryOptions | null>(null);
  const [optionsError, setOptionsError] = useState<string | undefined>();
  const [method, setMethod] = useState("");
  const [payment, setPayment] = useState("");
  const [notes, setNotes] = useState("");
  const [po, setPo] = useState("");
  const [siteId, setSiteId] = useState<number | undefined>();
  const collectAt = props.loaderData.collectAt;
  // Collected from the branch chosen here, else the customer's own (known once the page runs in the browser), else the first.
  const myBranch = useMyBranch();
  const [pickedBranch, setBranchId] = useState<number | undefined>();
  const branchId = pickedBranch ?? collectAt.find((b) => b.slug === myBranch)?.id ?? collectAt[0]?.id;
  // When this basket is ready at each branch, from the delivery options.
  const choiceOf = (id: number | undefined) => options?.collect_at?.find((c) => c.id === id);
  const readiness = (id: number) => {
    const choice = choiceOf(id);
    if (!choice) return null;
    return choice.ready_label ? `ready ${choice.ready_label}` : "cannot supply your basket";
  };
  const chosenReady = choiceOf(branchId);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [params] = useSearchParams();
  const [message, setMessage] = useState<string | undefined>(() => (params.get("payment") === "cancelled" ? PAYMENT_NOT_COMPLETED : undefined));
  const [changed, setChanged] = useState<ChangedTotals | null>(null);
  const [placing, setPlacing] = useState(false);
  const alertRef = useRef<HTMLDivElement>(null);

  // Back from the payment page: the message is read out once the form is there.
  const formShown = cart !== null && cart.items.length > 0;
  const cameBack = message === PAYMENT_NOT_COMPLETED;
  useEffect(() => {
    if (cameBack && formShown) requestAnimationFrame(() => alertRef.current?.focus());
  }, [cameBack, formShown]);

  // Delivery methods and payment methods for this basket and postcode.
  useEffect(() => {
    const controller = new AbortController();
    browserApi()
      .get<{ data: DeliveryOptions }>("/api/checkout/delivery-options", { query: { postcode: postcode || undefined }, signal: controller.signal })
      .then((answer) => {
        setOptions(answer.data);
        setOptionsError(undefined);
        setMethod((m) => (answer.data.delivery.some((d) => d.id === m) ? m : ""));
        setPayment((p) => p || answer.data.payment[0]?.id || "");
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setOptionsError(error instanceof ApiError && error.status === 422 ? "Enter a full UK postcode to see the delivery options." : "Failed to load delivery options.");
      });
    return () => controller.abort();
  }, [postcode, cart?.total]);

  const err = (field: string) => fieldMessage(errors, field);

  if (!cart) {
    return (
      <>
        <PageHeading title="Checkout" />
        {fetchError ? (
          <p role="alert" className="rounded-md border-l-4 border-red-700 bg-red-50 px-4 py-3 font-semibold text-red-800">
            {fetchError}
          </p>
        ) : (
          <p role="status">Loading your basket…</p>
        )}
      </>
    );
  }
  if (cart.items.length === 0) {
    return (
      <>
        <PageHeading title="Checkout" />
        <PendingCardPayment />
        <EmptyState title="There is nothing to check out." action={{ to: "/category", label: "Continue shopping" }}>
          Your basket is empty. Add products to your basket, then come back here to pay.
        </EmptyState>
      </>
    );
  }

  const chosen = options?.delivery.find((d) => d.id === method);
  // Click & collect needs no delivery address; the billing address is then asked for in full.
  const collecting = chosen?.kind === "collect";
  const total = Math.round((cart.total + (chosen?.price ?? 0)) * 100) / 100;
  const onAccount = options?.payment.find((p) => p.id === "pay_on_account");
  // On account, a company that keeps sites names the one the order is for.
  const sites = payment === "pay_on_account" ? (onAccount?.sites ?? []) : [];
  const site = sites.find((s) => s.id === siteId);
  // The account, or the site, says whether orders on account need a purchase-order reference.
  const poRequired = payment === "pay_on_account" && (!!onAccount?.po_required || !!site?.po_required || !!site?.po_prefix);

  async function place(confirmedTotal?: number) {
    setPlacing(true);
    setMessage(undefined);
    setErrors({});
    key.current ??= newIdempotencyKey();
    const body = {
      email,
      phone,
      delivery_method: method,
      delivery_address: collecting ? undefined : { ...delivery, name: recipient, company },
      collector_name: collecting ? collector : undefined,
      billing_address: collecting || !billingSame ? billing : undefined,
      payment_method: payment,
      branch_id: collecting ? branchId : undefined,
      site_id: site?.id,
      notes,
      po_reference: po,
      expected_total: confirmedTotal ?? total,
    };
    try {
      const answer = await browserApi().post<PlacedOrder | CardOrder>("/api/checkout", body, { headers: { "Idempotency-Key": key.current } });
      // By card, the browser goes on to the payment page; the basket comes back if the payment does not go through.
      if ("payment" in answer) {
        window.location.assign(answer.payment.redirect_url);
        return;
      }
      const placed = answer;
      void refreshBasket();
      if (user && saveAddress && !matchingSaved(addresses, delivery)) {
        // The order stands whatever happens here: a refused address is simply not kept.
        await browserApi()
          .post("/api/account/addresses", {
            firstname: user.firstname,
            lastname: user.lastname,
            line1: delivery.line_1,
            line2: [delivery.line_2, delivery.line_3].filter(Boolean).join(", "),
            town: delivery.town,
            county: delivery.county,
            postcode: delivery.postcode,
            phone,
            is_default_delivery: addresses.length === 0,
          })
          .catch(() => undefined);
      }
      await navigate(placed.redirect);
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        const totals = (error.body as { totals?: ChangedTotals } | undefined)?.totals ?? null;
        setChanged(totals);
        setMessage(error.message);
        void refreshBasket();
      } else if (error instanceof ApiError && error.status === 422) {
        const flat: Record<string, string[]> = {};
        for (const [field, list] of Object.entries(error.errors)) flat[field.replace(/^(delivery_address|billing_address)\./, (_m, p: string) => (p === "billing_address" ? "billing." : ""))] = list;
        setErrors(flat);
        setMessage(error.errors.basket?.join(" ") ?? error.message ?? "Please check the form.");
      } else {
        setMessage(error instanceof ApiError && error.status < 500 && error.message ? error.message : FAILED);
      }
      requestAnimationFrame(() => alertRef.current?.focus());
    } finally {
      setPlacing(false);
    }
  }

  return (
    <>
      <PageHeading title="Checkout" intro={user ? `Signed in as ${user.email}.` : <>Checking out as a guest. <Link to="/auth/login?redirect=/checkout" className="link">Sign in</Link> to use your saved details.</>} />
      <PendingCardPayment />
      <form
        className="grid gap-8 lg:grid-cols-[1fr_22rem]"
        onSubmit={(e) => {
          e.preventDefault();
          void place();
        }}
      >
        <div className="grid content-start gap-6">
          <FormAlert ref={alertRef} message={message} />
          {changed ? (
            <div className="rounded-lg border-2 border-amber-600 bg-amber-50 p-4" data-testid="changed-totals">
              <p className="font-semibold">The new totals</p>
              <dl className="mt-2 grid gap-1">
                {(
                  [
                    ["Subtotal (ex VAT)", changed.subtotal],
                    ["VAT", changed.vat],
                    ["Delivery", changed.delivery],
                    ["Total", changed.total],
                  ] as const
                ).map(([label, value]) => (
                  <div key={label} className="flex justify-between">
                    <dt>{label}</dt>
                    <dd>{formatPounds(value)}</dd>
                  </div>
                ))}
              </dl>
              <button type="button" className="btn-primary mt-3" disabled={placing} onClick={() => void place(changed.total)}>
                Confirm and place order for {formatPounds(changed.total)}
              </button>
            </div>
          ) : null}

          <fieldset className="grid gap-4 rounded-lg border border-stone-200 bg-white p-5 shadow-sm">
            <legend className="px-1 text-lg font-semibold">Your details</legend>
            <div className="grid gap-4 sm:grid-cols-2">
              <EmailField value={email} onChange={(e) => setEmail(e.target.value)} error={err("email")} />
              <Field label="Phone" name="phone" type="tel" autoComplete="tel" optional value={phone} onChange={(e) => setPhone(e.target.value)} error={err("phone")} />
            </div>
          </fieldset>

          <fieldset className="grid gap-4 rounded-lg border border-stone-200 bg-white p-5 shadow-sm" data-testid="delivery-address">
            <legend className="px-1 text-lg font-semibold">Delivery address</legend>
            {collecting ? (
              <p className="text-stone-700">You collect this order from our branch, so no delivery address is needed.</p>
            ) : null}
            {collecting ? null : addresses.length ? (
              <SavedAddressPicker
                addresses={addresses}
                use="delivery"
                value={delivery}
                onChoose={(a) => {
                  setDelivery(checkoutAddress(a));
                  setRecipient(`${a.firstname} ${a.lastname}`.trim());
                  setPostcode(a.postcode);
                  if (!phone && a.phone) setPhone(a.phone);
                }}
                onNew={() => setDelivery(EMPTY_ADDRESS)}
              />
            ) : null}
            {collecting ? null : (
              <div className="grid gap-4 sm:grid-cols-2">
                <Field label="Full name" hint="The person the courier asks for." name="delivery_name" autoComplete="shipping name" required value={recipient} onChange={(e) => setRecipient(e.target.value)} error={err("name")} />
                <Field label="Company" name="delivery_company" autoComplete="shipping organization" optional value={company} onChange={(e) => setCompany(e.target.value)} error={err("company")} />
              </div>
            )}
            {collecting ? null : (
              <AddressFields prefix="delivery" value={delivery} onChange={setDelivery} errors={(f) => err(f)} onPostcodeSettled={(p) => setPostcode(p.trim().toUpperCase())} />
            )}
            {!collecting && user && !matchingSaved(addresses, delivery) ? (
              <Checkbox label="Save this address to my address book" name="save_address" checked={saveAddress} onChange={(e) => setSaveAddress(e.target.checked)} />
            ) : null}
          </fieldset>

          <fieldset className="grid gap-3 rounded-lg border border-stone-200 bg-white p-5 shadow-sm">
            <legend className="px-1 text-lg font-semibold">Delivery method</legend>
            {err("delivery_method") ? <p className="text-sm font-semibold text-red-700">{err("delivery_method")}</p> : null}
            {optionsError ? <p className="text-sm font-semibold text-red-700">{optionsError}</p> : null}
            {options?.zone && !options.zone.served ? <p className="font-semibold text-red-800">We do not deliver to {options.zone.name}. Click &amp; collect is still open to you.</p> : null}
            {!postcode ? <p className="text-sm text-stone-600">Prices for your postcode appear once you enter it.</p> : null}
            {options?.delivery.map((d) => (
              <DeliveryChoice
                key={d.id}
                option={d}
                checked={method === d.id}
                note={[d.description, ...d.notes].filter(Boolean).join(" ")}
                onChoose={() => {
                  setMethod(d.id);
                  // Collecting: the billing address starts from the address typed for delivery.
                  if (d.kind === "collect" && billingSame) setBilling(delivery);
                  // Paying on collection is only for click & collect.
                  if (d.kind !== "collect" && payment === "pay_on_collection") setPayment("bank_transfer");
                }}
              />
            ))}
            {collecting && chosenReady ? (
              <p className="text-sm text-stone-800" aria-live="polite" data-testid="collect-ready">
                {chosenReady.ready_label ? (
                  <>
                    Ready to collect <span className="font-semibold">{chosenReady.ready_label}</span>
                    {chosenReady.by_transfer ? ": we bring part of it from another branch first." : "."} We email you when it is ready.
                  </>
                ) : (
                  "This branch cannot supply your whole basket. Choose another branch, or delivery."
                )}
              </p>
            ) : null}
            {collecting ? (
              <Field label="Name of the person collecting" hint="We ask for this name at the counter." name="collector_name" autoComplete="name" required value={collector} onChange={(e) => setCollector(e.target.value)} error={err("collector_name")} />
            ) : null}
            {collecting && collectAt.length > 1 ? (
              <label className="grid gap-1 font-semibold">
                Collect from
                <select
                  name="branch_id"
                  value={branchId ?? ""}
                  onChange={(e) => setBranchId(Number(e.target.value))}
                  aria-invalid={err("branch_id") ? true : undefined}
                  aria-describedby={err("branch_id") ? "branch-error" : undefined}
                  // A long "York, Foss Islands (Thursday from 08:00)" never widens the page on a phone.
                  className="min-h-11 w-full min-w-0 truncate rounded-md border border-stone-400 bg-white px-3 font-normal"
                >
                  {collectAt.map((b) => (
                    <option key={b.id} value={b.id}>
                      {b.name} ({readiness(b.id) ?? b.open_label})
                    </option>
                  ))}
                </select>
                {err("branch_id") ? (
                  <span id="branch-error" className="text-sm font-semibold text-red-700">
                    {err("branch_id")}
                  </span>
                ) : null}
              </label>
            ) : null}
          </fieldset>

          <fieldset className="grid gap-3 rounded-lg border border-stone-200 bg-white p-5 shadow-sm">
            <legend className="px-1 text-lg font-semibold">Billing address</legend>
            {collecting ? null : (
              <label className="flex min-h-11 items-center gap-3">
                <input type="checkbox" checked={billingSame} onChange={(e) => setBillingSame(e.target.checked)} className="size-5 accent-brand-700" />
                <span>Same as the delivery address</span>
              </label>
            )}
            {(collecting || !billingSame) && addresses.length ? (
              <SavedAddressPicker addresses={addresses} use="billing" value={billing} onChoose={(a) => setBilling(checkoutAddress(a))} onNew={() => setBilling(EMPTY_ADDRESS)} />
            ) : null}
            {collecting || !billingSame ? <AddressFields prefix="billing" value={billing} onChange={setBilling} errors={(f) => err(`billing.${f}`)} /> : null}
          </fieldset>

          <fieldset className="grid gap-3 rounded-lg border border-stone-200 bg-white p-5 shadow-sm">
            <legend className="px-1 text-lg font-semibold">Payment</legend>
            {err("payment_method") ? <p className="text-sm font-semibold text-red-700">{err("payment_method")}</p> : null}
            {options?.payment.filter((p) => p.id !== "pay_on_collection" || chosen?.kind === "collect").map((p) => (
              <PaymentChoice key={p.id} option={p} checked={payment === p.id} onChoose={() => setPayment(p.id)} total={total} />
            ))}
            {sites.length ? (
              <SiteChoice
                sites={sites}
                value={siteId}
                error={err("site_id")}
                onChoose={(s) => {
                  setSiteId(s.id);
                  // Delivered to the site: its address becomes the delivery address, still editable above.
                  if (!collecting) {
                    setDelivery(siteAddress(s));
                    setPostcode(s.postcode);
                  }
                }}
              />
            ) : null}
          </fieldset>

          <fieldset className="grid gap-4 rounded-lg border border-stone-200 bg-white p-5 shadow-sm">
            <legend className="px-1 text-lg font-semibold">Anything else</legend>
            <Field
              label="Purchase-order reference"
              name="po_reference"
              optional={!poRequired}
              required={poRequired}
              hint={poRequired ? (sitePoRule(site) ?? "Your trade account requires a purchase-order reference on orders on account.") : undefined}
              maxLength={50}
              value={po}
              onChange={(e) => setPo(e.target.value)}
              error={err("po_reference")}
            />
            <div className="grid gap-1.5">
              <label htmlFor="checkout-notes" className="font-semibold">
                Notes <span className="font-normal text-stone-600">(optional)</span>
              </label>
              {err("notes") ? <p className="text-sm font-semibold text-red-700">{err("notes")}</p> : null}
              <textarea
                id="checkout-notes"
                name="notes"
                rows={3}
                maxLength={1000}
                value={notes}
                onChange={(e) => setNotes(e.target.value)}
                className="w-full rounded-md border border-stone-400 bg-white px-3 py-2 text-base focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-500"
              />
            </div>
          </fieldset>
        </div>

        <aside aria-labelledby="summary-heading" className="h-fit self-start rounded-lg border border-stone-200 bg-white p-5 shadow-sm lg:sticky lg:top-4">
          <h2 id="summary-heading" className="text-lg font-semibold">
            Order summary
          </h2>
          <ul className="mt-3 grid gap-2 text-sm">
            {cart.items.map((i) => (
              <li key={i.cart_item_id} className="flex justify-between gap-3">
                <span>
                  {i.quantity} × {i.name}
                </span>
                <span>{formatPounds(i.line_total)}</span>
              </li>
            ))}
          </ul>
          <TotalsList
            className="mt-3 grid gap-1.5 border-t border-stone-200 pt-3"
            testId="checkout-totals"
            rows={[
              ["Subtotal (ex VAT)", formatPounds(cart.subtotal)],
              ...cart.discounts.map((d): TotalsListRow => [d.code ? `${d.description} (${d.code})` : d.description, formatPounds(-d.amount), "text-green-800"]),
              ["VAT", formatPounds(cart.taxes)],
              ["Delivery", chosen ? (chosen.price === 0 ? "Free" : formatPounds(chosen.price)) : "Choose a method"],
              ["Total", formatPounds(total), TOTAL_ROW],
            ]}
          />
          <button type="submit" className="btn-primary mt-5 w-full disabled:opacity-75" disabled={placing}>
            {placing ? "Placing your order…" : payment === "card" ? "Continue to payment" : "Place order"}
          </button>
          <Link to="/basket" className="btn-secondary mt-3 w-full">
            Back to basket
          </Link>
        </aside>
      </form>
    </>
  );
}

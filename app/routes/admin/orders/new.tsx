// Taking an order for a phone or walk-in customer (issue 34): find the
// customer or take a walk-in's name, add lines by name, SKU or barcode with
// the stock at each branch shown as the member types, lower a price with a
// reason, delivery or collection, how it is paid; place it or save a draft.
// Without the page's script the form still posts: walk-in fields, SKUs typed.
import { type ComponentProps, type ReactNode, useEffect, useRef, useState } from "react";
import { Form, data, redirect, useNavigation } from "react-router";
import { FieldError } from "../../../components/admin/field-error.tsx";
import { ADMIN_CONTROL, FormField, fieldProps } from "../../../components/admin/form-field.tsx";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { ResultBanner } from "../../../components/admin/result-banner.tsx";
import { DataTable } from "../../../components/admin/table-or-cards.tsx";
import { notFoundOr, serviceError } from "../../../lib/admin/access.ts";
import { counterBodyOf } from "../../../lib/admin/counter-order.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { formatPounds } from "../../../lib/money.ts";
import { parseInput } from "../../../../server/http-errors.ts";
import { COUNTER_PAYMENTS, COUNTER_PAYMENT_LABELS, counterOrderBody } from "../../../../server/modules/orders/counter/contract.ts";
import type { CounterCustomer, CounterProduct } from "../../../../server/modules/orders/counter/lookup.ts";
import { PRICE_CHANGE_LIMITS } from "../../../../server/modules/staff/permissions.ts";
import type { Route } from "./+types/new";
import { Options } from "../../../components/admin/options.tsx";
import { staffScreen, staffPost } from "../../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "New order");

export async function loader({ context, request }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "orders.create");
  const url = new URL(request.url);
  const draftId = Number(url.searchParams.get("draft"));
  const draft = Number.isSafeInteger(draftId) && draftId > 0 && draftId <= 2_147_483_647 ? await app.services.orderDrafts.get(actor, draftId).catch(notFoundOr) : null;
  const customerId = Number(url.searchParams.get("customer_id") ?? draft?.customer_id);
  const customer = Number.isSafeInteger(customerId) && customerId > 0 && customerId <= 2_147_483_647 ? await app.services.counterLookup.customer(actor, customerId) : null;
  const offered = await app.services.delivery.options({ goodsTotal: 0, hasHeavy: false, postcode: null });
  const branches = (await app.services.branches.list()).data.map((b) => ({ id: b.id, name: b.name }));
  return {
    customer,
    draft: draft ? { id: draft.id, payload: draft.payload } : null,
    deliveries: offered.delivery.filter((d) => d.kind !== "collect").map((d) => ({ id: d.id, name: d.name })),
    branches,
    limit: PRICE_CHANGE_LIMITS[actor.role],
  };
}

type Answer = { ok: false; message: string; errors: Record<string, string[]>; values: Record<string, unknown> };

export async function action({ context, request }: Route.ActionArgs) {
  const { app, actor, form } = await staffPost(context, request, "orders.create");
  const body = counterBodyOf(form);
  const intent = String(form.get("intent") ?? "");
  try {
    if (intent === "draft") {
      const { draft_id: draftId, customer_label: label, ...payload } = body;
      const saved = await app.services.orderDrafts.save(actor, { label: String(label ?? "").slice(0, 100), payload }, typeof draftId === "number" ? draftId : undefined);
      return redirect(`/admin/orders/drafts?saved=${saved.id}`);
    }
    const placed = await app.services.counterOrders.place(actor, parseInput(counterOrderBody, body));
    return redirect(`/admin/orders/${placed.number}?placed=1`);
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    return data<Answer>({ ok: false, message: known.message, errors: known.errors ?? {}, values: body }, { status: known.status });
  }
}

interface LineState {
  key: number;
  sku: string;
  name: string;
  quantity: string;
  price: string;
  reason: string;
  listPrice: number | null;
  stock: CounterProduct["stock"] | null;
}

const P = "new-order";
const BOX = "grid gap-4 rounded-lg border border-stone-200 bg-white p-4";
const LEGEND = "text-lg font-semibold";

/** Asks the API as the member types, a moment after they stop; the newest answer wins. */
function useLookup<T>(path: string, q: string): { results: T[]; state: "idle" | "searching" | "done" | "failed" } {
  const [answer, setAnswer] = useState<{ results: T[]; state: "idle" | "searching" | "done" | "failed" }>({ results: [], state: "idle" });
  useEffect(() => {
    if (q.trim().length < 2) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setAnswer((a) => ({ ...a, state: "searching" }));
      fetch(`${path}?q=${encodeURIComponent(q.trim())}`, { signal: controller.signal, headers: { accept: "application/json" } })
        .then((res) => (res.ok ? (res.json() as Promise<{ data: T[] }>) : Promise.reject(new Error(String(res.status)))))
        .then((found) => setAnswer({ results: found.data, state: "done" }))
        .catch((err: unknown) => {
          if ((err as Error).name !== "AbortError") setAnswer({ results: [], state: "failed" });
        });
    }, 200);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [path, q]);
  // Under two characters nothing is asked, and what an older search found is not shown.
  return q.trim().length < 2 ? { results: [], state: "idle" } : answer;
}

/** A search box with its hint, and under it what the lookup behind it found, read out as it changes. */
function LookupBox({ id, label, hint, found, none, ...input }: { id: string; label: string; hint: string; found: { results: unknown[]; state: "idle" | "searching" | "done" | "failed" }; none: string } & ComponentProps<"input">) {
  return (
    <>
      <div className="grid gap-1 text-sm">
        <label htmlFor={id} className="font-semibold">
          {label}
        </label>
        <span id={`${id}-hint`} className="text-stone-600">
          {hint}
        </span>
        <input id={id} type="search" aria-describedby={`${id}-hint`} autoComplete="off" className={ADMIN_CONTROL} {...input} />
      </div>
      <p role="status" className="text-sm text-stone-700">
        {found.state === "searching" ? "Searching…" : found.state === "failed" ? "The search failed: try again." : found.state === "done" ? (found.results.length ? `${found.results.length} found.` : none) : ""}
      </p>
    </>
  );
}

const str = (v: unknown) => (typeof v === "string" || typeof v === "number" ? String(v) : "");
const rec = (v: unknown): Record<string, unknown> => (v && typeof v === "object" ? (v as Record<string, unknown>) : {});

export default function NewOrder({ loaderData, actionData }: Route.ComponentProps) {
  const { deliveries, branches, limit } = loaderData;
  const busy = useNavigation().state === "submitting";
  const refused = actionData as Answer | undefined;
  const errors = refused?.errors;
  // What the form starts with: the refused post, else the draft, else nothing.
  const start = refused?.values ?? loaderData.draft?.payload ?? {};
  const walk = rec(start.customer);
  const address = rec(start.delivery_address);
  const startLines = (Array.isArray(start.lines) ? start.lines : []).map(rec);
  const nextKey = useRef(startLines.length + 1);
  const [customer, setCustomer] = useState<CounterCustomer | null>(loaderData.customer);
  const [walkIn, setWalkIn] = useState({ name: str(walk.name), email: str(walk.email), phone: str(walk.phone) });
  const [customerQ, setCustomerQ] = useState("");
  const [productQ, setProductQ] = useState("");
  const [lines, setLines] = useState<LineState[]>(
    startLines.length
      ? startLines.map((l, i) => ({ key: i + 1, sku: str(l.sku), name: "", quantity: str(l.quantity) || "1", price: str(l.unit_price_ex_vat), reason: str(l.reason), listPrice: null, stock: null }))
      : [{ key: 0, sku: "", name: "", quantity: "1", price: "", reason: "", listPrice: null, stock: null }],
  );
  const [fulfilment, setFulfilment] = useState<"collection" | "delivery">(start.delivery_method && start.delivery_method !== "collect" ? "delivery" : "collection");
  const [payment, setPayment] = useState(str(start.payment));
  const customers = useLookup<CounterCustomer>("/api/admin/orders/lookup/customers", customerQ);
  const products = useLookup<CounterProduct>("/api/admin/orders/lookup/products", productQ);
  const productInput = useRef<HTMLInputElement>(null);

  const add = (p: CounterProduct) => {
    setLines((now) => {
      const blank = now.filter((l) => l.sku !== "");
      const same = blank.find((l) => l.sku.toUpperCase() === p.sku.toUpperCase());
      if (same) return blank.map((l) => (l === same ? { ...l, quantity: String((Number(l.quantity) || 0) + 1) } : l));
      return [...blank, { key: nextKey.current++, sku: p.sku, name: p.name, quantity: "1", price: "", reason: "", listPrice: p.price_ex_vat, stock: p.stock }];
    });
    setProductQ("");
    productInput.current?.focus();
  };
  const change = (key: number, patch: Partial<LineState>) => setLines((now) => now.map((l) => (l.key === key ? { ...l, ...patch } : l)));
  const lineErrors = (i: number, field: string) => errors?.[`lines.${i}.${field}`];
  /** A line's box with its refusal under it. */
  const withError = (i: number, field: string, input: ReactNode) => (
    <span className="grid gap-1">
      {input}
      <FieldError messages={lineErrors(i, field)} />
    </span>
  );
  const summary = errors ? Object.values(errors).flat() : [];
  const label = customer ? `${customer.name}${customer.company ? ` (${customer.company})` : ""}` : walkIn.name;
  const field = (id: string, hint = false) => fieldProps(P, id, errors, hint);
  const onAccountOk = customer?.kind === "trade";

  return (
    <>
      <PageHeader
        crumbs={[{ label: "Orders", to: "/admin/orders" }, { label: "New order" }]}
        title={loaderData.draft ? "Finish a draft order" : "New order"}
        intro="An order for a phone or walk-in customer, at their own prices (a trade member's trade price). It takes the stock and follows the orders desk like any other."
        actions={
          <a href="/admin/orders/drafts" className="btn-secondary">
            Drafts
          </a>
        }
      />
      {refused ? (
        <ResultBanner ok={false} result={refused}>
          <p>{summary.length ? "The order was not placed:" : refused.message}</p>
          {summary.length ? (
            <ul className="mt-1 list-disc pl-5 font-normal">
              {summary.map((m, i) => (
                <li key={i}>{m}</li>
              ))}
            </ul>
          ) : null}
        </ResultBanner>
      ) : null}
      <Form method="post" noValidate className="grid max-w-5xl gap-4" aria-label="New order">
        {loaderData.draft ? <input type="hidden" name="draft_id" value={loaderData.draft.id} /> : null}
        <input type="hidden" name="customer_label" value={label} />

        <fieldset className={BOX}>
          <legend className={LEGEND}>Customer</legend>
          {customer ? (
            <div className="flex flex-wrap items-center justify-between gap-2 rounded-md bg-stone-50 p-3" data-testid="chosen-customer">
              <input type="hidden" name="customer_id" value={customer.customer_id ?? ""} />
              <div>
                <p className="font-semibold">
                  {customer.name} {customer.company ? <span className="font-normal">· {customer.company}</span> : null}
                </p>
                <p className="text-sm text-stone-700 [overflow-wrap:anywhere]">
                  {customer.kind === "trade" ? "Trade account" : "Registered customer"} · {customer.email}
                  {customer.phone ? ` · ${customer.phone}` : ""}
                  {customer.available_credit !== null ? ` · Credit available ${formatPounds(customer.available_credit)}` : ""}
                </p>
              </div>
              <button type="button" className="btn-secondary" onClick={() => setCustomer(null)}>
                Change customer
              </button>
            </div>
          ) : (
            <>
              <LookupBox id={`${P}-find-customer`} label="Find a customer" hint="By name, email, phone, postcode or company: accounts, trade members and guests who have bought before." found={customers} none="No customer found: take a walk-in's details below." value={customerQ} onChange={(e) => setCustomerQ(e.target.value)} />
              {customers.results.length ? (
                <ul className="grid gap-2" aria-label="Customers found">
                  {customers.results.map((c, i) => (
                    <li key={`${c.kind}-${c.customer_id ?? c.email}-${i}`}>
                      <button
                        type="button"
                        className="w-full rounded-md border border-stone-300 p-2 text-left hover:bg-stone-50 focus-visible:outline-2"
                        onClick={() => {
                          if (c.customer_id !== null) setCustomer(c);
                          else setWalkIn({ name: c.name, email: c.email, phone: c.phone });
                          setCustomerQ("");
                        }}
                      >
                        <span className="font-semibold">{c.name || c.email}</span> <span className="text-sm">({c.kind === "guest" ? "guest buyer" : c.kind === "trade" ? `trade: ${c.company ?? ""}` : "registered"})</span>
                        <span className="block text-sm text-stone-700 [overflow-wrap:anywhere]">
                          {[c.email, c.phone, c.postcode].filter(Boolean).join(" · ")}
                        </span>
                      </button>
                    </li>
                  ))}
                </ul>
              ) : null}
              <FieldError messages={errors?.customer ?? errors?.customer_id} />
              <div className="grid gap-3 sm:grid-cols-3">
                <FormField prefix={P} id="walkin_name" label="Walk-in's name" errors={errors ? { walkin_name: errors["customer.name"] ?? [] } : undefined}>
                  <input {...field("walkin_name")} value={walkIn.name} onChange={(e) => setWalkIn({ ...walkIn, name: e.target.value })} autoComplete="off" className={ADMIN_CONTROL} />
                </FormField>
                <FormField prefix={P} id="walkin_phone" label="Phone (optional)" errors={errors ? { walkin_phone: errors["customer.phone"] ?? [] } : undefined}>
                  <input {...field("walkin_phone")} type="tel" value={walkIn.phone} onChange={(e) => setWalkIn({ ...walkIn, phone: e.target.value })} autoComplete="off" className={ADMIN_CONTROL} />
                </FormField>
                <FormField prefix={P} id="walkin_email" label="Email (optional)" errors={errors ? { walkin_email: errors["customer.email"] ?? [] } : undefined}>
                  <input {...field("walkin_email")} type="email" value={walkIn.email} onChange={(e) => setWalkIn({ ...walkIn, email: e.target.value })} autoComplete="off" spellCheck={false} className={ADMIN_CONTROL} />
                </FormField>
              </div>
            </>
          )}
        </fieldset>

        <fieldset className={BOX}>
          <legend className={LEGEND}>Lines</legend>
          <LookupBox
            ref={productInput}
            id={`${P}-find-product`}
            label="Add a product"
            hint="Type a name or SKU, or scan a barcode and press Enter."
            found={products}
            none="No product found."
            value={productQ}
            onChange={(e) => setProductQ(e.target.value)}
            onKeyDown={(e) => {
              // A scanner types the barcode then Enter: the exact match is added, the form not sent.
              if (e.key !== "Enter") return;
              e.preventDefault();
              const exact = products.results.find((p) => p.sku.toUpperCase() === productQ.trim().toUpperCase() || p.barcode === productQ.trim());
              if (exact) add(exact);
            }}
          />
          {products.results.length ? (
            <ul className="grid gap-2" aria-label="Products found">
              {products.results.map((p) => (
                <li key={p.sku}>
                  <button type="button" className="grid w-full gap-0.5 rounded-md border border-stone-300 p-2 text-left hover:bg-stone-50 sm:grid-cols-[1fr_auto]" onClick={() => add(p)}>
                    <span>
                      <span className="font-semibold">{p.name}</span> <span className="font-mono text-sm">{p.sku}</span>
                    </span>
                    <span className="text-sm">
                      {formatPounds(p.price_ex_vat)} ex VAT · {p.total_stock} in stock{p.stock.length > 1 ? ` (${p.stock.map((s) => `${s.branch} ${s.stock}`).join(", ")})` : ""}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
          <FieldError messages={[...(errors?.lines ?? []), ...(errors?.items ?? [])]} />
          <DataTable
            caption="Order lines"
            rows={lines}
            rowKey={(l) => l.key}
            rowProps={() => ({ "data-testid": "order-line" })}
            columns={[
              {
                label: "SKU",
                cell: (l, i) => (
                  <span className="grid gap-1">
                    <input id={`${P}-sku-${l.key}`} name="line_sku" value={l.sku} onChange={(e) => change(l.key, { sku: e.target.value, name: "", stock: null, listPrice: null })} aria-label={`SKU, line ${i + 1}`} aria-invalid={lineErrors(i, "sku") ? true : undefined} autoComplete="off" spellCheck={false} className={`${ADMIN_CONTROL} font-mono`} />
                    {l.name ? <span className="[overflow-wrap:anywhere]">{l.name}</span> : null}
                    {l.stock ? <span className="text-stone-700">Stock: {l.stock.map((s) => `${s.branch} ${s.stock}`).join(", ") || "none"}</span> : null}
                    <FieldError messages={lineErrors(i, "sku")} />
                  </span>
                ),
              },
              {
                label: "Quantity",
                className: "lg:w-24",
                cell: (l, i) => withError(i, "quantity", <input id={`${P}-qty-${l.key}`} name="line_quantity" value={l.quantity} onChange={(e) => change(l.key, { quantity: e.target.value })} inputMode="numeric" aria-label={`Quantity, line ${i + 1}`} aria-invalid={lineErrors(i, "quantity") ? true : undefined} autoComplete="off" className={ADMIN_CONTROL} />),
              },
              {
                label: "Price £ ex VAT",
                className: "lg:w-32",
                cell: (l, i) => withError(i, "unit_price_ex_vat", <input id={`${P}-price-${l.key}`} name="line_price" value={l.price} onChange={(e) => change(l.key, { price: e.target.value })} placeholder={l.listPrice !== null ? l.listPrice.toFixed(2) : ""} inputMode="decimal" aria-label={`Price £ ex VAT, line ${i + 1}`} aria-describedby={`${P}-price-hint`} aria-invalid={lineErrors(i, "unit_price_ex_vat") ? true : undefined} autoComplete="off" className={ADMIN_CONTROL} />),
              },
              {
                label: "Reason for a lower price",
                cell: (l, i) => withError(i, "reason", <input id={`${P}-reason-${l.key}`} name="line_reason" value={l.reason} onChange={(e) => change(l.key, { reason: e.target.value })} maxLength={200} aria-label={`Reason for a lower price, line ${i + 1}`} aria-invalid={lineErrors(i, "reason") ? true : undefined} autoComplete="off" className={ADMIN_CONTROL} />),
              },
              {
                label: "Remove",
                header: <span className="sr-only">Remove</span>,
                cell: (l, i) => (
                  <button type="button" className="btn-secondary" onClick={() => setLines((now) => (now.length > 1 ? now.filter((x) => x.key !== l.key) : [{ ...l, sku: "", name: "", quantity: "1", price: "", reason: "", stock: null, listPrice: null }]))} aria-label={`Remove line ${i + 1}`}>
                    Remove
                  </button>
                ),
              },
            ]}
          />
          <p id={`${P}-price-hint`} className="text-sm text-stone-600">
            Leave the price blank for the customer's own price. {limit === null ? "Your role may lower a price by any amount, with a reason." : limit === 0 ? "Your role may not lower prices." : `Your role may take up to ${limit}% off, with a reason.`}
          </p>
          <div>
            <button type="button" className="btn-secondary" onClick={() => setLines((now) => [...now, { key: nextKey.current++, sku: "", name: "", quantity: "1", price: "", reason: "", listPrice: null, stock: null }])}>
              Add a line by SKU
            </button>
          </div>
        </fieldset>

        <fieldset className={BOX}>
          <legend className={LEGEND}>Delivery or collection</legend>
          <div className="flex flex-wrap gap-4">
            {(["collection", "delivery"] as const).map((f) => (
              <label key={f} className="flex min-h-10 items-center gap-2">
                <input type="radio" name="fulfilment" value={f} checked={fulfilment === f} onChange={() => setFulfilment(f)} />
                {f === "collection" ? "Collection from a branch" : "Delivery"}
              </label>
            ))}
          </div>
          {fulfilment === "collection" ? (
            <FormField prefix={P} id="branch_id" label="Branch" errors={errors} className="max-w-sm">
              <select {...field("branch_id")} defaultValue={str(start.branch_id)} className={ADMIN_CONTROL}>
                <Options of={branches} value={(b) => b.id} label={(b) => b.name} />
              </select>
            </FormField>
          ) : (
            <div className="grid gap-3 sm:grid-cols-2">
              <FormField prefix={P} id="delivery_method" label="Delivery method" errors={errors}>
                <select {...field("delivery_method")} defaultValue={str(start.delivery_method)} className={ADMIN_CONTROL}>
                  <Options of={deliveries} value={(d) => d.id} label={(d) => d.name} />
                </select>
              </FormField>
              {(
                [
                  ["addr_name", "name", "Recipient's name", "name"],
                  ["addr_company", "company", "Company (optional)", "organization"],
                  ["addr_line_1", "line_1", "Address line 1", "address-line1"],
                  ["addr_line_2", "line_2", "Address line 2 (optional)", "address-line2"],
                  ["addr_town", "town", "Town or city", "address-level2"],
                  ["addr_postcode", "postcode", "Postcode", "postal-code"],
                ] as const
              ).map(([id, key, text, auto]) => (
                <FormField key={id} prefix={P} id={id} label={text} errors={errors ? { [id]: errors[`delivery_address.${key}`] ?? (key === "line_1" ? (errors.delivery_address ?? []) : []) } : undefined}>
                  <input {...field(id)} defaultValue={str(address[key])} autoComplete={`section-delivery ${auto}`} className={ADMIN_CONTROL} />
                </FormField>
              ))}
            </div>
          )}
        </fieldset>

        <fieldset className={BOX}>
          <legend className={LEGEND}>Payment</legend>
          <FieldError messages={[...(errors?.payment ?? []), ...(errors?.payment_method ?? [])]} />
          <div className="grid gap-2">
            {COUNTER_PAYMENTS.map((p) => (
              <label key={p} className="flex min-h-10 items-center gap-2">
                <input type="radio" name="payment" value={p} checked={payment === p} onChange={() => setPayment(p)} />
                {COUNTER_PAYMENT_LABELS[p]}
                {p === "on_account" && customer && !onAccountOk ? <span className="text-sm text-stone-600">(not a trade account)</span> : null}
              </label>
            ))}
          </div>
          <div className="grid gap-3 sm:grid-cols-2">
            {payment === "on_account" && customer?.sites.length ? (
              <FormField prefix={P} id="site_id" label="Site it is for" errors={errors}>
                <select {...field("site_id")} defaultValue={str(start.site_id)} className={ADMIN_CONTROL}>
                  <option value="">Choose a site</option>
                  <Options of={customer.sites} value={(site) => site.id} label={(site) => site.name} />
                </select>
              </FormField>
            ) : null}
            {payment === "paid_at_counter" ? (
              <FormField prefix={P} id="payment_reference" label="Terminal or receipt reference" errors={errors}>
                <input {...field("payment_reference")} defaultValue={str(start.payment_reference)} autoComplete="off" className={ADMIN_CONTROL} />
              </FormField>
            ) : null}
            <FormField prefix={P} id="po_reference" label="Customer's PO reference (optional)" errors={errors}>
              <input {...field("po_reference")} defaultValue={str(start.po_reference)} autoComplete="off" className={ADMIN_CONTROL} />
            </FormField>
          </div>
          <FormField prefix={P} id="notes" label="Notes (optional)" errors={errors}>
            <textarea {...field("notes")} defaultValue={str(start.notes)} rows={2} maxLength={1000} className={`${ADMIN_CONTROL} py-2`} />
          </FormField>
        </fieldset>

        <div className="flex flex-wrap gap-2">
          <button type="submit" name="intent" value="place" className="btn-primary disabled:opacity-75" disabled={busy}>
            {busy ? "Working…" : "Place order"}
          </button>
          <button type="submit" name="intent" value="draft" className="btn-secondary" disabled={busy}>
            Save as draft
          </button>
        </div>
      </Form>
    </>
  );
}

import { useEffect, useRef } from "react";
import { Form, Link, data, useNavigation } from "react-router";
import { AuditHistory } from "../../../components/admin/audit-entries.tsx";
import { BlockedBadge } from "../../../components/admin/blocked-badge.tsx";
import { ConfirmWithReason } from "../../../components/admin/confirm-with-reason.tsx";
import { CustomerOrders } from "../../../components/admin/customer-orders.tsx";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { idParam, notFoundOr, serviceError } from "../../../lib/admin/access.ts";
import { formatDate, formatDateTime } from "../../../lib/admin/format.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { formatPounds } from "../../../lib/money.ts";
import { can } from "../../../../server/modules/staff/permissions.ts";
import type { Route } from "./+types/customer";
import { ADMIN_CONTROL, FormField, fieldProps } from "../../../components/admin/form-field.tsx";
import { CUSTOMER_KIND_LABELS } from "../../../../server/modules/account/customer-kinds.ts";
import { Panel } from "../../../components/admin/panel.tsx";
import { AddressLines } from "../../../components/address-lines.tsx";
import { staffPost, staffScreen } from "../../../lib/admin/staff-route.ts";
import { EmailLink, Facts } from "../../../components/admin/facts.tsx";

export const meta: Route.MetaFunction = ({ matches, params }) => pageMeta(matches, `Customer #${params.id}`);

const REASON_MAX = 500;

/** The customer's number from the path; anything else is no customer. */
const idFrom = (param: string) => idParam(param, "No such customer.");

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "customers.view");
  const id = idFrom(params.id);
  const customer = await app.services.adminCustomers.detail(actor, id).catch(notFoundOr);
  return {
    customer,
    audit: await app.services.audit.forEntity("customer", customer.id),
    canManage: can(actor.role, "customers.manage"),
    canEdit: can(actor.role, "customers.edit"),
    canOrder: can(actor.role, "orders.view"),
    canQuote: can(actor.role, "quotes.manage"),
  };
}

type Intent = "password_reset" | "block" | "unblock" | "edit" | "add_address" | "edit_address" | "remove_address";
type ActionResult =
  | { ok: true; intent: Intent; message: string }
  | { ok: false; intent: Intent; message: string; errors: Record<string, string[]>; reason?: string; target?: string; values?: Record<string, string> };
const INTENTS: readonly Intent[] = ["password_reset", "block", "unblock", "edit", "add_address", "edit_address", "remove_address"];
const ADDRESS_FIELDS = ["firstname", "lastname", "company", "line1", "line2", "town", "county", "postcode", "phone"] as const;

/** The three actions; the service checks customers.manage for each. */
export async function action({ context, request, params }: Route.ActionArgs) {
  const { app, actor, form } = await staffPost(context, request, "customers.view");
  const id = idFrom(params.id);
  const intent = String(form.get("intent") ?? "") as Intent;
  if (!INTENTS.includes(intent)) return data<ActionResult>({ ok: false, intent: "block", message: "Choose what to do with the account.", errors: {} }, { status: 422 });
  const reason = String(form.get("reason") ?? "").slice(0, REASON_MAX + 1);
  const customers = app.services.adminCustomers;
  const text = (name: string, max = 2000) => String(form.get(name) ?? "").slice(0, max);
  const target = text("target", 12);
  const values = Object.fromEntries([...form.keys()].filter((k) => k !== "intent").map((k) => [k, text(k)]));
  try {
    // The edits (issue 34): the same rules as the API's PATCH and address routes; the service checks customers.edit.
    if (intent === "edit") {
      const { parseInput } = await import("../../../../server/http-errors.ts");
      const { customerPatch } = await import("../../../../server/modules/account/admin-edit.ts");
      const body = parseInput(customerPatch, { firstname: text("firstname", 200), lastname: text("lastname", 200), phone: text("phone", 60), email: text("email", 300), staff_note: text("staff_note", 2100) });
      await customers.update(actor, id, body);
      return data<ActionResult>({ ok: true, intent, message: "The customer's details are saved." });
    }
    if (intent === "add_address" || intent === "edit_address") {
      const { parseInput } = await import("../../../../server/http-errors.ts");
      const { customerAddressBody } = await import("../../../../server/modules/account/admin-edit.ts");
      const body = parseInput(customerAddressBody, { ...Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, text(f, 200)])), is_default_delivery: form.get("is_default_delivery") === "yes", is_default_billing: form.get("is_default_billing") === "yes" });
      if (intent === "add_address") await customers.addAddress(actor, id, body);
      else await customers.updateAddress(actor, id, Number(target), body);
      return data<ActionResult>({ ok: true, intent, message: intent === "add_address" ? "Address added to the address book." : "Address saved." });
    }
    if (intent === "remove_address") {
      await customers.deleteAddress(actor, id, Number(target));
      return data<ActionResult>({ ok: true, intent, message: "Address removed from the address book." });
    }
    if (intent === "password_reset") {
      const sent = await customers.sendPasswordReset(actor, id);
      return data<ActionResult>({ ok: true, intent, message: `Password reset link emailed to ${sent.sent_to}. It works once, for ${sent.expires_in_minutes} minutes.` });
    }
    if (intent === "block") {
      // The confirm step: blocking signs the customer out everywhere at once, so it is never one careless click.
      if (form.get("confirm") !== "yes") {
        return data<ActionResult>({ ok: false, intent, message: "Check the details below.", errors: { confirm: ["Tick the box to confirm the block."] }, reason }, { status: 422 });
      }
      const done = await customers.block(actor, id, reason);
      return data<ActionResult>({ ok: true, intent, message: `${done.name || `Customer #${done.id}`} is blocked: signed out everywhere, and sign-in is refused.` });
    }
    const done = await customers.unblock(actor, id);
    return data<ActionResult>({ ok: true, intent, message: `${done.name || `Customer #${done.id}`} is unblocked and may sign in again.` });
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    if (known.status === 404 && !intent.includes("address")) notFoundOr(error);
    return data<ActionResult>({ ok: false, intent, message: known.errors ? "Check the details below." : known.message, errors: known.errors ?? {}, reason, target, values }, { status: known.status });
  }
}



type Failed = Extract<ActionResult, { ok: false }>;
type CustomerView = Route.ComponentProps["loaderData"]["customer"];
type AddressView = CustomerView["addresses"][number];

/** The customer's own details and the staff note (customers.edit); an error shows beside its field and the typed values stay. */
function EditDetails({ customer, failed, busy }: { customer: CustomerView; failed: Failed | undefined; busy: boolean }) {
  const value = (name: "firstname" | "lastname" | "phone" | "email" | "staff_note") => failed?.values?.[name] ?? customer[name];
  const errors = failed?.errors;
  return (
    <Panel id="edit-heading" title="Edit details">
      <Form method="post" className="grid gap-3 sm:grid-cols-2" noValidate>
        <input type="hidden" name="intent" value="edit" />
        <FormField prefix="edit" id="firstname" label="First name" errors={errors}>
          <input {...fieldProps("edit", "firstname", errors)} defaultValue={value("firstname")} autoComplete="off" className={ADMIN_CONTROL} />
        </FormField>
        <FormField prefix="edit" id="lastname" label="Last name" errors={errors}>
          <input {...fieldProps("edit", "lastname", errors)} defaultValue={value("lastname")} autoComplete="off" className={ADMIN_CONTROL} />
        </FormField>
        <FormField prefix="edit" id="email" label="Email" errors={errors}>
          <input {...fieldProps("edit", "email", errors)} type="email" defaultValue={value("email")} autoComplete="off" className={ADMIN_CONTROL} />
        </FormField>
        <FormField prefix="edit" id="phone" label="Phone" errors={errors}>
          <input {...fieldProps("edit", "phone", errors)} type="tel" defaultValue={value("phone")} autoComplete="off" className={ADMIN_CONTROL} />
        </FormField>
        <FormField prefix="edit" id="staff_note" label="Staff note" hint="For the shop's staff only; the customer never sees it." errors={errors} className="sm:col-span-2">
          <textarea {...fieldProps("edit", "staff_note", errors, true)} rows={3} maxLength={2000} defaultValue={value("staff_note")} className={`${ADMIN_CONTROL} py-2`} />
        </FormField>
        <div className="sm:col-span-2">
          <button type="submit" className="btn-primary" disabled={busy}>
            Save details
          </button>
        </div>
      </Form>
    </Panel>
  );
}

const ADDRESS_LABELS: Record<(typeof ADDRESS_FIELDS)[number], string> = {
  firstname: "First name",
  lastname: "Last name",
  company: "Company (optional)",
  line1: "Address line 1",
  line2: "Address line 2 (optional)",
  town: "Town or city",
  county: "County (optional)",
  postcode: "Postcode",
  phone: "Phone (optional)",
};

/** An address of the book to add or change, with the account's own rules. */
function AddressForm({ intent, target, address, failed, busy }: { intent: "add_address" | "edit_address"; target: string; address: AddressView | null; failed: Failed | undefined; busy: boolean }) {
  const prefix = `${intent}-${target || "new"}`;
  const errors = failed?.errors;
  return (
    <Form method="post" className="mt-2 grid gap-2 sm:grid-cols-2" noValidate>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="target" value={target} />
      {ADDRESS_FIELDS.map((f) => (
        <FormField key={f} prefix={prefix} id={f} label={ADDRESS_LABELS[f]} errors={errors}>
          <input {...fieldProps(prefix, f, errors)} defaultValue={failed?.values?.[f] ?? address?.[f] ?? ""} autoComplete="off" className={ADMIN_CONTROL} />
        </FormField>
      ))}
      <label className="flex items-center gap-2 text-sm sm:col-span-2">
        <input type="checkbox" name="is_default_delivery" value="yes" defaultChecked={address?.is_default_delivery ?? false} className="size-4" /> Default delivery address
      </label>
      <label className="flex items-center gap-2 text-sm sm:col-span-2">
        <input type="checkbox" name="is_default_billing" value="yes" defaultChecked={address?.is_default_billing ?? false} className="size-4" /> Default billing address
      </label>
      <div className="sm:col-span-2">
        <button type="submit" className="btn-primary" disabled={busy}>
          {intent === "add_address" ? "Add address" : "Save address"}
        </button>
      </div>
    </Form>
  );
}

export default function AdminCustomer({ loaderData, actionData }: Route.ComponentProps) {
  const { customer, audit, canManage, canEdit, canOrder, canQuote } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const result = actionData as ActionResult | undefined;
  const banner = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (result) banner.current?.focus();
  }, [result]);
  const failed = result && !result.ok ? result : undefined;
  const title = customer.name || `Customer #${customer.id}`;
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Customers", to: "/admin/customers" }, { label: title }]}
        title={title}
        intro={
          <>
            {customer.blocked ? (
              <>
                <BlockedBadge />{" "}
              </>
            ) : null}
            {CUSTOMER_KIND_LABELS[customer.kind]} customer #{customer.id} · since {formatDate(customer.created_at)}
          </>
        }
        actions={
          <>
            {canOrder ? (
              <Link to={`/admin/orders/new?customer_id=${customer.id}`} className="btn-primary">
                Start an order
              </Link>
            ) : null}
            {canQuote ? (
              <Link to={`/admin/quotes/new?customer_id=${customer.id}`} className="btn-secondary">
                Start a quote
              </Link>
            ) : null}
          </>
        }
      />
      {result ? (
        <div
          ref={banner}
          tabIndex={-1}
          role={result.ok ? "status" : "alert"}
          className={`mb-4 rounded-md border-l-4 px-4 py-3 font-semibold ${result.ok ? "border-green-700 bg-green-50 text-green-900" : "border-red-700 bg-red-50 text-red-800"}`}
        >
          {result.message}
        </div>
      ) : null}
      {customer.blocked ? (
        <div className="mb-4 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-red-900" data-testid="customer-blocked">
          <p className="font-semibold">Blocked{customer.blocked_at ? ` since ${formatDateTime(customer.blocked_at)}` : ""}.</p>
          <p>Sign-in is refused and the customer is told to contact the shop.</p>
          {customer.blocked_reason ? <p className="mt-1 whitespace-pre-line">Reason: {customer.blocked_reason}</p> : null}
        </div>
      ) : null}

      <div className="grid gap-4 xl:grid-cols-[1fr_22rem]">
        {/* First in the page on a tablet or phone (what staff came to do); beside the details on a desktop. */}
        <div className="grid content-start gap-4 xl:col-start-2 xl:row-start-1">
          <Panel id="actions-heading" title="Account actions">
            {!canManage ? (
              <p className="text-stone-600">Your role may look at customers but not change their accounts.</p>
            ) : (
              <div className="grid gap-4">
                {customer.blocked ? null : (
                  <Form method="post" className="grid gap-2">
                    <input type="hidden" name="intent" value="password_reset" />
                    <button type="submit" className="btn-primary" disabled={busy}>
                      Send password reset link
                    </button>
                    <p className="text-xs text-stone-600">Emails {customer.email} a link to choose a new password. It works once, for 60 minutes; any earlier link stops working.</p>
                  </Form>
                )}
                {customer.blocked ? (
                  <Form method="post" className="grid gap-2">
                    <input type="hidden" name="intent" value="unblock" />
                    <p className="text-sm">Unblocking lets the customer sign in again. They sign in afresh: no earlier sign-in comes back.</p>
                    <button type="submit" className="btn-primary" disabled={busy}>
                      Unblock customer
                    </button>
                  </Form>
                ) : (
                  <ConfirmWithReason
                    id="block"
                    className="border-t border-stone-200 pt-4"
                    fields={{ intent: "block" }}
                    reason={{ label: "Reason (optional; kept in the audit log, not sent to the customer)", maxLength: REASON_MAX, value: failed?.intent === "block" ? failed.reason : "" }}
                    confirm={`Yes, block ${title} and sign them out everywhere.`}
                    errors={failed?.intent === "block" ? failed.errors : undefined}
                    button="Block customer"
                    busy={busy}
                    noValidate
                  >
                    <h3 className="font-bold">Block this customer</h3>
                    <p className="rounded bg-amber-50 p-2 text-sm text-amber-950">
                      Blocking signs them out on every device at once and refuses sign-in until the account is unblocked. Their orders are not changed.
                    </p>
                  </ConfirmWithReason>
                )}
                {customer.blocked ? (
                  <p className="border-t border-stone-200 pt-4 text-sm text-stone-700">Unblock the customer before sending a password reset link: the link would not work.</p>
                ) : null}
              </div>
            )}
          </Panel>

          <Panel id="trade-heading" title="Trade account" className="text-sm">
            {customer.trade ? (
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
                <dt className="font-semibold">Company</dt>
                <dd>{customer.trade.company_name}</dd>
                <dt className="font-semibold">Their role</dt>
                <dd>{customer.trade.role_label}</dd>
                <dt className="font-semibold">Account</dt>
                <dd>{customer.trade.state_label}</dd>
              </dl>
            ) : (
              <p className="text-stone-600">Not a member of a trade account: shop prices.</p>
            )}
          </Panel>
        </div>

        <div className="grid min-w-0 content-start gap-4 xl:col-start-1 xl:row-start-1">
          <Panel id="details-heading" title="Details" className="text-sm">
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 sm:gap-x-6">
              <Facts
                facts={[
                  ["Name", customer.name || "—"],
                  ["Email", <EmailLink email={customer.email} />, "break-all"],
                  ["Phone", customer.phone || "—"],
                  ["Customer since", formatDateTime(customer.created_at)],
                  ["Orders", customer.order_count],
                  customer.total_spent !== undefined && ["Total spent", formatPounds(customer.total_spent)],
                  ["Last order", customer.last_order_at ? formatDate(customer.last_order_at) : "None yet"],
                  ["Staff note", customer.staff_note || "—", "whitespace-pre-line"],
                  ["Wishlist", `${customer.wishlist_count} ${customer.wishlist_count === 1 ? "product" : "products"}`],
                  ["Signed in on", customer.active_sessions === 0 ? "No devices" : `${customer.active_sessions} ${customer.active_sessions === 1 ? "device" : "devices"}`],
                  ["Newsletter", customer.newsletter_subscribed ? "Subscribed" : "Not subscribed"],
                ]}
              />
            </dl>
          </Panel>

          {canEdit ? <EditDetails customer={customer} failed={failed?.intent === "edit" ? failed : undefined} busy={busy} /> : null}

          <Panel id="addresses-heading" title="Address book">
            {customer.addresses.length === 0 ? (
              <p className="text-sm text-stone-600">No saved addresses.</p>
            ) : (
              <ul className="grid gap-3 text-sm sm:grid-cols-2 2xl:grid-cols-3">
                {customer.addresses.map((a) => (
                  <li key={a.id} className="rounded-md border border-stone-200 p-3">
                    {a.is_default_delivery || a.is_default_billing ? (
                      <p className="mb-1 flex flex-wrap gap-1">
                        {a.is_default_delivery ? <span className="rounded bg-brand-50 px-1.5 py-0.5 text-xs font-semibold text-brand-900">Default delivery</span> : null}
                        {a.is_default_billing ? <span className="rounded bg-stone-200 px-1.5 py-0.5 text-xs font-semibold text-stone-800">Default billing</span> : null}
                      </p>
                    ) : null}
                    <AddressLines lines={[`${a.firstname} ${a.lastname}`.trim(), a.company, a.line1, a.line2, a.town, a.county, a.postcode]} />
                    {a.phone ? <p className="mt-1 text-stone-600">{a.phone}</p> : null}
                    {canEdit ? (
                      <details className="mt-2" open={failed?.intent === "edit_address" && failed.target === String(a.id)}>
                        <summary className="link cursor-pointer text-sm">Edit or remove</summary>
                        <AddressForm intent="edit_address" target={String(a.id)} address={a} failed={failed?.intent === "edit_address" && failed.target === String(a.id) ? failed : undefined} busy={busy} />
                        <Form method="post" className="mt-2">
                          <input type="hidden" name="intent" value="remove_address" />
                          <input type="hidden" name="target" value={a.id} />
                          <button type="submit" className="btn border border-red-700 bg-white text-red-800 hover:bg-red-50" disabled={busy}>
                            Remove this address
                          </button>
                        </Form>
                      </details>
                    ) : null}
                  </li>
                ))}
              </ul>
            )}
            {canEdit ? (
              <details className="mt-3" open={failed?.intent === "add_address"}>
                <summary className="link cursor-pointer text-sm font-semibold">Add an address</summary>
                <AddressForm intent="add_address" target="" address={null} failed={failed?.intent === "add_address" ? failed : undefined} busy={busy} />
              </details>
            ) : null}
          </Panel>

          <section aria-labelledby="orders-heading" className="relative overflow-x-auto rounded-lg border border-stone-200 bg-white">
            <h2 id="orders-heading" className="px-4 pt-4 text-lg font-bold">
              Orders
            </h2>
            {customer.orders.length === 0 ? (
              <p className="px-4 pb-4 pt-2 text-sm text-stone-600">No orders on this account yet.</p>
            ) : (
              <>
                <div className="p-4 pt-2">
                  <CustomerOrders orders={customer.orders} caption="The customer's orders, newest first" />
                </div>
                {customer.order_count > customer.orders.length ? (
                  <p className="border-t border-stone-200 px-4 py-3 text-sm">
                    The latest {customer.orders.length} of {customer.order_count}.{" "}
                    <Link to={`/admin/orders?${new URLSearchParams({ q: customer.email })}`} className="link">
                      Search the orders desk for {customer.email}
                    </Link>
                  </p>
                ) : null}
              </>
            )}
          </section>

          <AuditHistory entries={audit} />
        </div>
      </div>
    </>
  );
}

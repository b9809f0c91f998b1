import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { appContext } from "#app-context";
import { AccountPage } from "../../components/account-page.tsx";
import { Checkbox, Field, FormAlert, FormSuccess, SubmitButton } from "../../components/form.tsx";
import { EmptyState } from "../../components/page.tsx";
import { ADDRESS_FIELDS, type Address, addressSummary } from "../../lib/account.ts";
import { browserApi } from "../../lib/browser-api.ts";
import { checked, errorFor, failure, failureFrom, type FormResult, redirectIfSignedOut, text } from "../../lib/form-result.ts";
import { useHydrated } from "../../lib/use-session.ts";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/addresses";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Your addresses");

export async function loader({ context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const addresses: Address[] = await app.services.account.listAddresses(app.user!.id);
  return { addresses };
}

type Intent = "save" | "delete" | "default-delivery" | "default-billing";
type AddressResult = FormResult & { intent: Intent };

const FORM_FIELDS = [...ADDRESS_FIELDS, "is_default_delivery", "is_default_billing"];

function addressBody(form: FormData) {
  const body: Record<string, string | boolean> = {};
  for (const field of ADDRESS_FIELDS) body[field] = text(form, field);
  body.is_default_delivery = checked(form, "is_default_delivery");
  body.is_default_billing = checked(form, "is_default_billing");
  return body;
}

export async function clientAction({ request }: Route.ClientActionArgs): Promise<AddressResult> {
  const form = await request.formData();
  const intent = (form.get("intent") as Intent | null) ?? "save";
  const id = Number(form.get("id"));
  const hasId = Number.isInteger(id) && id > 0;
  const api = browserApi();
  try {
    switch (intent) {
      case "delete":
        if (!hasId) return { ...failure("That address could not be found."), intent };
        await api.delete(`/api/account/addresses/${id}`);
        return { ok: true, message: "The address has been deleted.", intent };
      case "default-delivery":
      case "default-billing": {
        if (!hasId) return { ...failure("That address could not be found."), intent };
        const body = addressBody(form);
        body[intent === "default-delivery" ? "is_default_delivery" : "is_default_billing"] = true;
        await api.put(`/api/account/addresses/${id}`, body);
        return { ok: true, message: intent === "default-delivery" ? "Default delivery address changed." : "Default billing address changed.", intent };
      }
      default:
        if (hasId) await api.put(`/api/account/addresses/${id}`, addressBody(form));
        else await api.post("/api/account/addresses", addressBody(form));
        return { ok: true, message: hasId ? "The address has been updated." : "The address has been added.", intent: "save" };
    }
  } catch (error) {
    redirectIfSignedOut(error, request);
    const fallback =
      intent === "delete" ? "The address could not be deleted. Please try again." : "The address could not be saved. Please try again.";
    return { ...failureFrom(error, { fallback, fields: intent === "save" ? FORM_FIELDS : [] }), intent };
  }
}

/** The fields of an address as hidden inputs, so a "make default" button can send the whole address. */
function HiddenAddress({ address }: { address: Address }) {
  return (
    <>
      <input type="hidden" name="id" value={address.id} />
      {ADDRESS_FIELDS.map((f) => (
        <input key={f} type="hidden" name={f} value={address[f] ?? ""} />
      ))}
      {address.is_default_delivery ? <input type="hidden" name="is_default_delivery" value="on" /> : null}
      {address.is_default_billing ? <input type="hidden" name="is_default_billing" value="on" /> : null}
    </>
  );
}

function AddressForm({ address, onCancel }: { address: Address | null; onCancel: () => void }) {
  const fetcher = useFetcher<AddressResult>({ key: "address-form" });
  const result = fetcher.data?.intent === "save" ? fetcher.data : undefined;
  const formRef = useRef<HTMLFormElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const busy = fetcher.state !== "idle";

  // Focus moves into the form when it opens, and to the problem when it fails.
  useEffect(() => {
    headingRef.current?.focus();
  }, []);
  useEffect(() => {
    if (!result || result.ok || busy) return;
    const field = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    (field ?? alertRef.current)?.focus();
  }, [result, busy]);

  const a = address;
  const err = (field: string) => errorFor(result, field);
  return (
    <section aria-labelledby="address-form-title" className="mb-8 max-w-2xl rounded-lg border border-stone-200 bg-white p-5 shadow-sm sm:p-8">
      <h2 id="address-form-title" ref={headingRef} tabIndex={-1} className="mb-5 text-xl font-bold">
        {a ? "Edit address" : "Add a new address"}
      </h2>
      <fetcher.Form method="post" ref={formRef} className="grid gap-5">
        <input type="hidden" name="intent" value="save" />
        {a ? <input type="hidden" name="id" value={a.id} /> : null}
        <FormAlert ref={alertRef} message={result && !result.ok ? result.message : undefined} />
        <div className="grid gap-5 sm:grid-cols-2">
          <Field label="First name" name="firstname" autoComplete="given-name" required maxLength={100} defaultValue={a?.firstname} error={err("firstname")} />
          <Field label="Last name" name="lastname" autoComplete="family-name" required maxLength={100} defaultValue={a?.lastname} error={err("lastname")} />
        </div>
        <Field label="Company" name="company" autoComplete="organization" optional maxLength={100} defaultValue={a?.company} error={err("company")} />
        <Field label="Address line 1" name="line1" autoComplete="address-line1" required maxLength={100} defaultValue={a?.line1} error={err("line1")} />
        <Field label="Address line 2" name="line2" autoComplete="address-line2" optional maxLength={100} defaultValue={a?.line2} error={err("line2")} />
        <div className="grid gap-5 sm:grid-cols-2">
          <Field label="Town or city" name="town" autoComplete="address-level2" required maxLength={60} defaultValue={a?.town} error={err("town")} />
          <Field label="County" name="county" autoComplete="address-level1" optional maxLength={60} defaultValue={a?.county} error={err("county")} />
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field
            label="Postcode"
            name="postcode"
            autoComplete="postal-code"
            autoCapitalize="characters"
            spellCheck={false}
            required
            maxLength={10}
            inputClassName="sm:max-w-48"
            defaultValue={a?.postcode}
            error={err("postcode")}
          />
          <Field label="Phone number" name="phone" type="tel" autoComplete="tel" optional maxLength={30} defaultValue={a?.phone} hint="For the driver, if they need to reach you." error={err("phone")} />
        </div>
        <div className="grid gap-1">
          <Checkbox label="Use as my default delivery address" name="is_default_delivery" defaultChecked={a?.is_default_delivery} error={err("is_default_delivery")} />
          <Checkbox label="Use as my default billing address" name="is_default_billing" defaultChecked={a?.is_default_billing} error={err("is_default_billing")} />
        </div>
        <div className="flex flex-wrap gap-3">
          <SubmitButton busy={busy} busyLabel="Saving…">
            {a ? "Save address" : "Add address"}
          </SubmitButton>
          <button type="button" className="btn-secondary" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </fetcher.Form>
    </section>
  );
}

/** Delete and "make default" share one fetcher: one change at a time, reported once for the page. */
const ACTIONS_KEY = "address-actions";

function AddressCard({ address, onEdit, onAction }: { address: Address; onEdit: () => void; onAction: () => void }) {
  const fetcher = useFetcher<AddressResult>({ key: ACTIONS_KEY });
  const hydrated = useHydrated();
  const [confirming, setConfirming] = useState(false);
  const busy = fetcher.state !== "idle";
  // Keyboard focus follows the question: onto "Yes, delete", and back to "Delete" on Cancel.
  const confirmRef = useRef<HTMLButtonElement>(null);
  const deleteRef = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  useEffect(() => {
    if (confirming) {
      asked.current = true;
      confirmRef.current?.focus();
    } else if (asked.current) {
      deleteRef.current?.focus();
    }
  }, [confirming]);
  const summary = addressSummary(address);
  const lines = [`${address.firstname} ${address.lastname}`.trim(), address.company, address.line1, address.line2, address.town, address.county, address.postcode];
  const disabled = !hydrated || busy;

  return (
    <li className="flex flex-col rounded-lg border border-stone-200 bg-white p-5 shadow-sm" aria-label={summary}>
      {address.is_default_delivery || address.is_default_billing ? (
        <p className="mb-3 flex flex-wrap gap-2">
          {address.is_default_delivery ? <span className="rounded-full bg-brand-50 px-2.5 py-0.5 text-sm font-semibold text-brand-700 ring-1 ring-brand-700/30">Default delivery</span> : null}
          {address.is_default_billing ? <span className="rounded-full bg-accent-400/20 px-2.5 py-0.5 text-sm font-semibold text-stone-900 ring-1 ring-accent-500/50">Default billing</span> : null}
        </p>
      ) : null}
      <address className="not-italic leading-relaxed">
        {lines.filter(Boolean).map((line, i) => (
          <span key={i} className={`block ${i === 0 ? "font-semibold" : ""}`}>
            {line}
          </span>
        ))}
        {address.phone ? <span className="mt-1 block text-stone-700">Phone: {address.phone}</span> : null}
      </address>
      {confirming ? (
        <div className="mt-4 rounded-md border border-red-200 bg-red-50 p-3">
          <p className="font-semibold" id={`delete-${address.id}`}>
            Delete this address?
          </p>
          <p className="text-sm text-stone-700">{summary}</p>
          <fetcher.Form method="post" onSubmit={onAction} className="mt-3 flex flex-wrap gap-2" aria-describedby={`delete-${address.id}`}>
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="id" value={address.id} />
            <button ref={confirmRef} type="submit" className="btn bg-red-700 text-white hover:bg-red-800 disabled:opacity-75" disabled={disabled}>
              {busy ? "Deleting…" : "Yes, delete"}
            </button>
            <button type="button" className="btn-secondary" onClick={() => setConfirming(false)} disabled={busy}>
              Cancel
            </button>
          </fetcher.Form>
        </div>
      ) : (
        <div className="mt-auto flex flex-wrap gap-2 pt-4">
          <button type="button" className="btn-secondary" onClick={onEdit} disabled={disabled}>
            Edit<span className="sr-only"> {summary}</span>
          </button>
          <button ref={deleteRef} type="button" className="btn-secondary text-red-700" onClick={() => setConfirming(true)} disabled={disabled}>
            Delete<span className="sr-only"> {summary}</span>
          </button>
          {(
            [
              ["delivery", address.is_default_delivery],
              ["billing", address.is_default_billing],
            ] as const
          ).map(([use, isDefault]) =>
            isDefault ? null : (
              <fetcher.Form key={use} method="post" onSubmit={onAction}>
                <HiddenAddress address={address} />
                <button type="submit" name="intent" value={`default-${use}`} className="btn-secondary" disabled={disabled}>
                  Make default {use}<span className="sr-only"> address</span>
                </button>
              </fetcher.Form>
            ),
          )}
        </div>
      )}
    </li>
  );
}

export default function Addresses({ loaderData }: Route.ComponentProps) {
  const { addresses } = loaderData;
  const hydrated = useHydrated();
  const form = useFetcher<AddressResult>({ key: "address-form" });
  const actions = useFetcher<AddressResult>({ key: ACTIONS_KEY });
  const [editing, setEditing] = useState<"new" | number | null>(null);
  const statusRef = useRef<HTMLDivElement>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  const saved = form.state === "idle" && form.data?.ok ? form.data : undefined;
  const acted = actions.state === "idle" ? actions.data : undefined;
  const editingAddress = typeof editing === "number" ? (addresses.find((a) => a.id === editing) ?? null) : null;
  const open = !saved && (editing === "new" || editingAddress !== null);

  function openForm(target: "new" | number) {
    form.reset();
    actions.reset();
    setEditing(target);
  }
  function closeForm() {
    form.reset();
    setEditing(null);
  }
  function cancelForm() {
    closeForm();
    // The form's place is taken by the "Add a new address" button again: focus goes there.
    requestAnimationFrame(() => addRef.current?.focus());
  }

  // After a change the form closes (or the button pressed is gone) and focus lands on the message that says so.
  const done = saved ?? (acted?.ok ? acted : undefined);
  useEffect(() => {
    if (done) statusRef.current?.focus();
  }, [done]);

  return (
    <AccountPage title="Your addresses" intro="Addresses you deliver to and pay from. Choose a default for each." wide>
      <div ref={statusRef} tabIndex={-1} className="mb-6 empty:hidden">
        {saved ? <FormSuccess>{saved.message}</FormSuccess> : null}
        {acted?.ok ? <FormSuccess>{acted.message}</FormSuccess> : null}
      </div>
      <FormAlert className="mb-6" message={acted && !acted.ok ? acted.message : undefined} />
      {open ? (
        <AddressForm key={editing} address={editingAddress} onCancel={cancelForm} />
      ) : (
        <p className="mb-6">
          <button ref={addRef} type="button" className="btn-primary disabled:opacity-75" onClick={() => openForm("new")} disabled={!hydrated}>
            Add a new address
          </button>
        </p>
      )}
      {addresses.length === 0 ? (
        open ? null : (
          <EmptyState title="You have no saved addresses.">Add one now and checkout will fill it in for you.</EmptyState>
        )
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2" aria-label="Saved addresses">
          {addresses.map((address) => (
            <AddressCard key={address.id} address={address} onEdit={() => openForm(address.id)} onAction={closeForm} />
          ))}
        </ul>
      )}
    </AccountPage>
  );
}

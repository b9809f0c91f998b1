import { useEffect, useRef } from "react";
import { Form, Link, useNavigation } from "react-router";
import { appContext } from "#app-context";
import { Checkbox, Field, FormAlert, FormSuccess, SubmitButton } from "../../components/form.tsx";
import { Breadcrumbs, EmptyState, PageHeading } from "../../components/page.tsx";
import { type TradeSiteView, sitePoRule } from "../../lib/basket-checkout.ts";
import { pageMeta } from "../../lib/meta.ts";
import { notFound } from "../../lib/not-found.ts";
import { type SitesResult, sitesAction } from "../../lib/trade-sites.server.ts";
import type { Route } from "./+types/sites";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Sites");

/** Every member of a company reads its sites; anyone else gets the API's 404. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const url = new URL(request.url);
  try {
    const { data, can_manage } = await app.services.tradeSites.list(app.user!.id);
    const saved = data.find((s) => s.id === Number(url.searchParams.get("saved")));
    const editing = can_manage ? (data.find((s) => s.id === Number(url.searchParams.get("edit"))) ?? null) : null;
    return { sites: data, canManage: can_manage, saved: saved?.name ?? null, editing };
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode === 404) notFound();
    throw err;
  }
}

export async function action({ context, request }: Route.ActionArgs): Promise<SitesResult> {
  return sitesAction(context.get(appContext), request);
}

const card = "rounded-lg border border-stone-200 bg-white p-4 shadow-sm";

export default function Sites({ loaderData, actionData }: Route.ComponentProps) {
  const { sites, canManage, saved, editing } = loaderData;
  const live = sites.filter((s) => !s.archived);
  const archived = sites.filter((s) => s.archived);
  const result = actionData;
  const failedArchive = result && !result.ok && result.intent === "archive" ? result.message : undefined;
  return (
    <div className="mx-auto max-w-5xl">
      <Breadcrumbs items={[{ label: "Home", to: "/" }, { label: "Trade dashboard", to: "/trade/dashboard" }, { label: "Sites" }]} />
      <PageHeading title="Sites" intro="The jobs your company buys for. Orders on account name a site, are delivered to its address, and your invoices, statements and orders can be read one site at a time." />
      <div className="grid gap-6">
        {saved ? <FormSuccess>{saved} is saved.</FormSuccess> : null}
        {result?.ok ? <FormSuccess>{result.message}</FormSuccess> : <FormAlert message={failedArchive} />}
        {live.length === 0 ? (
          <EmptyState title="Your company has no sites yet.">{canManage ? "Add one below: orders on account will then ask which site they are for." : "An owner or admin of your company can add them."}</EmptyState>
        ) : (
          <ul className="grid gap-4 md:grid-cols-2" aria-label="Sites in use">
            {live.map((s) => (
              <SiteCard key={s.id} site={s} canManage={canManage} />
            ))}
          </ul>
        )}
        {canManage ? <SiteForm key={editing?.id ?? "new"} editing={editing} result={result && !result.ok && result.intent === "save" ? result : undefined} /> : null}
        {archived.length ? (
          <section aria-labelledby="archived-heading" className="grid gap-3">
            <h2 id="archived-heading" className="text-lg font-semibold">
              Archived sites
            </h2>
            <p className="text-stone-700">Their orders and invoices keep them; they are not offered at checkout.</p>
            <ul className="grid gap-4 md:grid-cols-2" aria-label="Archived sites">
              {archived.map((s) => (
                <SiteCard key={s.id} site={s} canManage={canManage} />
              ))}
            </ul>
          </section>
        ) : null}
      </div>
    </div>
  );
}

function SiteCard({ site, canManage }: { site: TradeSiteView; canManage: boolean }) {
  const rule = sitePoRule(site);
  const contact = [site.contact_name, site.contact_phone].filter(Boolean).join(", ");
  const headingId = `site-${site.id}`;
  return (
    <li className={`${card} grid content-start gap-2`} aria-labelledby={headingId} data-testid="site">
      <h3 id={headingId} className="text-lg font-semibold [overflow-wrap:anywhere]">
        {site.name}
      </h3>
      <p className="text-stone-800 [overflow-wrap:anywhere]">{[site.line1, site.line2, site.town, site.county, site.postcode].filter(Boolean).join(", ")}</p>
      <p className="text-sm text-stone-700">{contact ? `Contact: ${contact}` : "No contact named"}</p>
      <p className="text-sm text-stone-700">{rule ?? "Any purchase-order reference."}</p>
      <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        <Link to={`/account/orders/history?site=${site.id}`} className="link">
          Orders
        </Link>
        <Link to={`/trade/invoices?site=${site.id}`} className="link">
          Invoices
        </Link>
      </p>
      {canManage ? (
        <div className="mt-1 flex flex-wrap gap-3 border-t border-stone-200 pt-3">
          {site.archived ? null : (
            <Link to={`?edit=${site.id}#site-form`} className="btn-secondary" aria-label={`Edit ${site.name}`}>
              Edit
            </Link>
          )}
          <Form method="post">
            <input type="hidden" name="site" value={site.id} />
            <button type="submit" name="intent" value={site.archived ? "restore" : "archive"} className="btn-secondary" aria-label={`${site.archived ? "Bring back" : "Archive"} ${site.name}`}>
              {site.archived ? "Bring back" : "Archive"}
            </button>
          </Form>
        </div>
      ) : null}
    </li>
  );
}

/** Adding a site, or changing the one being edited; a refusal keeps what was typed. */
function SiteForm({ editing, result }: { editing: TradeSiteView | null; result: Extract<SitesResult, { ok: false }> | undefined }) {
  const navigation = useNavigation();
  const sending = navigation.state !== "idle" && navigation.formData?.get("intent") === "save";
  const form = useRef<HTMLFormElement>(null);
  const alert = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!result) return;
    (form.current?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? alert.current)?.focus();
  }, [result]);
  const value = (field: keyof TradeSiteView & string) => result?.values[field] ?? String(editing?.[field] ?? "");
  const err = (field: string) => result?.errors[field]?.join(" ");
  const heading = editing ? `Edit ${editing.name}` : "Add a site";
  return (
    <section aria-labelledby="site-form-heading" id="site-form" className={card}>
      <h2 id="site-form-heading" className="text-lg font-semibold [overflow-wrap:anywhere]">
        {heading}
      </h2>
      <Form method="post" ref={form} className="mt-4 grid gap-4" noValidate={false}>
        <FormAlert ref={alert} message={result?.message} />
        <input type="hidden" name="intent" value="save" />
        {editing ? <input type="hidden" name="site" value={editing.id} /> : null}
        <Field label="Site name" name="name" required maxLength={80} hint="As your buyers know it, e.g. Plot 7, Mill Lane." defaultValue={value("name")} error={err("name")} />
        <fieldset className="grid gap-4">
          <legend className="mb-1 font-semibold">Delivery address</legend>
          <Field label="Address line 1" name="line1" autoComplete="address-line1" required maxLength={100} defaultValue={value("line1")} error={err("line1")} />
          <Field label="Address line 2" name="line2" autoComplete="address-line2" optional maxLength={100} defaultValue={value("line2")} error={err("line2")} />
          <div className="grid gap-4 sm:grid-cols-3">
            <Field label="Town or city" name="town" autoComplete="address-level2" required maxLength={60} defaultValue={value("town")} error={err("town")} />
            <Field label="County" name="county" optional maxLength={60} defaultValue={value("county")} error={err("county")} />
            <Field label="Postcode" name="postcode" autoComplete="postal-code" required autoCapitalize="characters" inputClassName="uppercase" defaultValue={value("postcode")} error={err("postcode")} />
          </div>
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Contact on site" name="contact_name" optional maxLength={100} hint="Who takes deliveries there." defaultValue={value("contact_name")} error={err("contact_name")} />
          <Field label="Contact's phone" name="contact_phone" type="tel" optional maxLength={30} defaultValue={value("contact_phone")} error={err("contact_phone")} />
        </div>
        <fieldset className="grid gap-3">
          <legend className="mb-1 font-semibold">Purchase orders on account</legend>
          <Checkbox label="Orders for this site need a purchase-order reference" name="po_required" value="yes" defaultChecked={result ? result.values.po_required === "yes" : (editing?.po_required ?? false)} error={err("po_required")} />
          <Field label="PO references start with" name="po_prefix" optional maxLength={20} hint="For example HX-: an order whose reference does not start so is refused." autoCapitalize="characters" inputClassName="uppercase max-w-48" defaultValue={value("po_prefix")} error={err("po_prefix")} />
        </fieldset>
        <div className="flex flex-wrap items-center gap-3">
          <SubmitButton busy={sending} busyLabel="Saving…">
            {editing ? "Save the site" : "Add the site"}
          </SubmitButton>
          {editing ? (
            <Link to="/trade/sites" className="link">
              Cancel
            </Link>
          ) : null}
        </div>
      </Form>
    </section>
  );
}

import { Link, data, redirect } from "react-router";
import { appContext } from "#app-context";
import { AuditHistory } from "../../../components/admin/audit-entries.tsx";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { HireItemForm } from "../../../components/admin/hire-item-form.tsx";
import { type HireUnitResult, HireUnits } from "../../../components/admin/hire-units.tsx";
import { ActionResultBanner, ResultBanner } from "../../../components/admin/result-banner.tsx";
import { notFoundOr, requireSameOrigin, serviceError } from "../../../lib/admin/access.ts";
import { requireHireCatalogueReader } from "../../../lib/admin/hire-access.ts";
import { type HireItemFormValues, hireItemInputFrom, hireItemValuesFrom } from "../../../lib/admin/hire-item-form.ts";
import { formatDateTime } from "../../../lib/admin/format.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { parseProduct } from "../../../../server/modules/catalog/products/product-rules.ts";
import { hireItemPatch, hireUnitCreate, hireUnitPatch } from "../../../../server/modules/hire/item-rules.ts";
import { londonDate } from "../../../../server/modules/hire/pricing.ts";
import { can } from "../../../../server/modules/staff/permissions.ts";
import type { Route } from "./+types/item";
import { OldAddresses, Panel } from "../../../components/admin/panel.tsx";

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData ? `${loaderData.item.name} (hire)` : "Hire item");

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const actor = requireHireCatalogueReader(app.staff, request);
  const item = await app.services.adminHire.get(actor, params.slug).catch(notFoundOr);
  const [categories, audit] = await Promise.all([app.services.adminHire.categories(actor), can(actor.role, "audit.view") ? app.services.audit.forEntity("hire_item", item.slug, 20) : Promise.resolve(null)]);
  const search = new URL(request.url).searchParams;
  const created = search.get("created") === "1";
  const moved = search.get("moved") === "1";
  // Hire depots (issue 30): a unit's depot is shown and, for managers, changed here (a transfer).
  const depots = (await app.services.hireDepots.list()).map((d) => ({ slug: d.slug, name: d.name }));
  return { item, categories, audit, depots, created, moved, today: londonDate(), canManage: can(actor.role, "catalogue.manage"), canSeePhotos: can(actor.role, "catalogue.view") };
}

type Result = HireUnitResult & { message: string; values?: HireItemFormValues; slug?: string };

/** The item's form (intent `save`) and the units' (`add-unit`, `edit-unit`, `retire-unit`, `reinstate-unit`); the service checks catalogue.manage. */
export async function action({ context, request, params }: Route.ActionArgs) {
  requireSameOrigin(request);
  const app = context.get(appContext);
  const actor = requireHireCatalogueReader(app.staff, request);
  if (!can(actor.role, "catalogue.manage")) throw new Response("Your role may read the hire catalogue but not change it.", { status: 403 });
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const hire = app.services.adminHire;
  const unitId = Number(form.get("unit_id"));
  const sent = { asset_number: String(form.get("asset_number") ?? ""), serial_number: String(form.get("serial_number") ?? "") };
  let values: HireItemFormValues | undefined;
  try {
    if (intent === "save") {
      const input = hireItemInputFrom(form);
      const current = await hire.get(actor, params.slug);
      values = hireItemValuesFrom(input, {
        name: current.name,
        slug: current.slug,
        description: current.description,
        hire_category_id: current.category.id,
        specifications: current.specifications,
        day_rate: current.day_rate.toFixed(2),
        weekend_rate: current.weekend_rate.toFixed(2),
        week_rate: current.week_rate.toFixed(2),
        deposit: current.deposit.toFixed(2),
        vat_rate: current.vat_rate,
        product_sku: current.product?.sku ?? "",
      });
      const saved = await hire.update(actor, params.slug, parseProduct(hireItemPatch, input));
      // A new web address moves the screen with it.
      if (saved.slug !== params.slug) return redirect(`/admin/hire/items/${saved.slug}?moved=1`);
      return data<Result>({ ok: true, intent, message: "Saved. The shop's hire page shows it now.", slug: saved.slug });
    }
    if (intent === "add-unit") {
      const unit = await hire.addUnit(actor, params.slug, parseProduct(hireUnitCreate, { asset_number: sent.asset_number, serial_number: sent.serial_number }));
      return data<Result>({ ok: true, intent, message: `Unit ${unit.asset_number} added to the fleet.` });
    }
    if (intent === "edit-unit" || intent === "retire-unit" || intent === "reinstate-unit") {
      if (!Number.isSafeInteger(unitId) || unitId <= 0) return data<Result>({ ok: false, intent, message: "Choose a unit." }, { status: 422 });
      const patch =
        intent === "edit-unit"
          ? parseProduct(hireUnitPatch, { asset_number: sent.asset_number, serial_number: sent.serial_number, ...(form.get("depot") ? { depot: String(form.get("depot")) } : {}) })
          : { active: intent === "reinstate-unit" };
      const unit = await hire.updateUnit(actor, params.slug, unitId, patch);
      const message = intent === "retire-unit" ? `Unit ${unit.asset_number} retired: it is no longer hired out.` : intent === "reinstate-unit" ? `Unit ${unit.asset_number} is back in the fleet.` : `Unit ${unit.asset_number} saved.`;
      return data<Result>({ ok: true, intent, message, unitId });
    }
    return data<Result>({ ok: false, intent, message: "Choose what to do." }, { status: 422 });
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    if (known.status === 404 && intent === "save") notFoundOr(error);
    const message = known.errors ? (intent === "save" ? "Nothing was saved. Check the fields marked below." : Object.values(known.errors).flat().join(" ")) : known.message;
    return data<Result>(
      { ok: false, intent, message, errors: known.errors, values, ...(intent === "save" ? {} : { sent }), ...(Number.isSafeInteger(unitId) && unitId > 0 ? { unitId } : {}) },
      { status: known.status },
    );
  }
}

export default function AdminHireItem({ loaderData, actionData }: Route.ComponentProps) {
  const { item, categories, audit, canManage, today, depots } = loaderData;
  const result = actionData as Result | undefined;
  const refusedSave = result && !result.ok && result.intent === "save" ? result : undefined;
  const values: HireItemFormValues = refusedSave?.values ?? {
    name: item.name,
    slug: item.slug,
    description: item.description,
    hire_category_id: item.category.id,
    specifications: item.specifications,
    day_rate: item.day_rate.toFixed(2),
    weekend_rate: item.weekend_rate.toFixed(2),
    week_rate: item.week_rate.toFixed(2),
    deposit: item.deposit.toFixed(2),
    vat_rate: item.vat_rate,
    product_sku: item.product?.sku ?? "",
  };
  return (
    <>
      <PageHeader
        back={{ to: "/admin/hire/items", label: "Hire catalogue" }}
        title={item.name}
        intro={
          <>
            {item.category.name} · {item.units} unit{item.units === 1 ? "" : "s"} in the fleet · updated {formatDateTime(item.updated_at)}
          </>
        }
        actions={
          <>
            <a href={`/hire/${item.slug}`} className="btn-secondary" target="_blank" rel="noreferrer">
              View on the shop<span className="sr-only"> (opens in a new tab)</span>
            </a>
            {loaderData.canSeePhotos ? (
              <Link to={`/admin/hire/items/${item.slug}/photos`} className="btn-secondary">
                Photos ({item.photos})
              </Link>
            ) : null}
          </>
        }
      />
      {loaderData.created && !result ? (
        <ResultBanner ok result="created">
          Hire item created. Add its units below, and its photos.
        </ResultBanner>
      ) : null}
      {loaderData.moved && !result ? (
        <ResultBanner ok result="moved">
          Saved at its new web address, /hire/{item.slug}; the old one redirects here.
        </ResultBanner>
      ) : null}
      <ActionResultBanner result={result} />
      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="grid content-start gap-8">
          <HireItemForm
            key={`${item.updated_at}:${JSON.stringify(refusedSave?.values ?? null)}`}
            values={values}
            categories={categories}
            errors={refusedSave?.errors}
            canManage={canManage}
            today={today}
            submitLabel="Save changes"
            isNew={false}
          />
          <HireUnits units={item.unit_list} depots={depots} canManage={canManage} result={result && result.intent !== "save" ? result : undefined} />
        </div>
        <aside className="grid content-start gap-4 text-sm">
          {item.product ? (
            <Panel id="for-sale" title="For sale too" small>
              <Link to={`/admin/products/${encodeURIComponent(item.product.sku)}`} className="link">
                {item.product.name}
              </Link>{" "}
              <span className="font-mono text-xs text-stone-600">{item.product.sku}</span>
            </Panel>
          ) : null}
          <OldAddresses base="/hire" slugs={item.old_slugs} what="this hire item" />
        </aside>
      </div>
      {audit ? <AuditHistory entries={audit} className="mt-8" /> : null}
    </>
  );
}

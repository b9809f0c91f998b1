import { Form, Link, useNavigation } from "react-router";
import { AddForm, DescriptionField, NameAddressFields, intentErrors } from "../../components/admin/name-address-fields.tsx";
import { PageHeader } from "../../components/admin/page-header.tsx";
import { ActionResultBanner } from "../../components/admin/result-banner.tsx";
import { type IntentResult, intentAction } from "../../lib/admin/intent-action.ts";
import { pageMeta } from "../../lib/meta.ts";
import { can } from "../../../server/modules/staff/permissions.ts";
import type { Route } from "./+types/brands";
import { staffPost, staffScreen } from "../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Brands");

export async function loader({ context, request }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "catalogue.view");
  return { brands: await app.services.adminTree.brands(actor), manage: can(actor.role, "catalogue.manage") };
}

type Result = IntentResult;

export async function action({ context, request }: Route.ActionArgs) {
  const { app, actor, form } = await staffPost(context, request, "catalogue.manage");
  return intentAction(form, async ({ intent, id, text }) => {
    if (intent === "create") {
      const made = await app.services.adminTree.createBrand(actor, { name: text("name"), description: text("description"), ...(text("slug").trim() ? { slug: text("slug") } : {}) });
      return { id: made.id, message: `Added the brand “${made.name}”. Choose it on a product's page.` };
    }
    if (intent === "update") {
      const saved = await app.services.adminTree.updateBrand(actor, id, { name: text("name"), slug: text("slug"), description: text("description") });
      return { message: `Saved “${saved.name}”.` };
    }
    return undefined;
  });
}

export default function AdminBrands({ loaderData, actionData }: Route.ComponentProps) {
  const { brands, manage } = loaderData;
  const result = actionData as Result | undefined;
  const busy = useNavigation().state === "submitting";
  const errorsFor = (intent: string, id?: number) => intentErrors(result, intent, id);
  return (
    <>
      <PageHeader title="Brands" intro="Each brand has its page on the shop and is a filter on category pages." actions={<Link to="/admin/categories" className="btn-secondary">Categories</Link>} />
      <ActionResultBanner result={result} />
      {manage ? (
        <AddForm id="add-brand" title="Add a brand" columns="sm:grid-cols-[1fr_1fr_auto]" result={result} busy={busy} />
      ) : null}
      <ul className="grid gap-2 sm:grid-cols-2 xl:grid-cols-3" aria-label="Brands">
        {brands.map((b) => {
          const errors = errorsFor("update", b.id);
          return (
            <li key={b.id} className="rounded-lg border border-stone-200 bg-white p-3">
              <p className="font-semibold">{b.name}</p>
              <p className="text-sm text-stone-600">
                {b.products} product{b.products === 1 ? "" : "s"} ·{" "}
                <Link to={`/admin/products?brand=${b.id}`} className="link">
                  see them
                </Link>
              </p>
              {manage ? (
                <details className="mt-2" open={!!errors}>
                  <summary className="cursor-pointer text-sm font-semibold text-brand-800">Edit {b.name}</summary>
                  <Form method="post" className="mt-2 grid gap-2">
                    <input type="hidden" name="intent" value="update" />
                    <input type="hidden" name="id" value={b.id} />
                    <NameAddressFields errors={errors} values={b} />
                    <DescriptionField label="Description" value={b.description} rows={3} errors={errors} />
                    <div>
                      <button type="submit" className="btn-primary min-h-10" disabled={busy}>
                        Save {b.name}
                      </button>
                    </div>
                  </Form>
                </details>
              ) : null}
            </li>
          );
        })}
      </ul>
    </>
  );
}

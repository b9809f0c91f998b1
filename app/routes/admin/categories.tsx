import { Form, Link, useNavigation } from "react-router";
import { FieldError } from "../../components/admin/field-error.tsx";
import { AddForm, DescriptionField, LIST_CONTROL, NameAddressFields, intentErrors } from "../../components/admin/name-address-fields.tsx";
import { PageHeader } from "../../components/admin/page-header.tsx";
import { ActionResultBanner } from "../../components/admin/result-banner.tsx";
import { type IntentResult, intentAction } from "../../lib/admin/intent-action.ts";
import { pageMeta } from "../../lib/meta.ts";
import { can } from "../../../server/modules/staff/permissions.ts";
import type { Route } from "./+types/categories";
import { Options } from "../../components/admin/options.tsx";
import { staffPost, staffScreen } from "../../lib/admin/staff-route.ts";
import { HeadRow } from "../../components/head-row.tsx";
import { MoveButtons } from "../../components/admin/move-buttons.tsx";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Categories");

export async function loader({ context, request }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "catalogue.view");
  return { categories: await app.services.adminTree.tree(actor), manage: can(actor.role, "catalogue.manage") };
}

type Result = IntentResult;

export async function action({ context, request }: Route.ActionArgs) {
  const { app, actor, form } = await staffPost(context, request, "catalogue.manage");
  return intentAction(form, async ({ intent, id, text, form }) => {
    const parent = () => (text("parent_id") === "" ? null : Number(text("parent_id")));
    if (intent === "create") {
      const made = await app.services.adminTree.createCategory(actor, { name: text("name"), parent_id: parent(), ...(text("slug").trim() ? { slug: text("slug") } : {}) });
      return { id: made.id, message: `Added “${made.name}” at /category/${made.path}. It shows on the shop once products are in it.` };
    }
    if (intent === "update") {
      const saved = await app.services.adminTree.updateCategory(actor, id, { name: text("name"), slug: text("slug"), parent_id: parent(), description: text("description") });
      return { message: `Saved “${saved.name}”: its address is /category/${saved.path}; any old address redirects there.` };
    }
    if (intent === "attributes") {
      const names = form.getAll("attribute_name").map(String);
      const kinds = form.getAll("attribute_kind").map(String);
      const units = form.getAll("attribute_unit").map(String);
      const attributes = names.map((n, i) => ({ name: n, kind: kinds[i] ?? "text", unit: units[i] ?? "" })).filter((a) => a.name.trim() !== "");
      const saved = await app.services.adminTree.setAttributes(actor, id, { attributes });
      return { message: `Saved the attributes of “${saved.name}”: ${saved.attributes.length ? saved.attributes.map((a) => a.name).join(", ") : "none"}. Its products' values are checked against them from their next save.` };
    }
    if (intent === "move") {
      const direction = text("direction") === "down" ? "down" : "up";
      const done = await app.services.adminTree.moveCategory(actor, id, direction);
      return { message: done.moved ? `Moved ${direction}.` : `Already ${direction === "up" ? "first" : "last"} among its neighbours.` };
    }
    return undefined;
  });
}

const control = LIST_CONTROL;
type Category = Awaited<ReturnType<typeof loader>>["categories"][number];

/** Every category as a parent to choose, indented; `except` leaves out one and its own subcategories. */
function ParentOptions({ categories, except }: { categories: Category[]; except?: Category }) {
  return (
    <>
      <option value="">At the top</option>
      {categories
        .filter((c) => !except || (c.id !== except.id && !c.path.startsWith(`${except.path}/`)))
        .map((c) => (
          <option key={c.id} value={c.id}>
            {"\u00a0\u00a0".repeat(c.depth)}
            {c.name}
          </option>
        ))}
    </>
  );
}

const KIND_LABELS = { text: "Text", number: "Number", yes_no: "Yes or no" } as const;

/** The attributes a category's products have, typed; two spare rows to add one; a blank name removes a row. */
function AttributeSetForm({ category, errors, busy }: { category: Category; errors: Record<string, string[]> | undefined; busy: boolean }) {
  const rows = [...category.attributes, { name: "", kind: "text" as const, unit: "" }, { name: "", kind: "text" as const, unit: "" }];
  return (
    <Form method="post" className="mt-4 grid gap-2 border-t border-stone-100 pt-3">
      <input type="hidden" name="intent" value="attributes" />
      <input type="hidden" name="id" value={category.id} />
      <h3 className="text-sm font-bold">Attributes its products have</h3>
      <p className="text-sm text-stone-600">Asked for on each product's page, a number with its unit or a yes/no where it should be, so the category's filters read alike. Its subcategories inherit them.</p>
      <FieldError messages={errors ? Object.values(errors).flat() : undefined} />
      <table className="w-full text-sm">
        <thead>
          <HeadRow className="text-left" cells={[["Name", "font-semibold"], ["Kind", "pl-2 font-semibold"], ["Unit (numbers)", "pl-2 font-semibold"]]} />
        </thead>
        <tbody>
          {rows.map((a, i) => (
            <tr key={i}>
              <td className="py-1">
                <input name="attribute_name" defaultValue={a.name} maxLength={60} aria-label={`${category.name}: attribute ${i + 1} name`} className={control} />
              </td>
              <td className="py-1 pl-2">
                <select name="attribute_kind" defaultValue={a.kind} aria-label={`${category.name}: attribute ${i + 1} kind`} className={control}>
                  <Options of={Object.entries(KIND_LABELS)} value={([value]) => value} label={([, label]) => label} />
                </select>
              </td>
              <td className="py-1 pl-2">
                <input name="attribute_unit" defaultValue={a.unit} maxLength={10} aria-label={`${category.name}: attribute ${i + 1} unit`} placeholder="e.g. mm" className={control} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div>
        <button type="submit" className="btn-secondary min-h-10" disabled={busy}>
          Save the attributes of {category.name}
        </button>
      </div>
    </Form>
  );
}

export default function AdminCategories({ loaderData, actionData }: Route.ComponentProps) {
  const { categories, manage } = loaderData;
  const result = actionData as Result | undefined;
  const busy = useNavigation().state === "submitting";
  const errorsFor = (intent: string, id?: number) => intentErrors(result, intent, id);
  const createErrors = errorsFor("create");
  return (
    <>
      <PageHeader title="Categories" intro="The shop's menu and category pages follow this tree. Renaming a web address or moving a category keeps its old address, and its subcategories', redirecting to the new one." actions={<Link to="/admin/brands" className="btn-secondary">Brands</Link>} />
      <ActionResultBanner result={result} />
      {manage ? (
        <AddForm id="add-category" title="Add a category" columns="sm:grid-cols-[1fr_1fr_1fr_auto]" result={result} busy={busy}>
          <label className="grid gap-1 text-sm font-semibold">
            Under
            <select name="parent_id" className={control}>
              <ParentOptions categories={categories} />
            </select>
            <FieldError messages={createErrors?.parent_id} />
          </label>
        </AddForm>
      ) : null}

      <ul className="grid gap-1" aria-label="Category tree">
        {categories.map((c) => {
          const siblings = categories.filter((s) => s.parent_id === c.parent_id);
          const first = siblings[0]?.id === c.id;
          const last = siblings[siblings.length - 1]?.id === c.id;
          const errors = errorsFor("update", c.id);
          return (
            <li key={c.id} className="min-w-0 rounded-md border border-stone-200 bg-white" style={{ marginLeft: `${c.depth * 1.5}rem` }} data-testid="category-row">
              <div className="flex flex-wrap items-center gap-2 px-3 py-2">
                <span className="min-w-0 flex-1">
                  <span className="font-semibold">{c.name}</span> <span className="text-sm text-stone-600">· {c.products} product{c.products === 1 ? "" : "s"}</span>
                  <a href={`/category/${c.path}`} className="link block truncate font-mono text-xs" target="_blank" rel="noreferrer">
                    /category/{c.path}
                    <span className="sr-only"> (opens the shop in a new tab)</span>
                  </a>
                </span>
                {manage ? (
                  <span className="flex gap-1">
                    <MoveButtons id={c.id} name={c.name} first={first} last={last} busy={busy} buttonClassName="btn-secondary min-h-9 px-2 text-sm" labels={{ up: "↑", down: "↓" }} />
                  </span>
                ) : null}
              </div>
              {manage ? (
                <details className="border-t border-stone-100 px-3 py-2" open={!!errors || !!errorsFor("attributes", c.id)}>
                  <summary className="cursor-pointer text-sm font-semibold text-brand-800">Edit {c.name}</summary>
                  <Form method="post" className="mt-2 grid gap-3 sm:grid-cols-3">
                    <input type="hidden" name="intent" value="update" />
                    <input type="hidden" name="id" value={c.id} />
                    <NameAddressFields errors={errors} values={c} />
                    <label className="grid gap-1 text-sm font-semibold">
                      Under
                      <select name="parent_id" defaultValue={c.parent_id ?? ""} className={control}>
                        <ParentOptions categories={categories} except={c} />
                      </select>
                      <FieldError messages={errors?.parent_id} />
                    </label>
                    <DescriptionField label="Description (shown at the top of its page)" value={c.description} rows={2} errors={errors} className="sm:col-span-3" />
                    <div className="sm:col-span-3">
                      <button type="submit" className="btn-primary min-h-10" disabled={busy}>
                        Save {c.name}
                      </button>
                    </div>
                  </Form>
                  <AttributeSetForm category={c} errors={errorsFor("attributes", c.id)} busy={busy} />
                </details>
              ) : null}
            </li>
          );
        })}
      </ul>
    </>
  );
}

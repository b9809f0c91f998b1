import { data, redirect } from "react-router";
import { NewScreen } from "../../../components/admin/new-screen.tsx";
import { HireItemForm } from "../../../components/admin/hire-item-form.tsx";
import { serviceError } from "../../../lib/admin/access.ts";
import { EMPTY_HIRE_ITEM, type HireItemFormValues, hireItemInputFrom, hireItemValuesFrom } from "../../../lib/admin/hire-item-form.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { parseProduct } from "../../../../server/modules/catalog/products/product-rules.ts";
import { hireItemCreate } from "../../../../server/modules/hire/item-rules.ts";
import { londonDate } from "../../../../server/modules/hire/pricing.ts";
import type { Route } from "./+types/new";
import { staffPost, staffScreen } from "../../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "New hire item");

export async function loader({ context, request }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "catalogue.manage");
  return { categories: await app.services.adminHire.categories(actor), today: londonDate() };
}

type Result = { ok: false; message: string; errors?: Record<string, string[]>; values: HireItemFormValues };

export async function action({ context, request }: Route.ActionArgs) {
  const { app, actor, form } = await staffPost(context, request, "catalogue.manage");
  const input = hireItemInputFrom(form);
  // Nothing typed is lost on a refusal: the form comes back as it was sent.
  const values = hireItemValuesFrom(input);
  try {
    const made = await app.services.adminHire.create(actor, parseProduct(hireItemCreate, input));
    return redirect(`/admin/hire/items/${made.slug}?created=1`);
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    return data<Result>({ ok: false, message: known.errors ? "Check the fields marked below." : known.message, errors: known.errors, values }, { status: known.status });
  }
}

export default function NewHireItem({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData as Result | undefined;
  return (
    <NewScreen back={{ to: "/admin/hire/items", label: "Hire catalogue" }} title="New hire item" intro="It is on the shop's hire pages as soon as it is saved; add its units and photos next." result={result}>
      <HireItemForm
        values={result?.values ?? EMPTY_HIRE_ITEM}
        categories={loaderData.categories}
        errors={result?.errors}
        canManage
        today={loaderData.today}
        submitLabel="Create the hire item"
        isNew
      />
    </NewScreen>
  );
}

import { Link, data, redirect } from "react-router";
import { appContext } from "#app-context";
import { AdminHeading } from "../../../components/admin/frame.tsx";
import { ProductForm, type ProductFormValues } from "../../../components/admin/product-form.tsx";
import { ResultBanner } from "../../../components/admin/result-banner.tsx";
import { requirePermission, requireSameOrigin, serviceError } from "../../../lib/admin/access.ts";
import { productInputFrom } from "../../../lib/admin/product-form.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { parseProduct, productCreate } from "../../../../server/modules/catalog/product-rules.ts";
import { DEFAULT_REORDER_LEVEL } from "../../../../server/modules/catalog/product-status.ts";
import type { Route } from "./+types/new";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "New product");

export async function loader({ context, request }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const actor = requirePermission(app.staff, request, "catalogue.manage");
  return { choices: await app.services.adminProducts.choices(actor) };
}

type Result = { ok: false; message: string; errors?: Record<string, string[]>; values: ProductFormValues };

export async function action({ context, request }: Route.ActionArgs) {
  requireSameOrigin(request);
  const app = context.get(appContext);
  const actor = requirePermission(app.staff, request, "catalogue.manage");
  const form = await request.formData();
  const input = productInputFrom(form, { catalogue: true, stock: true });
  // Nothing typed is lost on a refusal: the form comes back as it was sent.
  const values = valuesFrom(input);
  try {
    const made = await app.services.adminProducts.create(actor, parseProduct(productCreate, input));
    return redirect(`/admin/products/${encodeURIComponent(made.sku)}?created=1`);
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    return data<Result>({ ok: false, message: known.errors ? "Check the fields marked below." : known.message, errors: known.errors, values }, { status: known.status });
  }
}

const EMPTY: ProductFormValues = {
  sku: "",
  name: "",
  slug: "",
  status: "draft",
  summary: "",
  description_html: "",
  brand_id: null,
  category_ids: [],
  vat_rate: 20,
  price_ex_vat: "",
  was_price_ex_vat: "",
  stock: 0,
  reorder_level: DEFAULT_REORDER_LEVEL,
  heavy: false,
  returnable: true,
  non_returnable_reason: "",
  featured: false,
  attributes: [],
  related_skus: [],
  seo_title: "",
  seo_description: "",
  attribute_set: [],
};

/** What was sent, as the form shows it again after a refusal. */
function valuesFrom(input: Record<string, unknown>): ProductFormValues {
  const str = (k: string) => (typeof input[k] === "string" ? (input[k] as string) : "");
  return {
    ...EMPTY,
    sku: str("sku"),
    name: str("name"),
    slug: str("slug"),
    status: (["draft", "published", "archived"] as const).find((s) => s === input.status) ?? "draft",
    summary: str("summary"),
    description_html: str("description_html"),
    brand_id: input.brand_id ? Number(input.brand_id) : null,
    category_ids: Array.isArray(input.category_ids) ? input.category_ids.map(Number) : [],
    vat_rate: Number(input.vat_rate ?? 20),
    price_ex_vat: str("price_ex_vat"),
    was_price_ex_vat: typeof input.was_price_ex_vat === "string" ? input.was_price_ex_vat : "",
    stock: Number(input.stock ?? 0) || 0,
    reorder_level: Number(input.reorder_level ?? DEFAULT_REORDER_LEVEL) || 0,
    heavy: input.heavy === true,
    returnable: input.returnable !== false,
    non_returnable_reason: str("non_returnable_reason"),
    featured: input.featured === true,
    attributes: Array.isArray(input.attributes) ? (input.attributes as { name: string; value: string }[]) : [],
    related_skus: Array.isArray(input.related_skus) ? (input.related_skus as string[]) : [],
    seo_title: str("seo_title"),
    seo_description: str("seo_description"),
  };
}

export default function NewProduct({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData as Result | undefined;
  return (
    <>
      <p className="mb-2 text-sm">
        <Link to="/admin/products" className="link">
          ← Products
        </Link>
      </p>
      <AdminHeading title="New product" intro="It starts as a draft: nobody sees it on the shop until you publish it. Add photos once it is saved." />
      {result ? (
        <ResultBanner ok={false} result={result}>
          {result.message}
        </ResultBanner>
      ) : null}
      {/* A new key after each refusal: the form shows what was sent. */}
      <ProductForm key={JSON.stringify(result?.values ?? null)} values={result?.values ?? EMPTY} choices={loaderData.choices} errors={result?.errors} access={{ catalogue: true, stock: true }} submitLabel="Create the product" isNew />
    </>
  );
}

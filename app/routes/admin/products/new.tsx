import { data, redirect } from "react-router";
import { NewScreen } from "../../../components/admin/new-screen.tsx";
import { ProductForm, type ProductFormValues } from "../../../components/admin/product-form.tsx";
import { serviceError } from "../../../lib/admin/access.ts";
import { PHOTO_FORM_MAX } from "../../../lib/admin/photo-action.ts";
import { productInputFrom } from "../../../lib/admin/product-form.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { parseProduct, productCreate } from "../../../../server/modules/catalog/products/product-rules.ts";
import { DEFAULT_REORDER_LEVEL } from "../../../../server/modules/catalog/products/product-status.ts";
import type { Route } from "./+types/new";
import { staffPost, staffScreen } from "../../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "New product");

export async function loader({ context, request }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "catalogue.manage");
  return { choices: await app.services.adminProducts.choices(actor) };
}

type Result = { ok: false; message: string; errors?: Record<string, string[]>; values: ProductFormValues };

export async function action({ context, request }: Route.ActionArgs) {
  const { app, actor, form } = await staffPost(context, request, "catalogue.manage");
  if (Number(request.headers.get("content-length") ?? "0") > PHOTO_FORM_MAX) {
    return data<Result>({ ok: false, message: "Choose at most 10 photos of 20 MB each.", values: EMPTY }, { status: 413 });
  }
  const input = productInputFrom(form, { catalogue: true, stock: true });
  // Nothing typed is lost on a refusal: the form comes back as it was sent (files aside: a browser cannot be handed them back).
  const values = valuesFrom(input);
  const photos = await photosFrom(form);
  try {
    const fields = parseProduct(productCreate, input);
    // The photos are converted and stored first; the product is made with them, or not at all.
    const made = await app.services.adminPhotos.forNewProduct(actor, photos, (images) => app.services.adminProducts.create(actor, fields, { images }));
    return redirect(`/admin/products/${encodeURIComponent(made.sku)}?created=1`);
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    const errors = photoErrors(known, photos.length);
    const again = photos.length ? " Choose the photos again." : "";
    return data<Result>({ ok: false, message: `${errors ? "Nothing was saved. Check the fields marked below." : known.message}${again}`, errors, values }, { status: known.status });
  }
}

/** The chosen photos with their alt text, rows left without a file dropped. */
async function photosFrom(form: FormData) {
  const alts = form.getAll("photo_alt").map(String);
  const chosen = form.getAll("photo").map((file, i) => ({ file, alt: alts[i] ?? "" }));
  const files = chosen.filter((c): c is { file: File; alt: string } => typeof c.file !== "string" && c.file.size > 0);
  return Promise.all(files.map(async (c) => ({ filename: c.file.name, bytes: Buffer.from(await c.file.arrayBuffer()), alt: c.alt })));
}

/** A refused photo (the media pipeline's message, or its `file` field) shown beside the photos; a missing alt text too. */
function photoErrors(known: { message: string; errors?: Record<string, string[]> }, chosen: number): Record<string, string[]> | undefined {
  if (!known.errors) return chosen && known.message ? { photos: [known.message] } : undefined;
  const { file, published, ...rest } = known.errors;
  const aboutPhotos = chosen > 0 && published?.some((m) => m.includes("alt text"));
  const photos = [...(rest.photos ?? []), ...(file ?? []), ...(aboutPhotos ? published! : [])];
  return { ...rest, ...(published && !aboutPhotos ? { published } : {}), ...(photos.length ? { photos } : {}) };
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
  bin_location: "",
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
    bin_location: str("bin_location"),
  };
}

export default function NewProduct({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData as Result | undefined;
  return (
    <NewScreen back={{ to: "/admin/products", label: "Products" }} title="New product" intro="Choose its photos here too. As a draft nobody sees it on the shop; published, it is on sale as soon as it is created." result={result}>
      <ProductForm values={result?.values ?? EMPTY} choices={loaderData.choices} errors={result?.errors} access={{ catalogue: true, stock: true }} submitLabel="Create the product" isNew />
    </NewScreen>
  );
}

import { Link, data } from "react-router";
import { AuditHistory } from "../../../components/admin/audit-entries.tsx";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { ProductForm, type ProductFormValues } from "../../../components/admin/product-form.tsx";
import { ActionResultBanner, ResultBanner } from "../../../components/admin/result-banner.tsx";
import { notFoundOr, serviceError } from "../../../lib/admin/access.ts";
import { formatDateTime } from "../../../lib/admin/format.ts";
import { productInputFrom, sendsCatalogueFields } from "../../../lib/admin/product-form.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { formatPounds } from "../../../lib/money.ts";
import { parseProduct, productPatch } from "../../../../server/modules/catalog/products/product-rules.ts";
import { can } from "../../../../server/modules/staff/permissions.ts";
import { KIND_LABELS } from "../../../../server/modules/stock/kinds.ts";
import type { Route } from "./+types/product";
import { OldAddresses, Panel } from "../../../components/admin/panel.tsx";
import { staffPost, staffScreen } from "../../../lib/admin/staff-route.ts";
import { HeadRow } from "../../../components/head-row.tsx";

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData ? `${loaderData.product.name} (${loaderData.product.sku})` : "Product");

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "catalogue.view");
  const product = await app.services.adminProducts.get(actor, params.sku).catch(notFoundOr);
  const mayAudit = can(actor.role, "audit.view");
  const [choices, audit] = await Promise.all([app.services.adminProducts.choices(actor), mayAudit ? app.services.audit.forEntity("product", product.sku, 20) : Promise.resolve(null)]);
  const created = new URL(request.url).searchParams.get("created") === "1";
  return { product, choices, audit, created, access: { catalogue: can(actor.role, "catalogue.manage"), stock: can(actor.role, "stock.count") } };
}

type Result = { ok: boolean; message: string; errors?: Record<string, string[]> };

export async function action({ context, request, params }: Route.ActionArgs) {
  const { app, actor, form } = await staffPost(context, request, "catalogue.view");
  const access = { catalogue: can(actor.role, "catalogue.manage"), stock: can(actor.role, "stock.count") };
  if (!access.catalogue && !access.stock) throw new Response("Your role does not allow this.", { status: 403 });
  // The catalogue's fields are disabled (never sent) on this role's form: a post carrying them is refused, not half-applied.
  if (!access.catalogue && sendsCatalogueFields(form)) throw new Response("Your role may change the stock and reorder level only.", { status: 403 });
  try {
    const input = productInputFrom(form, access);
    if (Object.keys(input).length === 0) return data<Result>({ ok: true, message: "Nothing to save: the stock is as it was." });
    const saved = await app.services.adminProducts.update(actor, params.sku, parseProduct(productPatch, input));
    const where = saved.status === "published" ? "It is on the shop now." : saved.status === "draft" ? "It is a draft: not on the shop." : "It is archived: not on the shop.";
    return data<Result & { sku: string }>({ ok: true, message: `Saved. ${where}`, sku: saved.sku });
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    return data<Result>({ ok: false, message: known.errors ? "Nothing was saved. Check the fields marked below." : known.message, errors: known.errors }, { status: known.status });
  }
}

export default function AdminProduct({ loaderData, actionData }: Route.ComponentProps) {
  const { product, choices, audit, access } = loaderData;
  const result = actionData as (Result & { sku?: string }) | undefined;
  const values: ProductFormValues = {
    sku: product.sku,
    name: product.name,
    slug: product.slug,
    status: product.status,
    summary: product.summary,
    description_html: product.description_html,
    brand_id: product.brand?.id ?? null,
    category_ids: product.categories.map((c) => c.id),
    vat_rate: product.vat_rate,
    price_ex_vat: product.price_ex_vat.toFixed(2),
    was_price_ex_vat: product.was_price_ex_vat === null ? "" : product.was_price_ex_vat.toFixed(2),
    stock: product.stock,
    reorder_level: product.reorder_level,
    heavy: product.heavy,
    returnable: product.returnable,
    non_returnable_reason: product.non_returnable_reason,
    featured: product.featured,
    attributes: product.attributes,
    related_skus: product.related.map((r) => r.sku),
    seo_title: product.seo_title,
    seo_description: product.seo_description,
    bin_location: product.bin_location,
    attribute_set: product.attribute_set,
  };
  const statusLabel = { draft: "Draft", published: "Published", archived: "Archived" }[product.status];
  const activeVariants = product.variants.filter((v) => v.status === "active").length;
  const variantsHref = `/admin/products/${encodeURIComponent(product.sku)}/variants`;
  return (
    <>
      <PageHeader
        back={{ to: "/admin/products", label: "Products" }}
        title={product.name}
        intro={
          <>
            <span className="font-mono">{product.sku}</span> ·{" "}
            <span className={`rounded px-1.5 py-0.5 text-sm font-semibold ${product.status === "published" ? "bg-green-100 text-green-900" : "bg-stone-200 text-stone-800"}`}>{statusLabel}</span> · updated{" "}
            {formatDateTime(product.updated_at)}
          </>
        }
        actions={
          <>
            {product.status === "published" ? (
              <a href={`/product/${product.slug}`} className="btn-secondary" target="_blank" rel="noreferrer">
                View on the shop<span className="sr-only"> (opens in a new tab)</span>
              </a>
            ) : null}
            <Link to={`/admin/products/${encodeURIComponent(product.sku)}/photos`} className="btn-secondary">
              Photos ({product.photos})
            </Link>
            <Link to={variantsHref} className="btn-secondary">
              Options and variants ({activeVariants})
            </Link>
          </>
        }
      />
      {loaderData.created && !result ? (
        <ResultBanner ok result="created">
          {createdMessage(product.status, product.photos)}
        </ResultBanner>
      ) : null}
      <ActionResultBanner result={result} />
      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
        <ProductForm
          key={product.updated_at}
          values={values}
          choices={choices}
          errors={result?.ok === false ? result.errors : undefined}
          access={access}
          submitLabel="Save changes"
          isNew={false}
          variants={{ count: activeVariants, href: variantsHref }}
        />
        <aside className="grid content-start gap-4 text-sm">
          <Panel id="trade-prices" title="Trade prices" small>
            {product.trade_prices.length === 0 ? (
              <p className="text-stone-700">No approved trade account has a discount; trade customers pay {formatPounds(product.price_ex_vat)} ex VAT.</p>
            ) : (
              <table className="w-full">
                <caption className="sr-only">What approved trade accounts pay, by their discount</caption>
                <thead>
                  <HeadRow className="text-left text-stone-700" cells={[["Discount"], ["Accounts"], ["Ex VAT", "text-right"], ["Inc VAT", "text-right"]]} />
                </thead>
                <tbody>
                  {product.trade_prices.map((t) => (
                    <tr key={t.discount_percent}>
                      <td>{t.discount_percent}%</td>
                      <td>{t.accounts}</td>
                      <td className="text-right">{formatPounds(t.price_ex_vat)}</td>
                      <td className="text-right">{formatPounds(t.price_inc_vat)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </Panel>
          <Panel id="stock-history" title="Stock movements" small>
            {product.stock_movements.length === 0 ? (
              <p className="text-stone-700">No stock has moved yet.</p>
            ) : (
              <ul className="grid gap-1.5">
                {product.stock_movements.map((m) => (
                  <li key={m.id} className="flex justify-between gap-2">
                    <span>
                      <span className="font-semibold">{KIND_LABELS[m.kind as keyof typeof KIND_LABELS] ?? m.kind}</span> {m.reason ? <span className="text-stone-700">· {m.reason}</span> : null}
                      <span className="block text-xs text-stone-600">{formatDateTime(m.at)}</span>
                    </span>
                    <span className="whitespace-nowrap text-right">
                      <span className={m.change < 0 ? "text-red-800" : "text-green-800"}>{m.change > 0 ? `+${m.change}` : m.change}</span>
                      <span className="block text-xs text-stone-600">→ {m.stock_after}</span>
                    </span>
                  </li>
                ))}
              </ul>
            )}
            <Link to={activeVariants > 1 ? `/admin/stock?product=${encodeURIComponent(product.sku)}` : `/admin/stock?sku=${encodeURIComponent(product.sku)}`} className="link mt-2 inline-block">
              {activeVariants > 1 ? `Every movement of its ${activeVariants} variants` : `Every movement of ${product.sku}`}
            </Link>
          </Panel>
          <OldAddresses base="/product" slugs={product.old_slugs} what="this product" />
        </aside>
      </div>
      {audit ? <AuditHistory entries={audit} className="mt-8" /> : null}
    </>
  );
}

/** What the banner says after a create: only what is left to do, and nothing when it is on sale with its photos. */
function createdMessage(status: "draft" | "published" | "archived", photos: number): string {
  const withPhotos = photos ? ` with ${photos === 1 ? "its photo" : `its ${photos} photos`}` : "";
  if (status === "published") return `Product created${withPhotos} and on the shop now.${photos ? "" : " It shows a drawn picture until it has a photo: add some under Photos."}`;
  return `Product created${withPhotos} as a draft: nobody sees it on the shop until you choose “Published” and save.`;
}

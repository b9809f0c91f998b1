import { appContext } from "#app-context";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { PhotoManager } from "../../../components/admin/photo-manager.tsx";
import { ActionResultBanner } from "../../../components/admin/result-banner.tsx";
import { notFoundOr } from "../../../lib/admin/access.ts";
import { type PhotoActionResult, photoScreenAction } from "../../../lib/admin/photo-action.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { optionsLabel } from "../../../../server/modules/catalog/variants/variant-names.ts";
import { can } from "../../../../server/modules/staff/permissions.ts";
import type { Route } from "./+types/variant-photos";
import { staffScreen } from "../../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches, params }) => pageMeta(matches, `Photos of ${params.sku}`);

/** A variant's own photos (issue 29): shown on the product page when it is chosen; without any, the product's are. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "catalogue.view");
  const owner = { kind: "variant", sku: params.sku } as const;
  const [{ images }, { product, variants }] = await Promise.all([app.services.adminPhotos.list(actor, owner), app.services.adminVariants.list(actor, params.sku)]).catch(notFoundOr);
  const variant = variants.find((v) => v.sku.toLowerCase() === params.sku.toLowerCase())!;
  return { sku: variant.sku, label: optionsLabel(variant.options), product: { sku: product.sku, name: product.name }, images, canManage: can(actor.role, "catalogue.manage") };
}

/** The forms without scripts (app/lib/admin/photo-action.ts); the service checks catalogue.manage. */
export async function action({ context, request, params }: Route.ActionArgs) {
  return photoScreenAction(context.get(appContext), request, { kind: "variant", sku: params.sku }, {
    what: "variant",
    altCleared: "Alt text cleared: describe the photo for whoever cannot see it.",
  });
}

export default function AdminVariantPhotos({ loaderData, actionData }: Route.ComponentProps) {
  const { sku, label, product, images, canManage } = loaderData;
  const result = actionData as PhotoActionResult | undefined;
  const productHref = `/admin/products/${encodeURIComponent(product.sku)}`;
  return (
    <>
      <PageHeader
        crumbs={[
          { label: "Products", to: "/admin/products" },
          { label: product.name, to: productHref },
          { label: "Options and variants", to: `${productHref}/variants` },
          { label: `Photos of ${sku}` },
        ]}
        title={`Photos of ${product.name}${label ? ` (${label})` : ""}`}
        intro={`${sku}'s own photos, shown on the product page when a customer chooses it; the first leads. With none, the product's photos are shown.`}
      />
      <ActionResultBanner result={result} />
      <PhotoManager images={images} canManage={canManage} result={result} uploadUrl={`/api/admin/variants/${encodeURIComponent(sku)}/images`} emptyText="No photos of its own yet: the storefront shows the product's." />
    </>
  );
}

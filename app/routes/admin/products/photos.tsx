import { appContext } from "#app-context";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { PhotoManager } from "../../../components/admin/photo-manager.tsx";
import { ActionResultBanner } from "../../../components/admin/result-banner.tsx";
import { notFoundOr } from "../../../lib/admin/access.ts";
import { type PhotoActionResult, photoScreenAction } from "../../../lib/admin/photo-action.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { can } from "../../../../server/modules/staff/permissions.ts";
import type { Route } from "./+types/photos";
import { staffScreen } from "../../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches, params }) => pageMeta(matches, `Photos of ${params.sku}`);

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "catalogue.view");
  const { images } = await app.services.adminPhotos.list(actor, { kind: "product", sku: params.sku }).catch(notFoundOr);
  return { sku: params.sku, images, canManage: can(actor.role, "catalogue.manage") };
}

/** The forms without scripts (app/lib/admin/photo-action.ts); the service checks catalogue.manage. */
export async function action({ context, request, params }: Route.ActionArgs) {
  return photoScreenAction(context.get(appContext), request, { kind: "product", sku: params.sku }, {
    what: "product",
    altCleared: "Alt text cleared: the product cannot be published until every photo has some.",
  });
}

export default function AdminProductPhotos({ loaderData, actionData }: Route.ComponentProps) {
  const { sku, images, canManage } = loaderData;
  const result = actionData as PhotoActionResult | undefined;
  return (
    <>
      <PageHeader crumbs={[{ label: "Products", to: "/admin/products" }, { label: sku, to: `/admin/products/${encodeURIComponent(sku)}` }, { label: "Photos" }]} title={`Photos of ${sku}`} intro="The first photo is the one listings show. Describe every photo (alt text) before the product is published." />
      <ActionResultBanner result={result} />
      <PhotoManager images={images} canManage={canManage} result={result} uploadUrl={`/api/admin/products/${encodeURIComponent(sku)}/images`} />
    </>
  );
}

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

export const meta: Route.MetaFunction = ({ matches, params }) => pageMeta(matches, `Photos of ${params.slug}`);

/** A hire item's photos: the products' photos screen, for `/api/admin/hire/items/{slug}/images`. */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "catalogue.view");
  const owner = { kind: "hire_item" as const, slug: params.slug };
  const [{ images }, item] = await Promise.all([app.services.adminPhotos.list(actor, owner), app.services.adminHire.get(actor, params.slug)]).catch(notFoundOr);
  return { slug: params.slug, name: item.name, images, canManage: can(actor.role, "catalogue.manage") };
}

/** The forms without scripts (app/lib/admin/photo-action.ts); the service checks catalogue.manage. */
export async function action({ context, request, params }: Route.ActionArgs) {
  return photoScreenAction(context.get(appContext), request, { kind: "hire_item", slug: params.slug }, { what: "hire item", altCleared: "Alt text cleared. Describe every photo for whoever cannot see it." });
}

export default function AdminHireItemPhotos({ loaderData, actionData }: Route.ComponentProps) {
  const { slug, name, images, canManage } = loaderData;
  const result = actionData as PhotoActionResult | undefined;
  return (
    <>
      <PageHeader crumbs={[{ label: "Hire catalogue", to: "/admin/hire/items" }, { label: name, to: `/admin/hire/items/${slug}` }, { label: "Photos" }]} title={`Photos of ${name}`} intro="The first photo is the one the hire pages show first. Describe every photo (alt text) for whoever cannot see it." />
      <ActionResultBanner result={result} />
      <PhotoManager images={images} canManage={canManage} result={result} uploadUrl={`/api/admin/hire/items/${slug}/images`} />
    </>
  );
}

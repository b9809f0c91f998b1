import { data, redirect, useNavigation } from "react-router";
import { NewScreen } from "../../../components/admin/new-screen.tsx";
import { PromotionForm } from "../../../components/admin/promotion-form.tsx";
import { savePromotion } from "../../../lib/admin/promotion-save.server.ts";
import { EMPTY_PROMOTION, promotionHref } from "../../../lib/admin/promotions.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { can } from "../../../../server/modules/staff/permissions.ts";
import type { Route } from "./+types/new";
import { staffPost, staffScreen } from "../../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "New promotion");

export async function loader({ context, request }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "promotions.manage");
  // Categories and brands to choose from, as the catalogue desk lists them (every role that manages promotions reads the catalogue).
  return { choices: can(actor.role, "catalogue.view") ? await app.services.adminProducts.choices(actor) : { categories: [], brands: [] } };
}

export async function action({ context, request }: Route.ActionArgs) {
  const { app, actor, form } = await staffPost(context, request, "promotions.manage");
  const saved = await savePromotion(app.services.adminPromotions, actor, form, null);
  if (saved.ok) return redirect(`${promotionHref(saved.promotion.id)}?created=1`);
  return data(saved, { status: saved.status });
}

export default function NewPromotion({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  return (
    <NewScreen crumbs={[{ label: "Promotions", to: "/admin/promotions" }, { label: "New promotion" }]} title="New promotion" intro="A code customers type at the basket, or a multi-buy that applies by itself. It runs from when it starts until it ends, is used up, or is paused." result={actionData}>
      <PromotionForm values={actionData?.values ?? EMPTY_PROMOTION} errors={actionData?.errors} choices={loaderData.choices} isNew canManage busy={busy} />
    </NewScreen>
  );
}

import { Form, data, useNavigation } from "react-router";
import { AuditHistory } from "../../../components/admin/audit-entries.tsx";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { PromotionForm } from "../../../components/admin/promotion-form.tsx";
import { type PreviewResult, PromotionPreview } from "../../../components/admin/promotion-preview.tsx";
import { ActionResultBanner } from "../../../components/admin/result-banner.tsx";
import { StatusBadge } from "../../../components/admin/status-badge.tsx";
import { notFoundOr, requirePermission, serviceError } from "../../../lib/admin/access.ts";
import { formatDateTime } from "../../../lib/admin/format.ts";
import { type PromotionSaveResult, savePromotion } from "../../../lib/admin/promotion-save.server.ts";
import { AUDIENCE_LABELS, PROMOTION_STATUSES, type PromotionStatus, STATE_LABELS, previewLinesOf, promotionGives, usesOf, valuesOfPromotion } from "../../../lib/admin/promotions.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { formatPounds } from "../../../lib/money.ts";
import type { PromotionJson } from "../../../../server/modules/promotions/contract.ts";
import { can } from "../../../../server/modules/staff/permissions.ts";
import type { Route } from "./+types/promotion";
import { Panel } from "../../../components/admin/panel.tsx";
import { staffPost, staffScreen } from "../../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData ? `Promotion: ${loaderData.promotion.name}` : "Promotion");

/** The id from the address; anything else is no promotion. */
function idOf(param: string): number {
  const id = Number(param);
  if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) throw new Response("No promotion has that number.", { status: 404, statusText: "Not Found" });
  return id;
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "promotions.view");
  const desk = app.services.adminPromotions;
  const { data: promotion, report } = await desk.get(actor, idOf(params.id)).catch(notFoundOr);
  const [products, choices, audit] = await Promise.all([
    desk.productsById(actor, promotion.applies_to.product_ids),
    can(actor.role, "catalogue.view") ? app.services.adminProducts.choices(actor) : { categories: [], brands: [] },
    can(actor.role, "audit.view") ? app.services.audit.forEntity("promotion", promotion.id, 20) : null,
  ]);
  const created = new URL(request.url).searchParams.get("created") === "1";
  return { promotion, report, skus: products.map((p) => p.sku), choices, audit, created, canManage: can(actor.role, "promotions.manage") };
}

type Done = { intent: "save" | "status"; ok: true; message: string };
type Refused = { intent: "save"; ok: false } & Omit<Extract<PromotionSaveResult, { ok: false }>, "ok">;
type StatusRefused = { intent: "status"; ok: false; message: string };
type Result = Done | Refused | StatusRefused | PreviewResult;

/** What the promotion does now, after a save or a move. */
function stateSentence(p: PromotionJson): string {
  switch (p.state) {
    case "running":
      return "It is running now.";
    case "scheduled":
      return `It starts on ${formatDateTime(p.starts_at!)}.`;
    case "expired":
      return "Its end date has passed: customers cannot use it.";
    case "used_up":
      return "It is used up: customers cannot use it.";
    case "paused":
      return "It is paused: customers cannot use it until it is resumed.";
    case "ended":
      return "It has ended: customers can no longer use it.";
  }
}

const MOVE_WORDS: Record<PromotionStatus, string> = { active: "Resumed", paused: "Paused", ended: "Ended" };

/** Saving the form, pausing, resuming or ending (promotions.manage), or trying a basket (promotions.view); the service checks the permission again. */
export async function action({ context, request, params }: Route.ActionArgs) {
  const { app, actor, form } = await staffPost(context, request, "promotions.view");
  const desk = app.services.adminPromotions;
  const id = idOf(params.id);
  const intent = String(form.get("intent") ?? "");

  if (intent === "preview") {
    const typed = String(form.get("lines") ?? "").slice(0, 5000);
    const trade = form.get("buyer") === "trade";
    const { lines, errors } = previewLinesOf(typed);
    if (errors.length) return data<Result>({ intent, typed, trade, ok: false, errors }, { status: 422 });
    try {
      const { data: preview } = await desk.preview(actor, id, { lines, trade });
      return data<Result>({ intent, typed, trade, ok: true, preview });
    } catch (error) {
      const known = serviceError(error);
      if (!known) throw error;
      if (known.status === 404) notFoundOr(error);
      return data<Result>({ intent, typed, trade, ok: false, errors: known.errors ? Object.values(known.errors).flat() : [known.message] }, { status: known.status });
    }
  }

  requirePermission(app.staff, request, "promotions.manage");
  if (intent === "status") {
    const status = String(form.get("status") ?? "") as PromotionStatus;
    if (!PROMOTION_STATUSES.includes(status)) return data<Result>({ intent, ok: false, message: "Choose pause, resume or end." }, { status: 422 });
    try {
      const { data: moved } = await desk.update(actor, id, { status });
      return data<Result>({ intent, ok: true, message: `${MOVE_WORDS[status]}. ${stateSentence(moved)}` });
    } catch (error) {
      const known = serviceError(error);
      if (!known) throw error;
      if (known.status === 404) notFoundOr(error);
      return data<Result>({ intent, ok: false, message: known.errors ? Object.values(known.errors).flat().join(" ") : known.message }, { status: known.status });
    }
  }

  const saved = await savePromotion(desk, actor, form, id);
  if (saved.ok) return data<Result>({ intent: "save", ok: true, message: `Saved. ${stateSentence(saved.promotion)}` });
  if (saved.status === 404) throw new Response(saved.message, { status: 404, statusText: "Not Found" });
  const { ok: _ok, ...refused } = saved;
  return data<Result>({ intent: "save", ok: false, ...refused }, { status: saved.status });
}

/** Pause, resume, or end (after a second press, which says what ending means). */
function StatusActions({ promotion, busy }: { promotion: PromotionJson; busy: boolean }) {
  const move = (status: PromotionStatus, label: string, className = "btn-secondary") => (
    <Form method="post">
      <input type="hidden" name="intent" value="status" />
      <input type="hidden" name="status" value={status} />
      <button type="submit" className={`${className} disabled:opacity-75`} disabled={busy}>
        {label}
      </button>
    </Form>
  );
  if (promotion.status === "ended") return <p className="text-sm text-stone-700">Ended: to run it again, make a new promotion.</p>;
  return (
    <div className="flex flex-wrap items-start gap-2">
      {promotion.status === "active" ? move("paused", "Pause") : move("active", "Resume")}
      <details className="group">
        <summary className="btn-secondary cursor-pointer list-none text-red-800">End…</summary>
        <div className="mt-2 grid max-w-80 gap-2 rounded-md border border-stone-300 bg-white p-3 text-sm shadow-sm">
          <p>Customers can no longer use it, from now. Orders that used it keep their discount.</p>
          {move("ended", `End “${promotion.name}”`, "btn w-full border border-red-700 bg-white text-red-800 hover:bg-red-50")}
        </div>
      </details>
    </div>
  );
}

export default function AdminPromotion({ loaderData, actionData }: Route.ComponentProps) {
  const { promotion: p, report, skus, choices, audit, created, canManage } = loaderData;
  const result = actionData as Result | undefined;
  const navigation = useNavigation();
  const busyWith = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : "";
  const refused = result?.intent === "save" && !result.ok ? result : undefined;
  const banner = result && result.intent !== "preview" ? result : created ? { ok: true, message: `Created. ${stateSentence(p)}` } : undefined;
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Promotions", to: "/admin/promotions" }, { label: p.name }]}
        title={p.name}
        intro={
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <StatusBadge status={`promotion_${p.state}`} label={STATE_LABELS[p.state]} />
            <span>{p.code ? <span className="font-mono">{p.code}</span> : "Automatic"}</span>
            <span>{promotionGives(p)}</span>
            <span>{usesOf(p)} used</span>
          </span>
        }
        actions={canManage ? <StatusActions promotion={p} busy={busyWith === "status"} /> : null}
      />
      <ActionResultBanner result={banner} />

      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_24rem]">
        <div className="grid min-w-0 content-start gap-4 xl:col-start-2 xl:row-start-1">
          <Panel id="report-heading" title="Report" className="text-sm">
            <dl className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-4 gap-y-1" data-testid="promotion-report">
              <dt>Orders that used it</dt>
              <dd className="text-right">{report.orders}</dd>
              <dt>Discount given (ex VAT)</dt>
              <dd className="text-right">{formatPounds(report.discount_given)}</dd>
              <dt>Those orders' sales</dt>
              <dd className="text-right">{formatPounds(report.sales)}</dd>
              <dt>Uses given back (orders cancelled)</dt>
              <dd className="text-right">{report.uses_given_back}</dd>
            </dl>
            <p className="mt-2 text-stone-600">For {AUDIENCE_LABELS[p.audience].toLowerCase()}. Made {formatDateTime(p.created_at)}.</p>
          </Panel>
          <PromotionPreview result={result?.intent === "preview" ? result : undefined} audience={p.audience} multiBuy={p.kind === "multi_buy"} gives={promotionGives(p)} busy={busyWith === "preview"} />
        </div>

        <div className="grid min-w-0 content-start gap-4 xl:col-start-1 xl:row-start-1">
          {/* A new key after each refusal or save: the form shows what was sent, or what is stored. */}
          <PromotionForm
            key={refused ? JSON.stringify(refused.values) : p.updated_at}
            values={refused?.values ?? valuesOfPromotion(p, skus)}
            errors={refused?.errors}
            choices={choices}
            isNew={false}
            canManage={canManage}
            busy={busyWith === "save"}
          />
          {audit ? <AuditHistory entries={audit} /> : null}
        </div>
      </div>
    </>
  );
}

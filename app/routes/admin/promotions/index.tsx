import { PageHeader } from "../../../components/admin/page-header.tsx";
import { useListAddress } from "../../../components/admin/pager.tsx";
import { StatusBadge } from "../../../components/admin/status-badge.tsx";
import { type StatusTab, StatusTabs } from "../../../components/admin/status-tabs.tsx";
import { formatDateTime, tabAndCursorFrom } from "../../../lib/admin/format.ts";
import { PROMOTION_STATUSES, type PromotionStatus, STATE_LABELS, promotionGives, promotionHref, usesOf } from "../../../lib/admin/promotions.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { can } from "../../../../server/modules/staff/permissions.ts";
import type { Route } from "./+types/index";
import type { DataColumn } from "../../../components/admin/table-or-cards.tsx";
import { KeysetList } from "../../../components/admin/keyset-list.tsx";
import { linkColumn } from "../../../components/admin/list-columns.tsx";
import { staffScreen } from "../../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Promotions");

type Status = PromotionStatus;
const STATUS_LABELS: Record<Status, string> = { active: "Active", paused: "Paused", ended: "Ended" };

export async function loader({ context, request }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "promotions.view");
  // No tab is Active, the one most looked at.
  const filters = tabAndCursorFrom(new URL(request.url), PROMOTION_STATUSES, "active");
  const list = await app.services.adminPromotions.list(actor, { status: filters.status === "all" ? undefined : filters.status, cursor: filters.cursor });
  return { promotions: list.data, nextCursor: list.next_cursor, filters, canManage: can(actor.role, "promotions.manage") };
}

/** When it runs, in London time. */
function dates(p: { starts_at: string | null; ends_at: string | null }): string {
  if (p.starts_at && p.ends_at) return `${formatDateTime(p.starts_at)} to ${formatDateTime(p.ends_at)}`;
  if (p.starts_at) return `From ${formatDateTime(p.starts_at)}`;
  if (p.ends_at) return `Until ${formatDateTime(p.ends_at)}`;
  return "No end date";
}

export default function AdminPromotions({ loaderData }: Route.ComponentProps) {
  const { promotions, nextCursor, filters, canManage } = loaderData;
  const { search } = useListAddress();
  // The API counts no tabs: the tabs carry no figures.
  const tabs: StatusTab[] = [...PROMOTION_STATUSES.map((s): StatusTab => [s, STATUS_LABELS[s]]), ["all", "All"]];
  const tabName = filters.status === "all" ? "" : ` ${STATUS_LABELS[filters.status].toLowerCase()}`;
  const columns: DataColumn<(typeof promotions)[number]>[] = [
    linkColumn("Name", (p) => promotionHref(p.id), (p) => p.name, { sort: "descending", linkClassName: "min-w-0 [overflow-wrap:anywhere]" }),
    { label: "Code", cell: (p) => (p.code ? <span className="font-mono">{p.code}</span> : <span className="text-stone-700">Automatic</span>) },
    { label: "Gives", cell: (p) => promotionGives(p) },
    { label: "When", cell: (p) => dates(p) },
    { label: "Uses", numeric: true, cell: (p) => usesOf(p) },
    { label: "State", cell: (p) => <StatusBadge status={`promotion_${p.state}`} label={STATE_LABELS[p.state]} /> },
  ];
  const empty = {
    title: `No${tabName} promotions`,
    action: filters.status !== "all" ? { to: "?status=all", label: "Show every promotion" } : undefined,
    children: filters.status === "all" ? (canManage ? "Make the first with New promotion." : "A manager makes them; they will appear here.") : "Try another tab.",
  };
  return (
    <>
      <PageHeader
        title="Promotions"
        intro="Discount codes customers type at the basket, and multi-buys that apply by themselves, newest first. Open one to change it, pause it, see its report or try a basket."
        links={canManage ? [{ to: "/admin/promotions/new", label: "New promotion", primary: true }] : []}
      />
      <StatusTabs label="Promotions by status" tabs={tabs} current={filters.status} search={search} />
      <KeysetList caption={`Promotions, newest first${tabName ? `:${tabName}` : ""}`} rows={promotions} rowKey={(p) => p.id} columns={columns} empty={empty} cursor={filters.cursor} nextCursor={nextCursor} />
    </>
  );
}

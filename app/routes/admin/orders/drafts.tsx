// Saved drafts of orders taken by staff (issue 34): reopen one to finish it, or delete it.
import { Form, Link, data, redirect, useNavigation } from "react-router";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { serviceError } from "../../../lib/admin/access.ts";
import { formatDateTime } from "../../../lib/admin/format.ts";
import { pageMeta } from "../../../lib/meta.ts";
import type { Route } from "./+types/drafts";
import { EmptyState } from "../../../components/admin/empty-state.tsx";
import { ActionResultBanner } from "../../../components/admin/result-banner.tsx";
import { staffPost, staffScreen } from "../../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Draft orders");

export async function loader({ context, request }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "orders.create");
  const url = new URL(request.url);
  return { drafts: await app.services.orderDrafts.list(actor), saved: url.searchParams.get("saved"), deleted: url.searchParams.get("deleted") === "1" };
}

export async function action({ context, request }: Route.ActionArgs) {
  const { app, actor, form } = await staffPost(context, request, "orders.create");
  const id = Number((form).get("id"));
  try {
    await app.services.orderDrafts.remove(actor, Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647 ? id : 0);
    return redirect("/admin/orders/drafts?deleted=1");
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    return data({ ok: false as const, message: known.message }, { status: known.status });
  }
}

/** What a draft holds, in a few words: its lines and how it is paid. */
function describe(payload: Record<string, unknown>): string {
  const lines = Array.isArray(payload.lines) ? payload.lines.length : 0;
  return `${lines} ${lines === 1 ? "line" : "lines"}${payload.delivery_method === "collect" ? ", collection" : payload.delivery_method ? ", delivery" : ""}`;
}

export default function DraftOrders({ loaderData, actionData }: Route.ComponentProps) {
  const { drafts, saved, deleted } = loaderData;
  const busy = useNavigation().state === "submitting";
  const banner = actionData ?? (saved ? { ok: true, message: "Draft saved. Open it from this list to finish it." } : deleted ? { ok: true, message: "Draft deleted." } : undefined);
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Orders", to: "/admin/orders" }, { label: "Draft orders" }]}
        title="Draft orders"
        intro="Orders started at the counter or on the phone and saved to finish later. A draft holds no stock and charges nothing."
        links={[{ to: "/admin/orders/new", label: "New order", primary: true }]}
      />
      <ActionResultBanner result={banner} />
      {drafts.length === 0 ? (
        <EmptyState title="No drafts">Save an order as a draft from New order; it waits here until it is placed or deleted.</EmptyState>
      ) : (
        <ul className="grid max-w-4xl gap-3" aria-label="Drafts">
          {drafts.map((d) => (
            <li key={d.id} className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-stone-200 bg-white p-4" data-testid="draft">
              <div className="min-w-0 [overflow-wrap:anywhere]">
                <p className="font-semibold">{d.label || "No customer yet"}</p>
                <p className="text-sm text-stone-700">
                  {describe(d.payload)} · saved {formatDateTime(d.updated_at)}
                  {d.staff_name ? ` by ${d.staff_name}` : ""}
                </p>
              </div>
              <div className="flex flex-wrap gap-2">
                <Link to={`/admin/orders/new?draft=${d.id}`} className="btn-primary" aria-label={`Open the draft for ${d.label || "no customer yet"}`}>
                  Open
                </Link>
                <Form method="post">
                  <input type="hidden" name="id" value={d.id} />
                  <button type="submit" className="btn-secondary" disabled={busy} aria-label={`Delete the draft for ${d.label || "no customer yet"}`}>
                    Delete
                  </button>
                </Form>
              </div>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

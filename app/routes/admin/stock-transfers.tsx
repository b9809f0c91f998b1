import { Form, Link, data, redirect, useLocation, useNavigation } from "react-router";
import { FieldError } from "../../components/admin/field-error.tsx";
import { PageHeader } from "../../components/admin/page-header.tsx";
import { KeysetPager } from "../../components/admin/pager.tsx";
import { ActionResultBanner } from "../../components/admin/result-banner.tsx";
import { LineRows, control, onFormRows, rowsOf, whole } from "../../components/admin/stock-lines.tsx";
import { serviceError } from "../../lib/admin/access.ts";
import { pageMeta } from "../../lib/meta.ts";
import { TRANSFER_STATES, TRANSFER_STATE_LABELS, type TransferState } from "../../../server/modules/stock/kinds.ts";
import type { Route } from "./+types/stock-transfers";
import { DataTable } from "../../components/admin/table-or-cards.tsx";
import { DateCell } from "../../components/admin/cells.tsx";
import { EmptyState } from "../../components/admin/empty-state.tsx";
import { StatusTabs } from "../../components/admin/status-tabs.tsx";
import { Options } from "../../components/admin/options.tsx";
import { staffScreen, staffPost } from "../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Transfers");

export async function loader({ context, request }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "stock.count");
  const url = new URL(request.url);
  const stateParam = url.searchParams.get("state") ?? "";
  const state = (TRANSFER_STATES as readonly string[]).includes(stateParam) ? (stateParam as TransferState) : undefined;
  const branchParam = Number(url.searchParams.get("branch") ?? "");
  const cursorParam = Number(url.searchParams.get("cursor") ?? "");
  const branches = await app.services.stock.branches(actor);
  const branch = branches.find((b) => b.id === branchParam)?.id;
  const cursor = Number.isSafeInteger(cursorParam) && cursorParam > 0 ? cursorParam : undefined;
  const page = await app.services.transfers.list(actor, { state, branchId: branch, cursor, limit: 25 });
  return { transfers: page.data, nextCursor: page.next_cursor === null ? null : String(page.next_cursor), branches, filters: { state, branch, cursor: cursor === undefined ? undefined : String(cursor) } };
}

type Result = { ok: false; message: string; errors?: Record<string, string[]> };

export async function action({ context, request }: Route.ActionArgs) {
  const { app, actor, form } = await staffPost(context, request, "stock.count");
  const rows = rowsOf(form, ["sku", "quantity"]);
  try {
    const made = await app.services.transfers.request(actor, {
      from_branch_id: Number(form.get("from_branch_id")),
      to_branch_id: Number(form.get("to_branch_id")),
      note: String(form.get("note") ?? ""),
      lines: rows.values.map(([sku, quantity]) => ({ sku: sku!, quantity: whole(quantity!) })),
    });
    return redirect(`/admin/stock/transfers/${made.id}?requested=1`);
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    return data<Result>({ ok: false, message: known.errors ? "Nothing was asked for. Correct what is marked below and send again." : known.message, errors: onFormRows(known.errors, rows.at) }, { status: known.status });
  }
}

export default function AdminTransfers({ loaderData, actionData }: Route.ComponentProps) {
  const { transfers, nextCursor, branches, filters } = loaderData;
  const result = actionData as Result | undefined;
  const busy = useNavigation().state === "submitting";
  const search = new URLSearchParams(useLocation().search);
  const errors = result?.errors;
  return (
    <>
      <PageHeader crumbs={[{ label: "Stock", to: "/admin/stock" }, { label: "Transfers" }]} title="Transfers" intro="Stock moving between branches: asked for here, sent by the branch that has it (it leaves that branch's stock), and booked in by the branch it goes to, with anything that did not arrive recorded." />
      <ActionResultBanner result={result} />

      {branches.length < 2 ? (
        <EmptyState title="One branch only">Transfers need two branches or more.</EmptyState>
      ) : (
        <Form method="post" className="mb-8 grid gap-3 rounded-lg border border-stone-200 bg-white p-4 lg:max-w-3xl" aria-labelledby="new-transfer">
          <h2 id="new-transfer" className="text-lg font-bold">
            Ask for a transfer
          </h2>
          <div className="grid gap-3 sm:grid-cols-2">
            {(["from_branch_id", "to_branch_id"] as const).map((field, i) => (
              <label key={field} className="grid gap-1 text-sm font-semibold">
                {i === 0 ? "From" : "To"}
                <select name={field} defaultValue={branches[i]?.id} className={control} aria-invalid={errors?.[field] ? true : undefined}>
                  <Options of={branches} value={(b) => b.id} label={(b) => b.name} />
                </select>
                <FieldError messages={errors?.[field]} />
              </label>
            ))}
          </div>
          <label className="grid gap-1 text-sm font-semibold">
            Note (optional)
            <input name="note" maxLength={200} placeholder="e.g. For Saturday's collections" className={control} />
            <FieldError messages={errors?.note} />
          </label>
          <FieldError messages={errors?.lines} />
          <LineRows list="lines" number="quantity" label="Quantity" errors={errors} />
          <button type="submit" className="btn-primary min-h-10 justify-self-start" disabled={busy}>
            Ask for the transfer
          </button>
        </Form>
      )}

      <section aria-labelledby="transfers-title">
        <h2 id="transfers-title" className="mb-3 text-xl font-bold">
          Transfers
        </h2>
        <StatusTabs label="Transfers by state" param="state" tabs={[["", "All"], ...TRANSFER_STATES.map((state) => [state, TRANSFER_STATE_LABELS[state]] as const)]} current={filters.state ?? ""} search={search} />
        <DataTable
          empty={<EmptyState title="No transfers to show">{filters.state ? "None in this state." : "Transfers asked for appear here, newest first."}</EmptyState>}
          caption="Transfers, newest first"
          rows={transfers}
          rowKey={(t) => t.id}
          columns={[
            {
              label: "Transfer",
              head: true,
              cell: (t) => (
                <Link to={`/admin/stock/transfers/${t.id}`} className="link font-mono">
                  {t.number}
                </Link>
              ),
            },
            { label: "From → to", cell: (t) => `${t.from.name} → ${t.to.name}` },
            { label: "Lines", numeric: true, cell: (t) => t.lines.length },
            { label: "State", cellClassName: "font-semibold", cell: (t) => TRANSFER_STATE_LABELS[t.state] },
            { label: "Asked for", cell: (t) => <DateCell value={t.requested_at} /> },
          ]}
        />
        <KeysetPager search={search} cursor={filters.cursor} nextCursor={nextCursor} />
      </section>
    </>
  );
}

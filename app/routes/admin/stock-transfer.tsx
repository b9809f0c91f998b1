import { Form, Link, data, useNavigation, useSearchParams } from "react-router";
import { FieldError } from "../../components/admin/field-error.tsx";
import { PageHeader } from "../../components/admin/page-header.tsx";
import { ResultBanner } from "../../components/admin/result-banner.tsx";
import { LinesCell } from "../../components/admin/cells.tsx";
import { DataTable } from "../../components/admin/table-or-cards.tsx";
import { control, whole } from "../../components/admin/stock-lines.tsx";
import { notFoundOr, serviceError } from "../../lib/admin/access.ts";
import { formatDateTime } from "../../lib/admin/format.ts";
import { pageMeta } from "../../lib/meta.ts";
import { TRANSFER_STATE_LABELS } from "../../../server/modules/stock/kinds.ts";
import type { Route } from "./+types/stock-transfer";
import { staffScreen, staffPost } from "../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData ? `Transfer ${loaderData.transfer.number}` : "Transfer");

function transferId(param: string): number {
  const id = Number(param);
  return Number.isSafeInteger(id) && id > 0 ? id : 0;
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "stock.count");
  const transfer = await app.services.transfers.get(actor, transferId(params.id)).catch(notFoundOr);
  return { transfer };
}

type Result = { ok: boolean; message: string; errors?: Record<string, string[]> };

export async function action({ context, request, params }: Route.ActionArgs) {
  const { app, actor, form } = await staffPost(context, request, "stock.count");
  const intent = String(form.get("intent") ?? "");
  const id = transferId(params.id);
  // Each line's figure, by its SKU, as the form shows it.
  const lines = form.getAll("sku").map((sku, i) => ({ sku: String(sku), quantity: whole(String(form.getAll("quantity")[i] ?? "").trim()) }));
  try {
    if (intent === "send") {
      const done = await app.services.transfers.send(actor, id, lines);
      return data<Result>({ ok: true, message: `Sent from ${done.from.name}: it is in transit to ${done.to.name}.` });
    }
    if (intent === "receive") {
      const done = await app.services.transfers.receive(actor, id, lines);
      const short = done.lines.reduce((n, l) => n + (l.shortfall ?? 0), 0);
      return data<Result>({ ok: true, message: `Booked in at ${done.to.name}${short ? `, ${short} short: recorded on the transfer.` : ": everything arrived."}` });
    }
    if (intent === "cancel") {
      await app.services.transfers.cancel(actor, id);
      return data<Result>({ ok: true, message: "The transfer is cancelled; no stock moved." });
    }
    return data<Result>({ ok: false, message: "Choose what to do." }, { status: 422 });
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    return data<Result>({ ok: false, message: known.errors ? "Nothing moved. Correct the lines marked below and try again." : known.message, errors: known.errors }, { status: known.status });
  }
}

export default function AdminTransfer({ loaderData, actionData }: Route.ComponentProps) {
  const { transfer } = loaderData;
  const result = actionData as Result | undefined;
  const busy = useNavigation().state === "submitting";
  const [search] = useSearchParams();
  const step = transfer.state === "requested" ? "send" : transfer.state === "in_transit" ? "receive" : null;
  const figure = (l: (typeof transfer.lines)[number]) => (step === "send" ? l.quantity : (l.sent ?? 0));
  const lineError = (i: number) => [...(result?.errors?.[`lines.${i}.quantity`] ?? []), ...(result?.errors?.[`lines.${i}.sku`] ?? [])];
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Stock", to: "/admin/stock" }, { label: "Transfers", to: "/admin/stock/transfers" }, { label: transfer.number }]}
        title={`Transfer ${transfer.number}`}
        intro={
          <>
            {transfer.from.name} → {transfer.to.name}: <span className="font-semibold" data-testid="transfer-state">{TRANSFER_STATE_LABELS[transfer.state]}</span>
            {transfer.note ? <span className="block">{transfer.note}</span> : null}
            {transfer.order ? (
              <span className="block">
                For collection order{" "}
                <Link to={`/admin/orders/${transfer.order.number}`} className="link font-semibold">
                  {transfer.order.number}
                </Link>
                : its goods are the order's, sent whole, and cancelled only with the order.
              </span>
            ) : null}
          </>
        }
      />
      {result ? (
        <ResultBanner ok={result.ok} result={result}>
          {result.message}
          <FieldError messages={result.errors?.lines} />
        </ResultBanner>
      ) : search.get("requested") ? (
        <ResultBanner ok result="requested">
          Transfer asked for. {transfer.from.name} sends it from here.
        </ResultBanner>
      ) : null}

      <Form method="post" className="grid gap-4">
        <DataTable
          caption="The transfer's lines"
          rows={transfer.lines}
          rowKey={(l) => l.sku}
          columns={[
            { label: "Product", head: true, cellClassName: "font-normal", cell: (l) => <LinesCell first={l.name} rest={[<span className="font-mono text-xs">{l.sku}</span>]} /> },
            { label: "Asked for", numeric: true, cell: (l) => l.quantity },
            { label: "Sent", numeric: true, cell: (l) => l.sent ?? "—" },
            { label: "Received", numeric: true, cell: (l) => l.received ?? "—" },
            step
              ? {
                  label: step === "send" ? "Send now" : "Arrived",
                  className: "w-32",
                  cell: (l, i) => (
                    <span className="grid">
                      <input type="hidden" name="sku" value={l.sku} />
                      <input
                        name="quantity"
                        inputMode="numeric"
                        defaultValue={figure(l)}
                        // An order's transfer is sent whole: what arrives is still counted.
                        readOnly={step === "send" && transfer.order !== null}
                        aria-label={`${step === "send" ? "Send now" : "Arrived"}: ${l.sku}`}
                        aria-invalid={lineError(i).length ? true : undefined}
                        className={control}
                      />
                      <FieldError messages={lineError(i)} className="mt-0.5 block" />
                    </span>
                  ),
                }
              : { label: "Short", numeric: true, cell: (l) => <span className={(l.shortfall ?? 0) > 0 ? "font-semibold text-red-800" : ""}>{l.shortfall ?? "—"}</span> },
          ]}
        />
        {step ? (
          <div className="flex flex-wrap gap-3">
            <button type="submit" name="intent" value={step} className="btn-primary min-h-10" disabled={busy}>
              {step === "send" ? `Send from ${transfer.from.name}` : `Book in at ${transfer.to.name}`}
            </button>
            {step === "send" && !transfer.order ? (
              <button type="submit" name="intent" value="cancel" className="btn-secondary min-h-10" disabled={busy}>
                Cancel the transfer
              </button>
            ) : null}
          </div>
        ) : null}
      </Form>
      <dl className="mt-6 grid gap-1 text-sm text-stone-700 sm:grid-cols-[max-content_1fr] sm:gap-x-4">
        <dt className="font-semibold">Asked for</dt>
        <dd>{formatDateTime(transfer.requested_at)}</dd>
        {transfer.sent_at ? (
          <>
            <dt className="font-semibold">Sent</dt>
            <dd>{formatDateTime(transfer.sent_at)}</dd>
          </>
        ) : null}
        {transfer.received_at ? (
          <>
            <dt className="font-semibold">Received</dt>
            <dd>{formatDateTime(transfer.received_at)}</dd>
          </>
        ) : null}
      </dl>
    </>
  );
}

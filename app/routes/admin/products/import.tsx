import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { appContext } from "#app-context";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { ResultBanner } from "../../../components/admin/result-banner.tsx";
import { DataTable } from "../../../components/admin/table-or-cards.tsx";
import { Figures } from "../../../components/admin/panel.tsx";
import { requirePermission } from "../../../lib/admin/access.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { ATTRIBUTE_HELP, CSV_COLUMNS, STOCK_AT_HELP } from "../../../../server/modules/catalog/csv/columns.ts";
import type { ImportStatus } from "../../../../server/modules/catalog/csv/jobs.ts";
import type { Route } from "./+types/import";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Import products");

export async function loader({ context, request }: Route.LoaderArgs) {
  const app = context.get(appContext);
  requirePermission(app.staff, request, "catalogue.manage");
  const job = Number(new URL(request.url).searchParams.get("import"));
  return { maxMb: 200, resume: Number.isSafeInteger(job) && job > 0 ? job : null };
}

const card = "rounded-lg border border-stone-200 bg-white p-4";
const button = "min-h-10 rounded-md px-4 py-2 font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-50";
const primary = `${button} bg-brand-700 text-white hover:bg-brand-800`;
const secondary = `${button} border border-stone-300 bg-white hover:bg-stone-50`;
const n = (v: number) => v.toLocaleString("en-GB");

function csrfToken(): string {
  const match = /(?:^|;\s*)tc_admin_csrf=([^;]+)/.exec(document.cookie);
  return match ? decodeURIComponent(match[1]!) : "";
}

/** The file to the API with the upload's own progress (XMLHttpRequest reports it; fetch does not). */
function upload(file: File, onProgress: (percent: number) => void): Promise<{ id?: number; message?: string }> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/admin/products/imports?dry_run=1");
    xhr.setRequestHeader("x-admin-csrf", csrfToken());
    xhr.upload.onprogress = (event) => event.lengthComputable && onProgress(Math.round((event.loaded / event.total) * 100));
    xhr.onload = () => {
      let body: { id?: number; message?: string } = {};
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        body = {};
      }
      resolve(xhr.status === 202 ? { id: body.id } : { message: body.message || `The upload failed (${xhr.status}).` });
    };
    xhr.onerror = () => resolve({ message: "The connection failed. Try again." });
    const form = new FormData();
    form.append("file", file);
    xhr.send(form);
  });
}

const running = (s: ImportStatus | null) => !!s && ["queued", "checking", "running"].includes(s.state);

function timeLeft(seconds: number | null): string {
  if (seconds === null) return "working out the time left";
  if (seconds < 60) return `about ${seconds} s left`;
  return `about ${Math.ceil(seconds / 60)} min left`;
}

/** The bar, fed by the server's count of rows done; a screen reader hears it at each tenth, not at every tick. */
function ImportProgress({ status, uploading }: { status: ImportStatus | null; uploading: number | null }) {
  const total = status?.rows_total ?? 0;
  const done = status?.rows_done ?? 0;
  // An applied import keeps its bar, full: the merchant sees it finish, not just vanish.
  const complete = !!status?.report?.applied;
  const percent = uploading !== null ? uploading : complete ? 100 : total > 0 ? Math.floor((done / total) * 100) : 0;
  const label = uploading !== null ? "Uploading the file" : complete ? "Imported" : status?.dry_run ? "Checking the file" : "Importing";
  // Changes only at each tenth, so the live region speaks ten times, not at every poll.
  const announced = `${label}: ${Math.floor(percent / 10) * 10}%`;
  return (
    <div className={card} data-testid="import-progress">
      <p id="import-progress-label" className="font-semibold">
        {label}
      </p>
      <div
        role="progressbar"
        aria-labelledby="import-progress-label"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={uploading !== null ? `${percent}% uploaded` : `${n(done)} of ${n(total)} rows`}
        className="mt-2 h-4 w-full overflow-hidden rounded-full bg-stone-200"
      >
        <div className="h-full bg-brand-700 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p className="mt-2 text-sm text-stone-700">
        {uploading !== null ? (
          `${percent}% uploaded`
        ) : complete ? (
          `All ${n(total || done)} rows done.`
        ) : (
          <>
            {n(done)} of {n(total)} rows · {n(status?.rows_per_second ?? 0)} rows a second · {timeLeft(status?.seconds_left ?? null)}
          </>
        )}
      </p>
      <p className="sr-only" aria-live="polite">
        {announced}
      </p>
    </div>
  );
}

function Report({ status }: { status: ImportStatus }) {
  const report = status.report!;
  const refusedTotal = report.refused.length + report.more_refused;
  const created = report.dry_run || !report.applied ? report.would_create : report.created;
  const updated = report.dry_run || !report.applied ? report.would_update : report.updated;
  const verb = report.applied ? { create: "Created", update: "Changed" } : { create: "Would create", update: "Would change" };
  return (
    <section aria-labelledby="report-heading" className="grid gap-4" data-testid="import-report">
      <h2 id="report-heading" className="text-xl font-bold">
        {report.applied ? "What was imported" : report.dry_run ? "What the import would do" : "Nothing was imported"}
      </h2>
      <Figures
        className="grid-cols-2 sm:grid-cols-5"
        big
        items={(
          [
            ["Rows", report.rows],
            [verb.create, created],
            [verb.update, updated],
            ["Unchanged", report.unchanged],
            ["Refused", report.refused_rows],
          ] as const
        ).map(([label, value]) => [label, n(value), `count-${label.toLowerCase().replaceAll(" ", "-")}`])}
      />
      {refusedTotal > 0 ? (
        <div>
          <h3 className="mb-2 text-lg font-bold">Refused ({n(refusedTotal)})</h3>
          <DataTable
            caption="The refused rows and why"
            testId="refused-rows"
            rows={report.refused}
            rowKey={(_, i) => i}
            rowProps={() => ({ className: "max-lg:bg-red-50" })}
            columns={[
              { label: "Row", cell: (r) => r.row },
              { label: "Column", cell: (r) => r.column ?? "—" },
              { label: "SKU", cell: (r) => r.sku ?? "—" },
              { label: "Why", cell: (r) => r.message },
            ]}
          />
          {report.more_refused ? <p className="mt-2 text-sm">…and {n(report.more_refused)} more refusals not listed.</p> : null}
        </div>
      ) : null}
      {report.changes.length ? (
        <div>
          <h3 className="mb-2 text-lg font-bold">
            {verb.create} and {verb.update.toLowerCase()} ({n(report.changes.length + report.more_changes)})
          </h3>
          <DataTable
            caption="The rows that change the catalogue and what each changes"
            testId="changed-rows"
            rows={report.changes}
            rowKey={(c) => c.row}
            rowProps={() => ({ className: "max-lg:bg-white" })}
            columns={[
              { label: "Row", cell: (c) => c.row },
              {
                label: "SKU",
                cell: (c) => (
                  <span>
                    {c.sku} {c.action === "create" ? <span className="rounded bg-green-100 px-1.5 text-xs font-semibold text-green-900">new</span> : null}
                  </span>
                ),
              },
              {
                label: "What",
                cell: (c) => (
                  <ul className="grid gap-0.5">
                    {c.fields.map((f) => (
                      <li key={f.field}>
                        <span className="font-semibold">{f.field}</span>:{" "}
                        {c.action === "create" ? (
                          <span className="break-words">{f.new}</span>
                        ) : (
                          <>
                            <span className="break-words text-stone-600 line-through decoration-stone-400">{f.old || "(empty)"}</span> <span aria-label="becomes">→</span> <span className="break-words">{f.new || "(empty)"}</span>
                          </>
                        )}
                      </li>
                    ))}
                  </ul>
                ),
              },
            ]}
          />
          {report.more_changes ? <p className="mt-2 text-sm">…and {n(report.more_changes)} more rows not listed.</p> : null}
        </div>
      ) : null}
    </section>
  );
}

export default function AdminProductsImport({ loaderData }: Route.ComponentProps) {
  const { maxMb, resume } = loaderData;
  const [status, setStatus] = useState<ImportStatus | null>(null);
  const [uploading, setUploading] = useState<number | null>(null);
  const [problem, setProblem] = useState("");
  const [jobId, setJobId] = useState<number | null>(resume);
  const fileInput = useRef<HTMLInputElement>(null);

  // The server's progress, read every half second while the import works.
  useEffect(() => {
    if (jobId === null) return;
    let stop = false;
    let timer: ReturnType<typeof setTimeout>;
    async function poll() {
      const res = await fetch(`/api/admin/products/imports/${jobId}`, { headers: { accept: "application/json" } }).catch(() => null);
      if (stop) return;
      if (!res || !res.ok) {
        setProblem(res?.status === 404 ? "No such import." : "Could not read the import's progress. Reload the page to try again.");
        return;
      }
      const next = (await res.json()) as ImportStatus;
      setStatus(next);
      if (running(next)) timer = setTimeout(poll, 500);
    }
    void poll();
    return () => {
      stop = true;
      clearTimeout(timer);
    };
  }, [jobId]);

  function follow(id: number) {
    setJobId(id);
    window.history.replaceState(null, "", `/admin/products/import?import=${id}`);
  }

  async function check(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const file = fileInput.current?.files?.[0];
    if (!file) {
      setProblem("Choose a CSV file to import.");
      fileInput.current?.focus();
      return;
    }
    if (file.size > maxMb * 1024 * 1024) {
      setProblem(`The file is over ${maxMb} MB: split it into smaller files.`);
      return;
    }
    setProblem("");
    setStatus(null);
    setUploading(0);
    const answer = await upload(file, setUploading);
    setUploading(null);
    if (answer.id) follow(answer.id);
    else setProblem(answer.message ?? "The upload failed.");
  }

  async function apply(validOnly: boolean) {
    if (!status) return;
    setProblem("");
    const res = await fetch(`/api/admin/products/imports/${status.id}/apply${validOnly ? "?valid_only=1" : ""}`, { method: "POST", headers: { "x-admin-csrf": csrfToken(), accept: "application/json" } }).catch(() => null);
    const body = res ? ((await res.json().catch(() => ({}))) as { id?: number; message?: string }) : {};
    if (res?.status === 202 && body.id) follow(body.id);
    else setProblem(body.message || "The import could not start. Try again.");
  }

  const report = status?.report ?? null;
  const refused = report ? report.refused.length + report.more_refused : 0;
  const valid = report ? report.would_create + report.would_update : 0;
  const finished = status && !running(status);

  return (
    <>
      <PageHeader
        title="Import products"
        intro="Create and update products from a CSV file, matched by SKU. The file is checked first and nothing changes until you import it; then every row is applied, or none."
        actions={
          <>
            <a href="/api/admin/products/export.csv" className={secondary} download>
              Download the catalogue (CSV)
            </a>
            <a href="/api/admin/products/import/example.csv" className={secondary} download>
              Download the example file
            </a>
          </>
        }
      />
      {problem ? (
        <ResultBanner ok={false} result={problem}>
          {problem}
        </ResultBanner>
      ) : null}
      {finished && status.state === "failed" ? (
        <ResultBanner ok={false} result={status.id}>
          {status.error}
        </ResultBanner>
      ) : null}
      {finished && report?.applied ? (
        <ResultBanner ok result={status.id}>
          Imported {n(report.created)} new and {n(report.updated)} changed products{report.refused_rows ? `, leaving out ${n(report.refused_rows)} refused rows` : ""}.{" "}
          <Link to="/admin/products" className="underline">
            See the products
          </Link>
        </ResultBanner>
      ) : null}

      <form onSubmit={check} className={`${card} mb-4 grid gap-3 sm:flex sm:flex-wrap sm:items-end`} aria-label="Check a file">
        <label className="grid gap-1 font-semibold">
          CSV file (at most {maxMb} MB)
          <input ref={fileInput} type="file" name="file" accept=".csv,text/csv" className="font-normal file:mr-3 file:min-h-10 file:rounded-md file:border file:border-stone-300 file:bg-white file:px-3" />
        </label>
        <button type="submit" className={primary} disabled={uploading !== null || running(status)}>
          Check the file
        </button>
      </form>

      {uploading !== null || running(status) || (finished && report?.applied) ? <ImportProgress status={status} uploading={uploading} /> : null}

      {finished && report ? (
        <div className="grid gap-4">
          {report.dry_run && status.state === "done" ? (
            <div className="rounded-lg border border-stone-200 bg-white p-4 flex flex-wrap items-center gap-3">
              <button type="button" className={primary} disabled={refused > 0 || valid === 0 || !status.can_apply} onClick={() => void apply(false)}>
                Import
              </button>
              {refused > 0 ? (
                <button type="button" className={secondary} disabled={valid === 0 || !status.can_apply} onClick={() => void apply(true)}>
                  Import the valid rows ({n(valid)})
                </button>
              ) : null}
              <p className="text-sm text-stone-700">
                {refused > 0 ? `${n(report.refused_rows)} rows are refused: correct them and check the file again, or import only the valid rows.` : valid === 0 ? "Nothing in this file would change the catalogue." : "Nothing has changed yet."}
              </p>
            </div>
          ) : null}
          <Report status={status} />
        </div>
      ) : null}

      <details className="rounded-lg border border-stone-200 bg-white p-4 mt-6">
        <summary className="cursor-pointer font-semibold">The columns</summary>
        <p className="mt-2 text-sm">Headers may be in any order and any case. An empty cell leaves that field as it is; a new product needs sku, name and price_ex_vat.</p>
        <dl className="mt-2 grid gap-2 text-sm sm:grid-cols-[12rem_1fr]">
          {CSV_COLUMNS.map((c) => (
            <div key={c.header} className="contents">
              <dt className="font-mono font-semibold">{c.header}</dt>
              <dd>{c.help}</dd>
            </div>
          ))}
          <dt className="font-mono font-semibold">stock@branch</dt>
          <dd>{STOCK_AT_HELP}</dd>
          <dt className="font-mono font-semibold">attribute:Name</dt>
          <dd>{ATTRIBUTE_HELP}</dd>
        </dl>
      </details>
    </>
  );
}

import { Form, data, useNavigation } from "react-router";
import { PageHeader } from "../../components/admin/page-header.tsx";
import { FieldError } from "../../components/admin/field-error.tsx";
import { ADMIN_CONTROL } from "../../components/admin/form-field.tsx";
import { ActionResultBanner } from "../../components/admin/result-banner.tsx";
import { serviceError } from "../../lib/admin/access.ts";
import { pageMeta } from "../../lib/meta.ts";
import { can } from "../../../server/modules/staff/permissions.ts";
import type { Route } from "./+types/redirects";
import { Panel } from "../../components/admin/panel.tsx";
import { DataTable } from "../../components/admin/table-or-cards.tsx";
import { ButtonForm } from "../../components/admin/confirm-with-reason.tsx";
import { KeysetPager, useListAddress } from "../../components/admin/pager.tsx";
import { staffScreen, staffPost } from "../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Redirects");

export async function loader({ context, request }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "catalogue.view");
  const search = new URL(request.url).searchParams;
  const q = search.get("q")?.slice(0, 200) ?? "";
  const after = search.get("after")?.slice(0, 500) || undefined;
  const testUrl = search.get("test")?.slice(0, 2000) ?? "";
  const [list, tested] = await Promise.all([
    app.services.redirects.list(actor, { q, after, limit: 50 }),
    testUrl ? app.services.redirects.test(actor, testUrl).catch((error: unknown) => ({ problem: serviceError(error)?.message ?? "That is not a path or an address." })) : Promise.resolve(null),
  ]);
  return { ...list, q, after: after ?? null, testUrl, tested, canManage: can(actor.role, "catalogue.manage") };
}

type Result = { ok: boolean; message: string; intent: string; errors?: Record<string, string[]>; values?: Record<string, string>; refused?: { row: number; column: string; message: string }[] };

const text = (form: FormData, name: string) => String(form.get(name) ?? "").trim();

/** Adding, removing and importing rules, without scripts; the service checks catalogue.manage again. */
export async function action({ context, request }: Route.ActionArgs) {
  const { app, actor, form } = await staffPost(context, request, "catalogue.view");
  const intent = text(form, "intent");
  const values = { from: text(form, "from"), to: text(form, "to"), match: text(form, "match") || "exact", status: text(form, "status") || "301" };
  try {
    if (intent === "create") {
      const made = await app.services.redirects.create(actor, { ...values, status: Number(values.status) });
      return data<Result>({ ok: true, intent, message: `Added: ${made.from} now redirects (${made.status}) to ${made.to}.` });
    }
    if (intent === "delete") {
      await app.services.redirects.remove(actor, Number(text(form, "id")));
      return data<Result>({ ok: true, intent, message: `Removed the rule for ${text(form, "from")}: that address is answered by the shop again.` });
    }
    if (intent === "import") {
      const file = form.get("file");
      const csv = file instanceof File && file.size > 0 ? await file.text() : text(form, "csv");
      const dryRun = form.get("dry_run") === "1";
      const report = await app.services.redirects.importCsv(actor, csv, { dryRun });
      const counts = `${report.created} new and ${report.updated} replacing a rule for the same address`;
      if (report.refused.length) return data<Result>({ ok: false, intent, message: `Nothing was imported: ${report.refused.length} row${report.refused.length === 1 ? " is" : "s are"} refused (listed below).`, refused: report.refused });
      return data<Result>({ ok: true, intent, message: dryRun ? `Checked ${report.rows} rows: ${counts} would be imported. Nothing was written.` : `Imported ${report.rows} rows: ${counts}.` });
    }
    throw new Response("Unknown form.", { status: 400 });
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    return data<Result>({ ok: false, intent, message: known.errors ? "Nothing was saved. Check the fields marked below." : known.message, errors: known.errors, values }, { status: known.status });
  }
}

export default function AdminRedirects({ loaderData, actionData }: Route.ComponentProps) {
  const { data: rules, next_after, total, q, after, testUrl, tested, canManage } = loaderData;
  const result = actionData as Result | undefined;
  const busy = useNavigation().state === "submitting";
  const { search } = useListAddress();
  const createErrors = result?.intent === "create" && !result.ok ? result.errors : undefined;
  const kept = createErrors ? result?.values : undefined;
  const importErrors = result?.intent === "import" && !result.ok ? result.errors : undefined;
  return (
    <>
      <PageHeader
        title="Redirects"
        intro="Old addresses answered with a redirect before any page: a shop moving here keeps its links and search rankings. A rule matches an address exactly, or by its start (the rest carried over); renamed products and categories redirect by themselves."
      />
      <ActionResultBanner result={result} />

      <section aria-labelledby="test-heading" className="mb-6 rounded-lg border border-stone-200 bg-white p-4">
        <h2 id="test-heading" className="mb-2 text-lg font-bold">
          Test an address
        </h2>
        <Form method="get" className="flex flex-wrap items-end gap-3">
          {q ? <input type="hidden" name="q" value={q} /> : null}
          <label className="grid min-w-64 flex-1 gap-1 text-sm font-semibold">
            A path or a whole address
            <input name="test" defaultValue={testUrl} placeholder="/old-shop/timber/cls" className={ADMIN_CONTROL} />
          </label>
          <button type="submit" className="btn-secondary min-h-10">
            Test
          </button>
        </Form>
        {tested ? (
          <div role="status" className="mt-3 text-sm" data-testid="redirect-test">
            {"problem" in tested ? (
              <p className="font-semibold text-red-800">{tested.problem}</p>
            ) : tested.rule ? (
              <p>
                <span className="font-mono">{tested.path}</span> goes to <span className="font-mono font-semibold">{tested.location}</span> ({tested.status}), by the {tested.rule.match} rule for{" "}
                <span className="font-mono">{tested.rule.from}</span>.
              </p>
            ) : (
              <p>
                No rule answers <span className="font-mono">{tested.path}</span>: the shop answers it (a page, a moved product or category, or not found).
              </p>
            )}
          </div>
        ) : null}
      </section>

      {canManage ? (
        <div className="mb-6 grid gap-6 lg:grid-cols-2">
          <Panel id="add-heading" title="Add a rule">
            <Form method="post" className="grid gap-3 sm:grid-cols-2" key={result?.intent === "create" && result.ok ? result.message : "add"}>
              <input type="hidden" name="intent" value="create" />
              <label className="grid gap-1 text-sm font-semibold sm:col-span-2">
                Old address (a path here)
                <FieldError id="redirect-from-error" messages={createErrors?.from} />
                <input name="from" required defaultValue={kept?.from} placeholder="/shop/old-page" aria-invalid={createErrors?.from ? true : undefined} aria-describedby="redirect-from-error" className={ADMIN_CONTROL} />
              </label>
              <label className="grid gap-1 text-sm font-semibold sm:col-span-2">
                New address (a path here, or https://…)
                <FieldError id="redirect-to-error" messages={createErrors?.to} />
                <input name="to" required defaultValue={kept?.to} placeholder="/category/timber" aria-invalid={createErrors?.to ? true : undefined} aria-describedby="redirect-to-error" className={ADMIN_CONTROL} />
              </label>
              <label className="grid gap-1 text-sm font-semibold">
                Matches
                <select name="match" defaultValue={kept?.match ?? "exact"} className={ADMIN_CONTROL}>
                  <option value="exact">This address only</option>
                  <option value="prefix">Everything under it</option>
                </select>
              </label>
              <label className="grid gap-1 text-sm font-semibold">
                Kind
                <FieldError id="redirect-status-error" messages={createErrors?.status} />
                <select name="status" defaultValue={kept?.status ?? "301"} aria-describedby="redirect-status-error" className={ADMIN_CONTROL}>
                  <option value="301">301: moved for good</option>
                  <option value="308">308: moved for good (keeps the method)</option>
                  <option value="302">302: for now</option>
                  <option value="307">307: for now (keeps the method)</option>
                </select>
              </label>
              <div>
                <button type="submit" className="btn-primary min-h-11" disabled={busy}>
                  Add the rule
                </button>
              </div>
            </Form>
          </Panel>

          <Panel id="import-heading" title="Import a CSV">
            <p className="mb-2 text-sm text-stone-700">
              A header row naming <code>from</code> and <code>to</code> (or <code>old_path</code> and <code>new_path</code>), and optionally <code>status</code> and <code>match</code>. All rows or none: a rule for the same address is replaced.
            </p>
            <Form method="post" encType="multipart/form-data" className="grid gap-3">
              <input type="hidden" name="intent" value="import" />
              <label className="grid gap-1 text-sm font-semibold">
                The file
                <input type="file" name="file" accept=".csv,text/csv" className="text-sm" />
              </label>
              <label className="grid gap-1 text-sm font-semibold">
                Or paste its rows
                <FieldError id="redirect-csv-error" messages={importErrors?.file} />
                <textarea name="csv" rows={4} aria-describedby="redirect-csv-error" className={`${ADMIN_CONTROL} py-2 font-mono`} placeholder={"from,to\n/old-page,/new-page"} />
              </label>
              <label className="inline-flex items-center gap-2 text-sm font-semibold">
                <input type="checkbox" name="dry_run" value="1" defaultChecked className="size-4" /> Check only: write nothing
              </label>
              <div>
                <button type="submit" className="btn-secondary min-h-11" disabled={busy}>
                  Import
                </button>
              </div>
            </Form>
            {result?.refused?.length ? (
              <ul className="mt-3 grid gap-1 text-sm text-red-800" data-testid="redirect-import-refused">
                {result.refused.slice(0, 50).map((r) => (
                  <li key={`${r.row}-${r.column}`}>
                    Row {r.row}, {r.column}: {r.message}
                  </li>
                ))}
              </ul>
            ) : null}
          </Panel>
        </div>
      ) : null}

      <section aria-labelledby="rules-heading">
        <div className="mb-2 flex flex-wrap items-end justify-between gap-3">
          <h2 id="rules-heading" className="text-lg font-bold">
            Rules ({total.toLocaleString("en-GB")})
          </h2>
          <Form method="get" className="flex items-end gap-2" role="search">
            <label className="grid gap-1 text-sm font-semibold">
              Find by either address
              <input name="q" defaultValue={q} className={ADMIN_CONTROL} />
            </label>
            <button type="submit" className="btn-secondary min-h-10">
              Find
            </button>
          </Form>
        </div>
        {rules.length === 0 ? (
          <p className="rounded-lg border border-stone-200 bg-white p-4 text-stone-700">{q ? `No rule mentions “${q}”.` : "No rules yet."}</p>
        ) : (
          <DataTable
            caption="Redirect rules by their old address"
            rows={rules}
            rowKey={(r) => r.id}
            rowProps={() => ({ className: "max-lg:bg-white", "data-testid": "redirect-row" })}
            columns={[
              { label: "Old address", head: true, cellClassName: "font-mono font-normal", cell: (r) => <span className="break-all">{r.from}</span> },
              { label: "Matches", cell: (r) => (r.match === "exact" ? "This address" : "Everything under it") },
              { label: "New address", cellClassName: "font-mono", cell: (r) => <span className="break-all">{r.to}</span> },
              { label: "Kind", cell: (r) => r.status },
              canManage && {
                label: "Actions",
                header: <span className="sr-only">Actions</span>,
                cell: (r) => (
                  <ButtonForm fields={{ intent: "delete", id: r.id, from: r.from }} look="secondary" className="" busy={busy}>
                    Remove<span className="sr-only"> the rule for {r.from}</span>
                  </ButtonForm>
                ),
              },
            ]}
          />
        )}
        <KeysetPager search={search} cursor={after ?? undefined} nextCursor={next_after} param="after" />
      </section>
    </>
  );
}

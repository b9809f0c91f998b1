import { Form, Link, data, redirect, useNavigation, useSearchParams } from "react-router";
import { BranchForm } from "../../../components/admin/branch-form.tsx";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { ResultBanner } from "../../../components/admin/result-banner.tsx";
import { SERVICE_LABELS, WEEKDAY_NAMES } from "../../../components/branches/branch-labels.tsx";
import { serviceError } from "../../../lib/admin/access.ts";
import { type BranchFormValues, branchInputOf, formValuesOf, readBranchForm } from "../../../lib/admin/branch-form.ts";
import { pageMeta } from "../../../lib/meta.ts";
import type { StaffActor } from "../../../../server/modules/staff/actor.ts";
import type { AppContext } from "../../../context.ts";
import type { Route } from "./+types/branch";
import { staffScreen, staffPost } from "../../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData ? loaderData.branch.name : "Branch");

/** The branch by its slug, open or closed; the screen's 404 otherwise. */
async function branchOf(app: AppContext, actor: StaffActor, slug: string) {
  const found = (await app.services.branchAdmin.list(actor)).data.find((b) => b.slug === slug);
  if (!found) throw new Response("No branch has that address.", { status: 404, statusText: "Not Found" });
  return found;
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "branches.manage");
  const branch = await branchOf(app, actor, params.slug);
  return { branch, values: formValuesOf(branch) };
}

type Result = { ok: boolean; intent: string; message: string; errors?: Record<string, string[]>; values?: BranchFormValues };

export async function action({ context, request, params }: Route.ActionArgs) {
  const { app, actor, form } = await staffPost(context, request, "branches.manage");
  const intent = String(form.get("intent") ?? "save");
  const before = await branchOf(app, actor, params.slug);
  try {
    if (intent === "close" || intent === "reopen") {
      await app.services.branchAdmin.update(actor, before.slug, { status: intent === "close" ? "closed" : "open" });
      return data<Result>({ ok: true, intent, message: intent === "close" ? `${before.name} is closed: it is off the shop's pages and checkout, its history kept.` : `${before.name} is open again.` });
    }
    const values = readBranchForm(form);
    const { input, errorsOnForm } = branchInputOf(values, { postcode: before.address.postcode, is_default: before.is_default });
    try {
      const saved = await app.services.branchAdmin.update(actor, before.slug, input);
      return redirect(`/admin/branches/${saved.data.slug}?saved=1`);
    } catch (error) {
      const known = serviceError(error);
      if (!known?.errors) throw error;
      return data<Result>({ ok: false, intent, message: "Nothing was saved. Correct the fields marked below.", errors: errorsOnForm(known.errors), values }, { status: known.status });
    }
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    return data<Result>({ ok: false, intent, message: known.errors ? Object.values(known.errors).flat().join(" ") : known.message }, { status: known.status });
  }
}

export default function AdminBranch({ loaderData, actionData }: Route.ComponentProps) {
  const { branch, values } = loaderData;
  const result = actionData as Result | undefined;
  const busy = useNavigation().state === "submitting";
  const [search] = useSearchParams();
  const listed = branch.status === "open" && branch.address.postcode !== "";
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Branches", to: "/admin/branches" }, { label: branch.name }]}
        title={branch.name}
        intro={
          <>
            {branch.is_default ? "The default branch. " : ""}
            {branch.status === "closed" ? "Closed: shown nowhere, its history kept." : listed ? "Open, on the shop's branch pages." : "Not shown to customers until it has an address."}
          </>
        }
        actions={
          listed ? (
            <Link to={`/branches/${branch.slug}`} className="btn-secondary min-h-10">
              See its page on the shop
            </Link>
          ) : null
        }
      />
      {result ? (
        <ResultBanner ok={result.ok} result={result}>
          {result.message}
        </ResultBanner>
      ) : search.get("saved") || search.get("added") ? (
        <ResultBanner ok result={search.toString()}>
          {search.get("added") ? `Added ${branch.name}.` : `Saved ${branch.name}.`} Customers see the change on its page straight away.
        </ResultBanner>
      ) : null}

      <BranchForm
        key={result?.values ? JSON.stringify(result.values) : JSON.stringify(values)}
        values={result?.values ?? values}
        errors={result?.intent === "save" ? result.errors : undefined}
        isDefault={branch.is_default}
        busy={busy}
        submitLabel="Save the branch"
        serviceLabels={SERVICE_LABELS}
        weekdayNames={WEEKDAY_NAMES}
      />

      <section aria-labelledby="branch-state" className="mt-8 grid gap-3 rounded-lg border border-stone-200 bg-white p-4 lg:max-w-4xl">
        <h2 id="branch-state" className="text-lg font-bold">
          {branch.status === "closed" ? "Reopen the branch" : "Close the branch"}
        </h2>
        {branch.status === "closed" ? (
          <Form method="post">
            <input type="hidden" name="intent" value="reopen" />
            <button type="submit" className="btn-secondary min-h-10" disabled={busy}>
              Reopen {branch.name}
            </button>
          </Form>
        ) : branch.is_default ? (
          <p className="text-sm">The default branch cannot be closed: make another branch the default first.</p>
        ) : (
          <Form method="post" className="grid gap-3">
            <input type="hidden" name="intent" value="close" />
            <p className="text-sm text-stone-700">A closed branch leaves the branch finder, product pages and checkout; its stock, orders and movements are kept. Move its stock elsewhere first with a transfer.</p>
            <label className="flex min-h-10 items-center gap-2">
              <input type="checkbox" name="confirm" required className="size-5" />
              Yes, close {branch.name}
            </label>
            <button type="submit" className="btn min-h-10 justify-self-start border border-red-700 bg-white text-red-800 hover:bg-red-50" disabled={busy}>
              Close the branch
            </button>
          </Form>
        )}
      </section>
    </>
  );
}

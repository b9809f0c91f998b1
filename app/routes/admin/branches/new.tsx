import { data, redirect, useNavigation } from "react-router";
import { appContext } from "#app-context";
import { BranchForm } from "../../../components/admin/branch-form.tsx";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { ActionResultBanner } from "../../../components/admin/result-banner.tsx";
import { SERVICE_LABELS, WEEKDAY_NAMES } from "../../../components/branches/branch-labels.tsx";
import { requirePermission, serviceError } from "../../../lib/admin/access.ts";
import { type BranchFormValues, NEW_BRANCH, branchInputOf, readBranchForm } from "../../../lib/admin/branch-form.ts";
import { pageMeta } from "../../../lib/meta.ts";
import type { Route } from "./+types/new";
import { staffPost } from "../../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Add a branch");

export async function loader({ context, request }: Route.LoaderArgs) {
  requirePermission(context.get(appContext).staff, request, "branches.manage");
  return null;
}

type Result = { ok: false; message: string; errors?: Record<string, string[]>; values: BranchFormValues };

export async function action({ context, request }: Route.ActionArgs) {
  const { app, actor, form } = await staffPost(context, request, "branches.manage");
  const values = readBranchForm(form);
  const { input, errorsOnForm } = branchInputOf(values);
  try {
    const made = await app.services.branchAdmin.create(actor, input);
    return redirect(`/admin/branches/${made.data.slug}?added=1`);
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    const errors = known.errors ? errorsOnForm(known.errors) : undefined;
    return data<Result>({ ok: false, message: errors ? "The branch was not added. Correct the fields marked below." : known.message, errors, values }, { status: known.status });
  }
}

export default function AdminNewBranch({ actionData }: Route.ComponentProps) {
  const result = actionData as Result | undefined;
  const busy = useNavigation().state === "submitting";
  return (
    <>
      <PageHeader crumbs={[{ label: "Branches", to: "/admin/branches" }, { label: "Add a branch" }]} title="Add a branch" intro="It appears in the branch finder and at checkout once it is added with its address." />
      <ActionResultBanner result={result} />
      <BranchForm key={result ? JSON.stringify(result.values) : "new"} values={result?.values ?? NEW_BRANCH} errors={result?.errors} isDefault={false} busy={busy} submitLabel="Add the branch" serviceLabels={SERVICE_LABELS} weekdayNames={WEEKDAY_NAMES} />
    </>
  );
}

import { appContext } from "#app-context";
import { AccountPage } from "../../components/account-page.tsx";
import { Checkbox, ErrorText, SubmitButton } from "../../components/form.tsx";
import { FormCard } from "../../components/form-card.tsx";
import { NEWSLETTER_TOPICS } from "../../lib/account.ts";
import { browserApi } from "../../lib/browser-api.ts";
import { checked, errorFor, failureFrom, type FormResult, redirectIfSignedOut } from "../../lib/form-result.ts";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/newsletter";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Newsletter");

export async function loader({ context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const settings = await app.services.account.newsletter(app.user!.id);
  return { settings: { subscribed: settings.subscribed, topics: settings.topics } };
}

export async function clientAction({ request }: Route.ClientActionArgs): Promise<FormResult> {
  const form = await request.formData();
  const known = new Set<string>(NEWSLETTER_TOPICS.map((t) => t.value));
  const topics = form.getAll("topics").filter((t): t is string => typeof t === "string" && known.has(t));
  try {
    await browserApi().put("/api/account/newsletter", { subscribed: checked(form, "subscribed"), topics });
    return { ok: true, message: "Your newsletter choices have been saved." };
  } catch (error) {
    redirectIfSignedOut(error, request);
    return failureFrom(error, { fallback: "Your newsletter choices could not be saved. Please try again.", fields: ["subscribed", "topics"] });
  }
}

export default function Newsletter({ loaderData, actionData: result }: Route.ComponentProps) {
  const { settings } = loaderData;
  const topicsError = errorFor(result, "topics");

  return (
    <AccountPage title="Newsletter" intro="Hear about offers, new products and hire deals. We never share your address.">
      <FormCard result={result} showSuccess gap="gap-6">
        <Checkbox
          label={<span className="font-semibold">Send me the newsletter</span>}
          name="subscribed"
          defaultChecked={settings.subscribed}
          hint="Untick to stop all newsletter emails. Order and hire emails still arrive."
          error={errorFor(result, "subscribed")}
        />
        <fieldset className="grid gap-1" aria-describedby={topicsError ? "topics-error" : undefined}>
          <legend className="mb-2 font-semibold">Topics I am interested in</legend>
          <ErrorText id="topics-error" error={topicsError} />
          {NEWSLETTER_TOPICS.map((topic) => (
            <Checkbox key={topic.value} label={topic.label} name="topics" value={topic.value} defaultChecked={settings.topics.includes(topic.value)} />
          ))}
        </fieldset>
        <div>
          <SubmitButton busyLabel="Saving…">Save choices</SubmitButton>
        </div>
      </FormCard>
    </AccountPage>
  );
}

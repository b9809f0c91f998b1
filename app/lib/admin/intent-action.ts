import { data } from "react-router";
import { serviceError } from "./access.ts";

/** A form post's answer on a screen of many small forms: which form (`intent`, and the row's `id`) it answers. */
export type IntentResult = { ok: boolean; message: string; errors?: Record<string, string[]>; id?: number; intent: string };

/** What a form's post gives its handler: the intent, the row's id and the text of any field. */
export interface IntentPost {
  intent: string;
  id: number;
  text: (name: string) => string;
  form: FormData;
}

/**
 * The action of a screen of many small forms (brands, categories): `run`
 * does what the post's intent asks and says so (with the id of a row it
 * made), or answers `undefined` for an intent it does not know. A service's
 * refusal comes back beside the form that was sent, with its field errors.
 */
export async function intentAction(form: FormData, run: (post: IntentPost) => Promise<{ message: string; id?: number } | undefined>) {
  const intent = String(form.get("intent") ?? "");
  const id = Number(form.get("id"));
  const text = (name: string) => String(form.get(name) ?? "");
  try {
    const done = await run({ intent, id, text, form });
    if (!done) return data<IntentResult>({ ok: false, intent, message: "Choose what to do." }, { status: 422 });
    return data<IntentResult>({ ok: true, intent, id: done.id ?? id, message: done.message });
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    return data<IntentResult>({ ok: false, intent, id, message: known.errors ? "Nothing was changed. Check the fields marked below." : known.message, errors: known.errors }, { status: known.status });
  }
}

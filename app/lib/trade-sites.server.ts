// The sites page's writes (issue 32), on the server: add or change a site,
// archive one or bring it back. Plain form posts through the same service as
// /api/trade/sites, checked by its own schema; the service decides who may.
import { redirect } from "react-router";
import type { AppContext } from "#app-context";
import { parseInput } from "../../server/http-errors.ts";
import { siteBody } from "../../server/modules/trade/sites-contract.ts";
import { type CustomerFormFailure, customerRefusal, signedInPoster } from "./customer-forms.server.ts";
import { text } from "./form-result.ts";

export const SITE_FIELDS = ["name", "line1", "line2", "town", "county", "postcode", "contact_name", "contact_phone", "po_prefix"] as const;

export type SitesResult = { ok: true; message: string } | ({ ok: false; intent: "save" | "archive"; site: number | null } & CustomerFormFailure);

export async function sitesAction(app: AppContext, request: Request): Promise<SitesResult> {
  const userId = signedInPoster(app, request);
  const form = await request.formData();
  const intent = text(form, "intent");
  const site = Number(text(form, "site")) || null;
  const sites = app.services.tradeSites;
  if (intent === "archive" || intent === "restore") {
    try {
      const done = await sites.update(userId, site ?? 0, { archived: intent === "archive" });
      return { ok: true, message: intent === "archive" ? `${done.name} is archived: its orders keep it, and it is no longer offered at checkout.` : `${done.name} is back in use.` };
    } catch (error) {
      return { ok: false, intent: "archive", site, ...customerRefusal(error, {}, []) };
    }
  }
  const values: Record<string, string> = Object.fromEntries(SITE_FIELDS.map((f) => [f, text(form, f)]));
  values.po_required = form.get("po_required") === "yes" ? "yes" : "";
  try {
    const body = parseInput(siteBody, { ...values, po_required: values.po_required === "yes" });
    const saved = site ? await sites.update(userId, site, body) : await sites.create(userId, body);
    throw redirect(`/trade/sites?saved=${saved.id}`);
  } catch (error) {
    return { ok: false, intent: "save", site, ...customerRefusal(error, values, [...SITE_FIELDS, "po_required"]) };
  }
}

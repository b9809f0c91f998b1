import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { messageResponse } from "../auth/contract.ts";
import { staffApi } from "../staff/admin-api.ts";
import { noContent } from "../../lib/json-api.ts";
import { IMPORT_ROWS_MAX, REDIRECTS_PAGE_MAX, type RedirectService } from "./service.ts";
import { staffDoor } from "../staff/door.ts";
import { storeNothing } from "../../lib/no-store.ts";

const rule = z.object({ id: z.number().int(), from: z.string(), match: z.enum(["exact", "prefix"]), to: z.string(), status: z.number().int(), updated_at: z.string() });
const ruleBody = z.object({ from: z.string().max(500), match: z.enum(["exact", "prefix"]).optional(), to: z.string().max(2000), status: z.number().int().optional() });
const id = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** The route rules' API (issue 29): the same service as the back office's screen, which checks each permission. */
export async function redirectRoutes(app: FastifyInstance, options: { redirects: RedirectService }): Promise<void> {
  const { redirects } = options;
  const api = staffApi(app, { tags: ["admin: redirects"] });
  storeNothing(app);
  // A rules file as it is (text/csv or text/plain), up to 8 MB: fifty thousand rules.
  app.addContentTypeParser(["text/csv"], { parseAs: "string", bodyLimit: 8 * 1024 * 1024 }, (_request, body, done) => done(null, body));

  api.get(
    "/admin/redirects",
    {
      summary: `Route rules by their old path, ${REDIRECTS_PAGE_MAX} at most a page (\`after\`: the last path of the page before), \`q\` searching either address. Needs catalogue.view`,
      querystring: z.object({ q: z.string().max(200).optional(), after: z.string().max(500).optional(), limit: z.coerce.number().int().min(1).max(REDIRECTS_PAGE_MAX).optional() }),
      response: { 200: z.object({ data: z.array(rule), next_after: z.string().nullable(), total: z.number().int() }) },
    },
    (actor, request) => redirects.list(actor, request.query),
  );

  api.post(
    "/admin/redirects",
    {
      config: staffDoor("catalogue.manage"),
      summary: "A new rule: `from` a path here, `match` exact (default) or prefix (the rest of the path carried over), `to` a path here or an https:// address, `status` 301 (default), 302, 307 or 308. Applied to the next request. Needs catalogue.manage",
      body: ruleBody,
      response: { 201: rule },
    },
    async (actor, request, reply) => reply.code(201).send(await redirects.create(actor, request.body)),
  );

  api.patch(
    "/admin/redirects/:id",
    { config: staffDoor("catalogue.manage"), summary: "Changes a rule's fields. Needs catalogue.manage", params: id, body: ruleBody.partial(), response: { 200: rule, 404: messageResponse } },
    (actor, request) => redirects.update(actor, request.params.id, request.body),
  );

  api.delete(
    "/admin/redirects/:id",
    { config: staffDoor("catalogue.manage"), summary: "Removes a rule. Needs catalogue.manage", params: id, response: { 204: z.null(), 404: messageResponse } },
    noContent((actor, request) => redirects.remove(actor, request.params.id)),
  );

  api.get(
    "/admin/redirects/test",
    {
      summary: "Which rule answers a URL (a path or a whole address), and where it sends it; `rule: null` when none does. Needs catalogue.view",
      querystring: z.object({ url: z.string().min(1, "Give a path to test.").max(2000) }),
      response: { 200: z.object({ path: z.string(), rule: rule.nullable(), location: z.string().nullable(), status: z.number().int().nullable() }) },
    },
    (actor, request) => redirects.test(actor, request.query.url),
  );

  api.post(
    "/admin/redirects/import",
    {
      config: staffDoor("catalogue.manage"),
      summary: `A CSV of old → new addresses (a header row naming \`from\` and \`to\`, or \`old_path\` and \`new_path\`; optionally \`status\` and \`match\`), at most ${IMPORT_ROWS_MAX.toLocaleString("en-GB")} rows, as the body (text/csv) or \`{csv}\`. Every row is checked, then all are written (a rule for the same path replaced) or none: refused rows are named by row and column. \`?dry_run=1\` reports and writes nothing. Needs catalogue.manage`,
      querystring: z.object({ dry_run: z.enum(["0", "1", "true", "false"]).optional() }),
      response: {
        200: z.object({ rows: z.number().int(), created: z.number().int(), updated: z.number().int(), refused: z.array(z.object({ row: z.number().int(), column: z.string(), message: z.string() })), applied: z.boolean(), dry_run: z.boolean() }),
      },
    },
    (actor, request) => {
      const body = request.body as string | { csv?: unknown } | undefined;
      const text = typeof body === "string" ? body : typeof body?.csv === "string" ? body.csv : "";
      const dryRun = request.query.dry_run === "1" || request.query.dry_run === "true";
      return redirects.importCsv(actor, text, { dryRun });
    },
  );
}

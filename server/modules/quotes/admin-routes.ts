import type { FastifyInstance } from "fastify";
import { staffApi } from "../staff/admin-api.ts";
import { quoteCreateBody, quoteDeclineBody, quoteListQuery, quoteNumberParams, quotePatchBody, revisionQuery } from "./contract.ts";
import type { QuoteDesk } from "./desk.ts";
import { staffDoor } from "../staff/door.ts";
import { storeNothing } from "../../lib/no-store.ts";
import { sendPdf } from "../../lib/pdf-reply.ts";

/** The quotes desk (issue 32): reading needs quotes.view; starting, pricing, sending and declining, quotes.manage; below the floor, quotes.below_floor. Every change audited. */
export async function adminQuoteRoutes(app: FastifyInstance, options: { desk: QuoteDesk }): Promise<void> {
  const api = staffApi(app, { tags: ["admin: quotes"] });
  storeNothing(app);

  api.get(
    "/admin/quotes",
    { summary: "Quotes, newest first within a status, 50 a page (`cursor`: the last id of the page before)", querystring: quoteListQuery },
    async (actor, request) => options.desk.list(actor, request.query),
  );

  api.post(
    "/admin/quotes",
    { config: staffDoor("quotes.manage"), summary: "Starts a quote for a customer with an account, drafting, at their own prices; 422 by field", body: quoteCreateBody },
    async (actor, request, reply) => reply.code(201).send({ data: await options.desk.create(actor, request.body) }),
  );

  api.get(
    "/admin/quotes/:number",
    { summary: "A quote: lines (with the floor each may be priced down to for you), totals, revisions, timeline, and what may be done (`can`)", params: quoteNumberParams },
    async (actor, request) => ({ data: await options.desk.get(actor, request.params.number) }),
  );

  api.patch(
    "/admin/quotes/:number",
    {
      config: staffDoor("quotes.manage"),
      summary: "Prices and changes it: lines' unit price or discount, quantity, removal; new lines by SKU; delivery ex VAT (null: the usual price), last day, terms. A sent quote becomes the next revision. 403 below your floor; 409 once accepted or declined",
      params: quoteNumberParams,
      body: quotePatchBody,
    },
    async (actor, request) => ({ data: await options.desk.update(actor, request.params.number, request.body) }),
  );

  api.post(
    "/admin/quotes/:number/send",
    { config: staffDoor("quotes.manage"), summary: "Sends it: the version kept as a revision, the PDF emailed with a link to accept (valid 30 days unless a last day is set)", params: quoteNumberParams },
    async (actor, request) => ({ data: await options.desk.send(actor, request.params.number) }),
  );

  api.post(
    "/admin/quotes/:number/decline",
    {
      config: staffDoor("quotes.manage"),
      summary: "Declines the request; the customer is told the reason",
      params: quoteNumberParams,
      body: quoteDeclineBody,
    },
    async (actor, request) => ({ data: await options.desk.decline(actor, request.params.number, request.body.reason) }),
  );

  api.get(
    "/admin/quotes/:number/pdf",
    { summary: "The quote as a PDF: as it stands (a draft until sent), or a sent `revision`", params: quoteNumberParams, querystring: revisionQuery },
    async (actor, request, reply) => {
      const pdf = await options.desk.pdf(actor, request.params.number, request.query.revision);
      return sendPdf(reply, pdf, `${request.params.number}.pdf`);
    },
  );
}

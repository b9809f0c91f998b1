import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { staffActorOf } from "../staff/actor.ts";
import { quoteCreateBody, quoteDeclineBody, quoteListQuery, quoteNumberParams, quotePatchBody, revisionQuery } from "./contract.ts";
import type { QuoteDesk } from "./desk.ts";
import { staffDoor } from "../staff/door.ts";
import { storeNothing } from "../../lib/no-store.ts";

/** The quotes desk (issue 32): reading needs quotes.view; starting, pricing, sending and declining, quotes.manage; below the floor, quotes.below_floor. Every change audited. */
export async function adminQuoteRoutes(app: FastifyInstance, options: { desk: QuoteDesk }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["admin: quotes"];
  storeNothing(app);

  r.get(
    "/admin/quotes",
    { schema: { tags, summary: "Quotes, newest first within a status, 50 a page (`cursor`: the last id of the page before)", querystring: quoteListQuery } },
    async (request) => options.desk.list(staffActorOf(request), request.query),
  );

  r.post(
    "/admin/quotes",
    { config: staffDoor("quotes.manage"), schema: { tags, summary: "Starts a quote for a customer with an account, drafting, at their own prices; 422 by field", body: quoteCreateBody } },
    async (request, reply) => reply.code(201).send({ data: await options.desk.create(staffActorOf(request), request.body) }),
  );

  r.get(
    "/admin/quotes/:number",
    { schema: { tags, summary: "A quote: lines (with the floor each may be priced down to for you), totals, revisions, timeline, and what may be done (`can`)", params: quoteNumberParams } },
    async (request) => ({ data: await options.desk.get(staffActorOf(request), request.params.number) }),
  );

  r.patch(
    "/admin/quotes/:number",
    { config: staffDoor("quotes.manage"),
      schema: {
        tags,
        summary: "Prices and changes it: lines' unit price or discount, quantity, removal; new lines by SKU; delivery ex VAT (null: the usual price), last day, terms. A sent quote becomes the next revision. 403 below your floor; 409 once accepted or declined",
        params: quoteNumberParams,
        body: quotePatchBody
      },
    },
    async (request) => ({ data: await options.desk.update(staffActorOf(request), request.params.number, request.body) }),
  );

  r.post(
    "/admin/quotes/:number/send",
    { config: staffDoor("quotes.manage"), schema: { tags, summary: "Sends it: the version kept as a revision, the PDF emailed with a link to accept (valid 30 days unless a last day is set)", params: quoteNumberParams } },
    async (request) => ({ data: await options.desk.send(staffActorOf(request), request.params.number) }),
  );

  r.post(
    "/admin/quotes/:number/decline",
    { config: staffDoor("quotes.manage"),
      schema: {
        tags,
        summary: "Declines the request; the customer is told the reason",
        params: quoteNumberParams,
        body: quoteDeclineBody,
      },
    },
    async (request) => ({ data: await options.desk.decline(staffActorOf(request), request.params.number, request.body.reason) }),
  );

  r.get(
    "/admin/quotes/:number/pdf",
    { schema: { tags, summary: "The quote as a PDF: as it stands (a draft until sent), or a sent `revision`", params: quoteNumberParams, querystring: revisionQuery } },
    async (request, reply) => {
      const pdf = await options.desk.pdf(staffActorOf(request), request.params.number, request.query.revision);
      return reply.type("application/pdf").header("content-disposition", `inline; filename="${request.params.number}.pdf"`).send(pdf);
    },
  );
}

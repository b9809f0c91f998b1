import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { messageResponse, validationResponse } from "../../auth/contract.ts";
import { staffApi } from "../../staff/admin-api.ts";
import { approveBody, bookingBody, bookingQuoteQuery, chargeBody, declineBody, handOverBody, offHireBody, proposeBody, returnBody, serviceBody, settleBody } from "./contract.ts";
import type { HireOperations } from "./service.ts";
import { staffDoor } from "../../staff/door.ts";
import { storeNothing } from "../../../lib/no-store.ts";
import { sendPdf } from "../../../lib/pdf-reply.ts";

const numberParams = z.object({ number: z.string().regex(/^HR-\d{6,}$/, "Give a hire request's number, HR-000123.") });
const handoverParams = numberParams.extend({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const errors = { 401: messageResponse, 403: messageResponse, 404: messageResponse, 409: messageResponse, 422: validationResponse };
const moved = z.object({ number: z.string(), status: z.string() }).loose();

/**
 * The hire desk's operations over HTTP (issue 21): the same service as the
 * request screen, which checks `hire.desk` and audits each write. A move the
 * request's state does not allow is a 409 with a plain message.
 */
export async function hireOperationRoutes(app: FastifyInstance, options: { operations: HireOperations }): Promise<void> {
  const ops = options.operations;
  const tags = ["admin: hire desk"];
  const api = staffApi(app, { tags, errors });
  const needs = "Needs hire.desk.";
  const base = "/admin/hire/requests/:number";

  storeNothing(app);

  api.post("/admin/hire/bookings", { config: staffDoor("hire.desk"), summary: `Books a hire taken by staff (at the counter, by phone or from the planner): one unit of \`hire_item\` (a slug), \`unit_id\` or the first free unit, \`starts_on\` to \`ends_on\`, for \`customer_id\` or a walk-in \`customer: {name, phone, email?}\`. Priced by the rate card with the deposit, confirmed at once (the customer is emailed how to pay when they gave an email). 409 naming the clash when the unit (or every unit) is taken. ${needs}`, body: bookingBody, response: { 201: z.object({ number: z.string(), status: z.string(), unit: z.object({ id: z.number(), asset_number: z.string() }), starts_on: z.string(), ends_on: z.string(), hire_ex_vat: z.number(), vat: z.number(), deposit: z.number() }) } }, async (actor, request, reply) => reply.code(201).send(await ops.book(actor, request.body)));

  api.get("/admin/hire/bookings/quote", { summary: `What a booking of one unit would cost by the rate card: days, hire ex VAT, VAT, deposit and total, pounds. ${needs}`, querystring: bookingQuoteQuery, response: { 200: z.object({ hire_item: z.object({ slug: z.string(), name: z.string() }), days: z.number(), hire_ex_vat: z.number(), vat: z.number(), deposit: z.number(), total: z.number() }) } }, async (actor, request) => ops.quoteBooking(actor, request.query));

  api.get(base, { summary: `A hire request as the desk sees it: customer, lines, units with their hand-overs, charges, settlement and the moves open now (\`moves\`). Pounds. ${needs}`, params: numberParams, response: { 200: z.object({ number: z.string(), status: z.string() }).loose() } }, async (actor, request) => ops.show(actor, request.params.number),
  );

  api.post(`${base}/approve`, { config: staffDoor("hire.desk"), summary: `Approves a waiting request (pending → confirmed), optionally changing a line's dates, units (\`asset_numbers\`) or price (\`hire_cost\`, pounds ex VAT) with a \`reason\` the customer is emailed. ${needs}`, params: numberParams, body: approveBody, response: { 200: moved } }, async (actor, request) => ops.approve(actor, request.params.number, request.body),
  );

  api.post(`${base}/decline`, { config: staffDoor("hire.desk"), summary: `Declines a waiting or approved request with a \`reason\` (emailed); its units are freed. ${needs}`, params: numberParams, body: declineBody, response: { 200: moved } }, async (actor, request) => ops.decline(actor, request.params.number, request.body.reason),
  );

  api.post(`${base}/propose`, { config: staffDoor("hire.desk"), summary: `Emails the customer other dates; the request stays pending and its holds are kept 48 hours more. ${needs}`, params: numberParams, body: proposeBody, response: { 200: moved } }, async (actor, request) => ops.propose(actor, request.params.number, request.body),
  );

  api.post(`${base}/handovers`, { config: staffDoor("hire.desk"), summary: `Hands over one booked unit (\`allocation_id\`) as \`asset_number\` (the one booked or another free unit of the item): condition, accessories, ID checked and its type. The agreement is emailed as a link. 409 when the unit is out or booked for those dates. ${needs}`, params: numberParams, body: handOverBody, response: { 200: moved } }, async (actor, request) => ops.handOver(actor, request.params.number, request.body),
  );

  api.get(`${base}/handovers/:id/agreement.pdf`, { summary: `The hand-over's hire agreement, a PDF to print and sign. ${needs}`, params: handoverParams }, async (actor, request, reply) => {
    const { filename, pdf } = await ops.agreement(actor, request.params.number, request.params.id);
    return sendPdf(reply, pdf, filename);
  });

  api.post(`${base}/off-hire`, { config: staffDoor("hire.desk"), summary: `Records the customer's off-hire (by phone): charging stops on \`date\` (today unless given) for every unit still on hire, or those in \`handover_ids\`; each gets a reference OH-000123, emailed. ${needs}`, params: numberParams, body: offHireBody, response: { 200: moved } }, async (actor, request) => ops.offHire(actor, request.params.number, request.body),
  );

  api.post(`${base}/handovers/:id/return`, { config: staffDoor("hire.desk"), summary: `Takes a unit back: condition, \`returned_on\` (today unless given); charges the hire for the days out to the off-hire date (else the return date), late days past the booked return, and any damage, cleaning or other \`charges\` (pounds ex VAT, each with a reason); \`service_days\` sends it to service. ${needs}`, params: handoverParams, body: returnBody, response: { 200: moved } }, async (actor, request) => ops.returnUnit(actor, request.params.number, request.params.id, request.body),
  );

  api.post(`${base}/charges`, { config: staffDoor("hire.desk"), summary: `Adds a damage, cleaning or other charge (pounds ex VAT, with a reason) before the hire is settled. ${needs}`, params: numberParams, body: chargeBody, response: { 200: moved } }, async (actor, request) => ops.addCharge(actor, request.params.number, request.body),
  );

  api.post(`${base}/settle`, { config: staffDoor("hire.desk"), summary: `Settles a returned hire: a trade customer's on an account invoice (\`account\`); others by the emailed card link for what is left after the up-front payment, or a card refund of the excess (\`card\`), or \`arranged\`. ${needs}`, params: numberParams, body: settleBody, response: { 200: moved } }, async (actor, request) => ops.settle(actor, request.params.number, request.body),
  );

  api.post("/admin/hire/units/:id/service", { config: staffDoor("hire.desk"), summary: `Sends a unit to service (cleaning, repair) for \`days\` from \`from\` (today unless given): the planner shows it and nobody can book it. 409 when it is booked then. ${needs}`, params: z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }), body: serviceBody, response: { 200: z.object({ unit_id: z.number(), asset_number: z.string(), from: z.string(), to: z.string(), reason: z.string() }) } }, async (actor, request) => ops.sendToService(actor, request.params.id, request.body));
}

/** The agreement link emailed at hand-over: the customer (or a guest) opens the PDF with its token. */
export async function hireAgreementRoutes(app: FastifyInstance, options: { operations: HireOperations }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get("/hire-agreements/:token", { schema: { tags: ["hire"], summary: "A hire agreement PDF by the link emailed at hand-over.", params: z.object({ token: z.string().max(100) }) } }, async (request, reply) => {
    const { filename, pdf } = await options.operations.agreementByToken(request.params.token);
    return sendPdf(reply.header("cache-control", "private, no-store"), pdf, filename);
  });
}

import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { messageResponse, validationResponse } from "../../auth/contract.ts";
import { staffApi } from "../../staff/admin-api.ts";
import { signedIn } from "../../auth/signed-in.ts";
import type { TradeStatementsService } from "./statements.ts";
import { staffDoor } from "../../staff/door.ts";
import { storeNothing } from "../../../lib/no-store.ts";
import { sendPdf } from "../../../lib/pdf-reply.ts";

const id = z.coerce.number().int().positive().max(2_147_483_647);
const month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "Choose a month as YYYY-MM.");
const pounds = z.number();

export const statementSchema = z.object({
  month: z.string(),
  period_start: z.string(),
  period_end: z.string(),
  account: z.object({ id: z.number().int(), company_name: z.string(), address: z.array(z.string()), accounts_email: z.string(), terms_days: z.number().int() }),
  opening_balance: pounds.describe("Pounds owed before the month (negative: in credit)"),
  lines: z.array(
    z.object({
      date: z.string(),
      kind: z.enum(["invoice", "credit_note", "payment"]),
      reference: z.string(),
      details: z.string(),
      debit: pounds,
      credit: pounds,
      balance: pounds.describe("The running balance after this line"),
    }),
  ),
  closing_balance: pounds,
  aged: z
    .object({ days_0_30: pounds, days_31_60: pounds, days_61_90: pounds, over_90: pounds, unallocated: pounds.describe("Payments not set against an invoice at the month's end (0 or less)") })
    .describe("What was owed at the month's end, by the age of its invoice (from the invoice date); the five add up to the closing balance"),
});

const errors = { 401: messageResponse, 403: messageResponse, 404: messageResponse, 422: validationResponse };

/** The trade desk's statements (issue 21), the same service as the statement screen; invoices.manage. */
export async function tradeStatementRoutes(app: FastifyInstance, options: { statements: TradeStatementsService }): Promise<void> {
  const { statements } = options;
  const tags = ["admin: trade desk"];
  const api = staffApi(app, { tags, errors });
  const needs = "Needs invoices.manage";

  storeNothing(app);

  api.get(
    "/admin/trade/accounts/:id/statement",
    {
      summary: `A trade account's statement for a month (\`month=YYYY-MM\`, this month so far or any before): balance brought forward, the month's invoices, credit notes and payments in date order with a running balance, the closing balance and the aged debt by invoice date. Pounds. ${needs}`,
      params: z.object({ id }),
      querystring: z.object({ month }),
      response: { 200: statementSchema },
    },
    async (actor, request) => statements.json(actor, request.params.id, request.query.month),
  );

  api.get(
    "/admin/trade/accounts/:id/statements/:month(^\\d{4}-\\d{2}).pdf",
    {
      summary: `The month's statement as a PDF (attachment), e.g. \`/statements/2026-10.pdf\`. ${needs}`,
      params: z.object({ id, month }),
      produces: ["application/pdf"],
    },
    async (actor, request, reply) => {
      const { filename, pdf } = await statements.pdf(actor, request.params.id, request.params.month);
      return sendPdf(reply, pdf, filename, "attachment");
    },
  );

  api.post(
    "/admin/trade/accounts/:id/statements/:month/email",
    {
      config: staffDoor("invoices.manage"),
      summary: `Emails the month's statement to the account's accounts address now (audited); the monthly statement job still sends its own once. ${needs}`,
      params: z.object({ id, month }),
      response: { 200: z.object({ to: z.string(), month: z.string() }) },
    },
    async (actor, request) => statements.email(actor, request.params.id, request.params.month),
  );

  const amounts = { balance: pounds, current: pounds.describe("Not yet due"), days_1_30: pounds, days_31_60: pounds, days_61_90: pounds, over_90: pounds, total: pounds };
  api.get(
    "/admin/trade/aged-debt",
    {
      summary: `Every account with anything outstanding: its balance and what its invoices still owe by days past the due date (not yet due, 1-30, 31-60, 61-90, over 90), the most overdue first, and a totals row. Pounds. ${needs}`,
      response: {
        200: z.object({
          as_of: z.string(),
          data: z.array(z.object({ account_id: z.number().int(), company_name: z.string(), on_hold: z.boolean(), ...amounts, oldest_overdue_days: z.number().int() })),
          totals: z.object(amounts),
        }),
      },
    },
    async (actor) => statements.agedDebt.report(actor),
  );

  api.get(
    "/admin/trade/aged-debt.csv",
    { summary: `The aged-debt report as CSV (UTF-8 with a byte order mark, formulas escaped), a row per account then the totals. ${needs}`, produces: ["text/csv"] },
    async (actor, _request, reply) => {
      const { asOf, stream } = await statements.agedDebt.csv(actor);
      return reply.type("text/csv; charset=utf-8").header("content-disposition", `attachment; filename="aged-debt-${asOf}.csv"`).send(stream);
    },
  );
}

/** A trade member's own statement (owners, admins and accounts users, as for invoices; anyone else 404, a guest 401). */
export async function tradeMemberStatementRoutes(app: FastifyInstance, options: { statements: TradeStatementsService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  storeNothing(app, "private, no-store");
  r.get(
    "/trade/statement.pdf",
    {
      schema: {
        tags: ["trade"],
        summary: "The company's statement for a month (`month=YYYY-MM`, this month so far or any before) as a PDF (attachment): balance brought forward, invoices, credit notes, payments, balance carried forward, aged debt",
        querystring: z.object({ month, // The page's form sends an empty site for "All sites".
        site: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().positive().max(2_147_483_647).optional()).describe("A site's statement: its invoices, their credit notes and the payments set against them") }),
        produces: ["application/pdf"],
      },
    },
    async (request, reply) => {
      const { filename, pdf } = await options.statements.memberPdf(signedIn(request).id, request.query.month, request.query.site);
      return sendPdf(reply, pdf, filename, "attachment");
    },
  );
}

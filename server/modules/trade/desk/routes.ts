import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { auditEntryJson } from "../../audit/routes.ts";
import { messageResponse, validationResponse } from "../../auth/contract.ts";
import { staffApi } from "../../staff/admin-api.ts";
import { creditNotePdf } from "../invoices/credit-note-pdf.ts";
import { ACCOUNT_SORTS, DESK_PAGE_MAX, type TradeDesk } from "./desk.ts";
import { INVOICE_STATUSES } from "../invoices/invoice-schema.ts";
import { TRADE_PAYMENT_METHODS } from "../credit/ledger-schema.ts";
import { tradeAccountJson } from "../contract.ts";
import { COMPANY_TYPES, TRADE_ACCOUNT_STATES, TRADE_ROLES } from "../schema.ts";
import { signedIn } from "../../auth/signed-in.ts";
import { siteJson } from "../sites-contract.ts";
import { staffDoor } from "../../staff/door.ts";
import { sendPdf } from "../../../lib/pdf-reply.ts";

const poundsField = z.number().describe("Pounds");
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Give the date as YYYY-MM-DD.");
/** Money in the body: pounds with at most 2 decimals. */
const amount = (what: string) =>
  z
    .number({ error: `Enter the ${what} in pounds.` })
    .positive(`The ${what} must be more than £0.00.`)
    .max(10_000_000, `The ${what} must be at most £10,000,000.`)
    .refine((v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6, `The ${what} can have at most 2 decimals.`);

const accountRow = z.object({
  id: z.number().int(),
  company_name: z.string(),
  accounts_email: z.string(),
  state: z.enum(TRADE_ACCOUNT_STATES),
  balance: poundsField.describe("Pounds owed: invoices − credit notes − payments; negative is credit on account"),
  credit_limit: poundsField,
  overdue: poundsField.describe("Pounds outstanding on invoices past their due date"),
  overdue_days: z.number().int().describe("Days since the oldest overdue invoice fell due; 0 when none"),
  oldest_due_date: z.string().nullable(),
  terms_days: z.number().int(),
  on_hold: z.boolean(),
  hold_reason: z.enum(["", "overdue", "manual"]).describe("overdue: lifted by itself once nothing is overdue; manual: by staff"),
});
const deskInvoice = z.object({
  number: z.string(),
  invoice_date: z.string(),
  due_date: z.string(),
  source: z.string().describe("The order's number, or the hire request's"),
  po_reference: z.string(),
  total: poundsField,
  paid: poundsField,
  credited: poundsField,
  outstanding: poundsField.describe("total − paid − credited"),
  status: z.enum(INVOICE_STATUSES),
  overdue: z.boolean(),
});
const accountWithInvoices = accountRow.extend({ invoices: z.array(deskInvoice).describe("Open invoices first (oldest due first), then paid ones, newest first") });
const creditNote = z.object({
  number: z.string(),
  invoice_number: z.string(),
  company_name: z.string(),
  reason: z.string(),
  issued_on: z.string(),
  subtotal: poundsField,
  vat: poundsField,
  delivery: poundsField,
  total: poundsField,
  applied: poundsField.describe("Set against the invoice"),
  on_account: poundsField.describe("The rest: credit on account (the invoice was already paid)"),
  lines: z.array(z.object({ source: z.string(), description: z.string(), quantity: z.number().int(), net: poundsField, vat: poundsField, discount: poundsField })),
});
const accountDetail = accountWithInvoices.extend({
  company_type: z.enum(COMPANY_TYPES),
  company_number: z.string().nullable(),
  vat_number: z.string().nullable(),
  trade: z.string(),
  address: z.array(z.string()),
  phone: z.string(),
  discount_percent: z.number(),
  po_required: z.boolean(),
  available_credit: poundsField,
  unallocated_credit: poundsField.describe("Payments' money not yet set against an invoice: what POST …/credit-allocations may allocate (a credit note's part beyond its invoice is in the balance but not allocatable)"),
  held_at: z.string().nullable(),
  decision_note: z.string(),
  members: z.array(z.object({ name: z.string(), email: z.string(), role: z.enum(TRADE_ROLES) })),
  sites: z.array(siteJson).describe("The company's sites, live first then archived"),
  payments: z.array(
    z.object({
      number: z.string(),
      amount: poundsField,
      method: z.enum(TRADE_PAYMENT_METHODS),
      reference: z.string(),
      received_on: z.string(),
      unallocated: poundsField,
      allocations: z.array(z.object({ invoice_number: z.string(), amount: poundsField })),
    }),
  ),
  credit_notes: z.array(creditNote),
  remittances_waiting: z.array(z.object({ reference: z.string(), amount: poundsField, provider: z.string(), created_at: z.string(), invoices: z.array(z.string()) })),
  notes: z.array(z.object({ id: z.number().int(), body: z.string(), staff_name: z.string(), created_at: z.string() })),
  audit: z.array(auditEntryJson),
});
// The company's details as the customer's own trade API shows them; the desk shows the address on one line.
const application = tradeAccountJson.pick({ id: true, company_name: true, company_type: true, company_number: true, vat_number: true, trade: true, phone: true, accounts_email: true }).extend({
  address: z.string(),
  applicant: z.object({ name: z.string(), email: z.string() }),
  expected_monthly_spend: poundsField,
  requested_credit_limit: poundsField,
  applied_at: z.string(),
  info_requested_at: z.string().nullable(),
  decision_note: z.string(),
});

export const accountListQuery = z.object({
  sort: z.enum(ACCOUNT_SORTS, { error: "Sort by overdue, name or balance." }).default("overdue"),
  state: z.enum(TRADE_ACCOUNT_STATES, { error: "Choose pending, approved, declined or suspended." }).optional(),
  on_hold: z.enum(["true", "false"], { error: "on_hold is true or false." }).transform((v) => v === "true").optional(),
  q: z.string().trim().max(100).optional(),
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(DESK_PAGE_MAX).default(50),
});
export const termsBody = z.object({
  credit_limit: z.number({ error: "Enter the credit limit in pounds." }).min(0, "The credit limit must be between £0 and £10,000,000.").max(10_000_000, "The credit limit must be between £0 and £10,000,000.").optional(),
  terms_days: z.number({ error: "Enter the payment terms in days." }).int("The payment terms must be a whole number of days from 0 to 365.").min(0, "The payment terms must be a whole number of days from 0 to 365.").max(365, "The payment terms must be a whole number of days from 0 to 365.").optional(),
  discount_percent: z.number({ error: "Enter the discount as a percentage." }).min(0, "The discount must be a percentage from 0 to 99.99.").max(99.99, "The discount must be a percentage from 0 to 99.99.").optional(),
  po_required: z.boolean().optional(),
});
export const approveBody = termsBody.extend({
  credit_limit: termsBody.shape.credit_limit.unwrap(),
  terms_days: termsBody.shape.terms_days.unwrap(),
  discount_percent: termsBody.shape.discount_percent.unwrap(),
});
export const paymentBody = z.object({
  amount: amount("amount"),
  method: z.enum(TRADE_PAYMENT_METHODS, { error: "Choose bacs, cheque, card or cash." }),
  reference: z.string().trim().max(200, "Keep the reference under 200 characters.").default(""),
  received_on: day.optional(),
  allocations: z
    .array(z.object({ invoice_number: z.string().trim().min(1, "Give the invoice number.").max(40), amount: amount("allocation") }))
    .max(200, "Allocate to at most 200 invoices at once.")
    .default([]),
});
export const creditAllocationBody = z.object({
  allocations: z
    .array(z.object({ invoice_number: z.string().trim().min(1, "Give the invoice number.").max(40), amount: amount("allocation") }))
    .min(1, "Choose at least one invoice to set the credit against.")
    .max(200, "Allocate to at most 200 invoices at once."),
});
export const creditNoteBody = z.object({
  reason: z.string().trim().min(1, "Give the reason for the credit note.").max(1000, "Keep the reason under 1,000 characters."),
  whole: z.boolean().optional(),
  lines: z
    .array(z.object({ source: z.string().trim().min(1).max(60), quantity: z.number({ error: "Enter a quantity." }).int("Quantities are whole numbers.").min(1, "Credit at least 1.") }))
    .max(500)
    .optional(),
});
const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

const errors = { 401: messageResponse, 403: messageResponse, 404: messageResponse, 409: messageResponse, 422: validationResponse };

/**
 * The trade desk's API (issue 21): `trade.manage` (applications, terms,
 * holds, notes) and `invoices.manage` (payments, remittances, credit notes),
 * either to read; the service checks. Also a customer's own credit note PDF.
 */
export async function tradeDeskRoutes(app: FastifyInstance, options: { desk: TradeDesk }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const desk = options.desk;
  const tags = ["admin: trade desk"];
  const api = staffApi(app, { tags, errors });

  // The customer's own credit note is private to them, as their invoices are.
  app.addHook("onSend", async (request, reply) => {
    reply.header("cache-control", request.url.startsWith("/api/admin/") ? "no-store" : "private, no-store");
  });

  api.get(
    "/admin/trade/accounts",
    {
      summary:
        "Trade accounts, a keyset page at a time (`next_cursor`): `sort` overdue (most overdue amount first, ties by the oldest due date; the default), name or balance (most owed first); filter by `state`, `on_hold`, search `q` in the company name or accounts email. Money in pounds. Needs trade.manage or invoices.manage",
      querystring: accountListQuery,
      response: { 200: z.object({ data: z.array(accountRow), next_cursor: z.string().nullable() }) },
    },
    async (actor, request) => desk.accounts(actor, request.query),
  );

  api.get(
    "/admin/trade/accounts/:id",
    { summary: "An account's page: terms, members and roles, invoices, payments, credit notes, remittances waiting, notes, audit history. Needs trade.manage or invoices.manage", params: idParams, response: { 200: z.object({ data: accountDetail }) } },
    async (actor, request) => ({ data: await desk.account(actor, request.params.id) }),
  );

  api.patch(
    "/admin/trade/accounts/:id",
    { config: staffDoor("trade.manage"), summary: "New terms: credit limit (pounds), terms in days, discount percent, PO required; only the fields given change. Audited. Needs trade.manage", params: idParams, body: termsBody, response: { 200: z.object({ data: accountRow }) } },
    async (actor, request) => ({ data: await desk.updateTerms(actor, request.params.id, request.body) }),
  );

  api.post(
    "/admin/trade/accounts/:id/hold",
    {
      config: staffDoor("trade.manage"),
      summary: "Put the account on hold by hand (pay on account refused until released); the reason goes in its notes. 409 when already on a manual hold. Needs trade.manage",
      params: idParams,
      body: z.object({ reason: z.string().trim().min(1, "Say why the account is on hold.").max(1000) }),
      response: { 200: z.object({ data: accountRow }) },
    },
    async (actor, request) => ({ data: await desk.hold(actor, request.params.id, request.body.reason) }),
  );

  api.post(
    "/admin/trade/accounts/:id/release",
    { config: staffDoor("trade.manage"), summary: "Release a hold, manual or overdue (an overdue invoice still blocks pay on account, and the daily job holds it again). 409 when not on hold. Needs trade.manage", params: idParams, response: { 200: z.object({ data: accountRow }) } },
    async (actor, request) => ({ data: await desk.release(actor, request.params.id) }),
  );

  api.post(
    "/admin/trade/accounts/:id/notes",
    {
      config: staffDoor("trade.manage"),
      summary: "A note between staff about the account (never shown to the customer). Needs trade.manage",
      params: idParams,
      body: z.object({ body: z.string().trim().min(1, "Write the note.").max(4000, "Keep the note under 4,000 characters.") }),
      response: { 201: z.object({ data: z.object({ id: z.number().int(), body: z.string(), staff_name: z.string(), created_at: z.string() }) }) },
    },
    async (actor, request, reply) => reply.code(201).send({ data: await desk.addNote(actor, request.params.id, request.body.body) }),
  );

  api.post(
    "/admin/trade/accounts/:id/payments",
    {
      config: staffDoor("invoices.manage"),
      summary:
        "Money received (pounds): allocated to invoices by number, the rest kept as credit on account. 422 names the problem: allocations over the payment, over an invoice's outstanding amount, another account's invoice, a paid invoice. Confirms any remittance it completes, lifts an overdue hold once nothing is overdue, emails a receipt. Answers the account with its invoices. Needs invoices.manage",
      params: idParams,
      body: paymentBody,
      response: { 201: accountWithInvoices },
    },
    async (actor, request, reply) => reply.code(201).send(await desk.pay(actor, request.params.id, request.body)),
  );

  api.post(
    "/admin/trade/accounts/:id/credit-allocations",
    {
      config: staffDoor("invoices.manage"),
      summary:
        "Credit on account set against open invoices by number (pounds): the unallocated money of the account's payments, the oldest received first. The balance does not change. 422 names the problem: more than the credit on account, more than an invoice's outstanding amount, another account's invoice, a paid invoice. Only payments' money is allocatable, not a credit note's part beyond its invoice. Confirms any remittance it completes, lifts an overdue hold once nothing is overdue. Answers the account with its invoices. Audited. Needs invoices.manage",
      params: idParams,
      body: creditAllocationBody,
      response: { 200: accountWithInvoices },
    },
    async (actor, request) => desk.allocateCredit(actor, request.params.id, request.body),
  );

  api.post(
    "/admin/trade/remittances/:reference/confirm",
    {
      config: staffDoor("invoices.manage"),
      summary: "A customer's remittance (from /trade/invoices/pay) whose money has arrived: records one payment of what is outstanding on its invoices and confirms it. 409 when already confirmed. Answers the account with its invoices. Needs invoices.manage",
      params: z.object({ reference: z.string().max(40) }),
      body: z.object({ method: z.enum(TRADE_PAYMENT_METHODS).optional(), received_on: day.optional() }).default({}),
      response: { 200: accountWithInvoices },
    },
    async (actor, request) => desk.confirmRemittance(actor, request.params.reference, request.body),
  );

  api.get(
    "/admin/trade/invoices/:number",
    {
      summary: "An invoice with what of it can still be credited, line by line (`creditable`; a hire invoice is credited whole). Needs trade.manage or invoices.manage",
      params: z.object({ number: z.string().max(40) }),
      response: {
        200: z.object({
          data: deskInvoice.extend({
            account_id: z.number().int(),
            whole_only: z.boolean(),
            creditable: z.array(z.object({ source: z.string(), description: z.string(), quantity: z.number().int(), remaining: z.number().int(), net: poundsField, vat: poundsField })),
          }),
        }),
      },
    },
    async (actor, request) => ({ data: await desk.invoice(actor, request.params.number) }),
  );

  api.post(
    "/admin/trade/invoices/:number/credit-notes",
    {
      config: staffDoor("invoices.manage"),
      summary:
        "A credit note against the invoice: `whole: true` for all not yet credited, or `lines` [{source, quantity}] (sources as `creditable` lists them: `order_line:41`, `delivery`), never past a line's quantity; with the reason. Up to the invoice's outstanding amount is set against it, the rest is credit on account. Emailed to the accounts address with a link to its PDF. Needs invoices.manage",
      params: z.object({ number: z.string().max(40) }),
      body: creditNoteBody,
      response: { 201: z.object({ data: creditNote }) },
    },
    async (actor, request, reply) => reply.code(201).send({ data: await desk.credit(actor, request.params.number, request.body) }),
  );

  api.get(
    "/admin/trade/credit-notes/:file",
    { summary: "A credit note as a PDF: /admin/trade/credit-notes/CN-000007.pdf. Needs trade.manage or invoices.manage", params: z.object({ file: z.string().max(44) }) },
    async (actor, request, reply) => {
      const number = request.params.file.replace(/\.pdf$/i, "");
      const note = await desk.creditNoteForStaff(actor, number);
      return sendPdf(reply, await creditNotePdf(note), `${note.number}.pdf`);
    },
  );

  api.get(
    "/admin/trade/applications",
    { summary: "Applications waiting for a decision, oldest first. Needs trade.manage", response: { 200: z.object({ data: z.array(application) }) } },
    async (actor) => ({ data: await desk.applications(actor) }),
  );

  api.post(
    "/admin/trade/applications/:id/approve",
    {
      config: staffDoor("trade.manage"),
      summary: "Approve with a credit limit (pounds), terms (days), discount (percent) and whether orders on account need a PO; the applicant is emailed. Needs trade.manage",
      params: idParams,
      body: approveBody,
      response: { 200: z.object({ data: accountRow }) },
    },
    async (actor, request) => ({ data: await desk.approve(actor, request.params.id, request.body) }),
  );

  api.post(
    "/admin/trade/applications/:id/decline",
    {
      config: staffDoor("trade.manage"),
      summary: "Decline a pending application with a reason, put in the applicant's email. Needs trade.manage",
      params: idParams,
      body: z.object({ reason: z.string().trim().min(1, "Give the reason for declining.").max(1000, "Keep the reason under 1,000 characters.") }),
      response: { 200: z.object({ data: accountRow }) },
    },
    async (actor, request) => ({ data: await desk.decline(actor, request.params.id, request.body.reason) }),
  );

  api.post(
    "/admin/trade/applications/:id/request-info",
    {
      config: staffDoor("trade.manage"),
      summary: "Ask the applicant for more information (emailed); the application stays pending. Needs trade.manage",
      params: idParams,
      body: z.object({ message: z.string().trim().min(1, "Say what information you need.").max(2000, "Keep the message under 2,000 characters.") }),
      response: { 200: z.object({ data: accountRow }) },
    },
    async (actor, request) => ({ data: await desk.requestInfo(actor, request.params.id, request.body.message) }),
  );

  r.get(
    "/trade/credit-notes",
    { schema: { tags: ["trade invoices"], summary: "The company's credit notes, newest first (the latest 100), money in pounds; owners, admins and accounts users; 401 for a guest, 404 for anyone else", response: { 200: z.object({ data: z.array(creditNote) }), ...errors } } },
    async (request) => ({ data: await desk.creditNotesOfMember(signedIn(request).id) }),
  );

  r.get(
    "/trade/credit-notes/:number/pdf",
    { schema: { tags: ["trade invoices"], summary: "One of the company's credit notes as a PDF, for its owners, admins and accounts users; 401 for a guest, 404 for anyone else", params: z.object({ number: z.string().max(40) }) } },
    async (request, reply) => {
      const note = await desk.creditNoteForMember(signedIn(request).id, request.params.number);
      return sendPdf(reply, await creditNotePdf(note), `${note.number}.pdf`, "attachment");
    },
  );
}

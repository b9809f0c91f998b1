import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { messageResponse, validationResponse } from "../../auth/contract.ts";
import { INVOICE_STATUSES } from "./invoice-schema.ts";
import { invoicePdf } from "./invoice-pdf.ts";
import { INVOICE_FILTERS, INVOICE_PAGE_MAX, type TradeInvoicesService } from "./invoices.ts";
import { PAY_MAX, PAY_MESSAGES, type TradePaymentsService } from "../credit/remittances.ts";
import { tradeIdParams } from "../accounts/users-contract.ts";
import { jsonApi } from "../../../lib/json-api.ts";
import { signedIn } from "../../auth/signed-in.ts";
import { storeNothing } from "../../../lib/no-store.ts";
import { sendPdf } from "../../../lib/pdf-reply.ts";

const pence = z.number().int();
const invoiceSummary = z.object({
  id: z.number().int(),
  number: z.string(),
  order_id: z.number().int().nullable().describe("Null for a hire invoice, whose order_number is its hire request's"),
  order_number: z.string(),
  invoice_date: z.string(),
  due_date: z.string(),
  po_reference: z.string(),
  site: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  subtotal: pence,
  vat: pence,
  delivery: pence,
  total: pence,
  status: z.enum(INVOICE_STATUSES),
  overdue: z.boolean(),
});
const invoiceDetail = invoiceSummary.extend({
  paid_at: z.string().nullable(),
  lines: z.array(z.object({ sku: z.string(), name: z.string(), quantity: z.number().int(), unit: z.string(), unit_price: pence, vat_rate: z.number(), discount: pence, line_total: pence, line_vat: pence })),
  vat_breakdown: z.array(z.object({ rate: z.number(), net: pence, vat: pence })),
  shop: z.object({ name: z.string(), email: z.string(), address: z.array(z.string()), vat_number: z.string() }),
  company: z.object({ name: z.string(), address: z.array(z.string()), company_number: z.string().nullable(), vat_number: z.string().nullable(), accounts_email: z.string(), terms_days: z.number().int() }),
});
const listQuery = z.object({
  status: z.enum(INVOICE_FILTERS, { error: "Choose all, unpaid, overdue or paid." }).default("all"),
  q: z.string().trim().max(100).optional(),
  site: z.coerce.number().int().positive().max(2_147_483_647).optional().describe("Only the invoices for this one of the company's sites"),
  after: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  limit: z.coerce.number().int().min(1).max(INVOICE_PAGE_MAX).default(50),
});

const payBody = z.object({
  invoice_ids: z
    .array(z.number({ error: "Choose invoices by their ids." }).int().positive().max(2_147_483_647), { error: PAY_MESSAGES.none })
    .min(1, PAY_MESSAGES.none)
    .max(PAY_MAX, PAY_MESSAGES.tooMany)
    .refine((ids) => new Set(ids).size === ids.length, PAY_MESSAGES.twice),
  provider: z.enum(["bank_transfer", "card"], { error: PAY_MESSAGES.provider }).default("bank_transfer"),
});
const remittanceJson = z.object({
  reference: z.string(),
  amount: z.number(),
  provider: z.string(),
  status: z.enum(["pending", "confirmed"]),
  created_at: z.string(),
  invoices: z.array(z.object({ id: z.number().int(), number: z.string(), total: pence, status: z.enum(INVOICE_STATUSES) })),
});
const instructionsJson = z.object({
  provider: z.string(),
  summary: z.string(),
  reference: z.string(),
  amount: z.number(),
  pay_to: z.object({ account_name: z.string(), sort_code: z.string(), account_number: z.string() }).nullable(),
});

/** The company's invoices: owners, admins and accounts users; everyone else gets 404 (a guest 401). */
export async function tradeInvoicesRoutes(app: FastifyInstance, options: { invoices: TradeInvoicesService; payments: TradePaymentsService }): Promise<void> {
  const { invoices, payments } = options;
  const errors = { 401: messageResponse, 404: messageResponse, 422: validationResponse };
  const api = jsonApi(app, { tags: ["trade"], errors, who: signedIn });

  storeNothing(app, "private, no-store");

  api.get(
    "/trade/invoices",
    {
      summary: "The company's invoices, newest first: filter (all, unpaid, overdue, paid), search by invoice number or PO reference, totals of what matches; keyset pages via `after`",
      querystring: listQuery,
      response: {
        200: z.object({ data: z.array(invoiceSummary), totals: z.object({ count: z.number().int(), total: pence, outstanding: pence, overdue: pence }), next_cursor: z.number().int().nullable() }),
      },
    },
    async (user, request) => invoices.list(user.id, request.query),
  );

  api.get(
    "/trade/invoices/:id",
    { summary: "One invoice: lines, VAT breakdown, the shop's and the company's details and VAT numbers, due date, status", params: tradeIdParams, response: { 200: z.object({ data: invoiceDetail }) } },
    async (user, request) => ({ data: await invoices.show(user.id, request.params.id) }),
  );

  api.get(
    "/trade/invoices/:id/pdf",
    { summary: "The invoice as a PDF generated on the server (attachment); 401 for a guest, 404 without the right", params: tradeIdParams },
    async (user, request, reply) => {
      const invoice = await invoices.show(user.id, request.params.id);
      return sendPdf(reply, await invoicePdf(invoice), `${invoice.number}.pdf`, "attachment");
    },
  );

  api.post(
    "/trade/invoices/pay",
    {
      summary:
        "Pay unpaid invoices of the company with one remittance: they become payment pending. By bank transfer the answer says where to send the money and which reference to quote; by card (`provider: card`, offered only when card payment is) it carries `payment.redirect_url`, the payment page for exactly their total, and they become paid when the payment arrives (503 when the payment service does not answer: nothing is recorded). Owners, admins and accounts users; 422 names each invoice that is not the company's or not unpaid",
      body: payBody,
      response: {
        201: z.object({ data: z.object({ remittance: remittanceJson, instructions: instructionsJson, payment: z.object({ redirect_url: z.string() }).optional() }) }),
        503: messageResponse,
      },
    },
    async (user, request, reply) => {
      const paid = await payments.pay(user.id, { invoiceIds: request.body.invoice_ids, provider: request.body.provider });
      return reply.code(201).send({ data: paid });
    },
  );

  api.get(
    "/trade/remittances",
    { summary: "The company's remittances (payments of invoices), newest first, the latest 50", response: { 200: z.object({ data: z.array(remittanceJson) }) } },
    async (user) => ({ data: await payments.list(user.id) }),
  );
}

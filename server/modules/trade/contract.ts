import { z } from "zod";
import { emailField } from "../auth/contract.ts";
import { ukPostcode } from "../account/contract.ts";
import { INVOICE_STATUSES } from "./invoices/invoice-schema.ts";
import { COMPANY_TYPES, TRADE_ACCOUNT_STATES, TRADE_ROLES } from "./schema.ts";

/** Companies House: 8 characters, 8 digits or 2 letters and 6 digits (`01234567`, `SC123456`). */
export const COMPANY_NUMBER = /^(?:\d{8}|[A-Z]{2}\d{6})$/;
/** GB VAT: 9 digits, 12 for a branch, or GD/HA and 3 digits for government and health bodies. */
export const GB_VAT_NUMBER = /^GB(?:\d{9}|\d{12}|GD[0-4]\d{2}|HA[5-9]\d{2})$/;

/** `sc 123 456` → `SC123456`: people type spaces and lower case. */
const compact = (v: string) => v.replace(/\s+/g, "").toUpperCase();

const required = (message: string, max = 100) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(max, `At most ${max} characters.`);

/** Pounds from 0 to £10m with at most 2 decimals; the service keeps pence. */
const pounds = (label: string) =>
  z
    .number({ error: `Enter the ${label} in pounds.` })
    .min(0, `The ${label} cannot be negative.`)
    .max(10_000_000, `The ${label} must be at most £10,000,000.`)
    .refine((n) => Math.round(n * 100) === Math.round(n * 100 * 1e6) / 1e6, `The ${label} can have at most 2 decimals.`);

export const tradeSetupBody = z
  .object({
    company_name: required("Enter the company name.", 120),
    company_type: z.enum(COMPANY_TYPES, { error: "Choose sole trader, partnership or limited company." }),
    company_number: z
      .string()
      .transform(compact)
      .refine((v) => v === "" || COMPANY_NUMBER.test(v), "Enter the 8-character Companies House number, e.g. 01234567 or SC123456.")
      .optional()
      .default(""),
    vat_number: z
      .string()
      .transform(compact)
      .transform((v) => (v && !v.startsWith("GB") ? `GB${v}` : v))
      .refine((v) => v === "" || GB_VAT_NUMBER.test(v), "Enter a GB VAT number, e.g. GB123456789.")
      .optional()
      .default(""),
    trade: required("Enter your trade, e.g. builder or electrician.", 80),
    line1: required("Enter the first line of the business address."),
    line2: z.string().trim().max(100, "At most 100 characters.").optional().default(""),
    town: required("Enter the town or city.", 60),
    county: z.string().trim().max(60, "At most 60 characters.").optional().default(""),
    postcode: ukPostcode,
    phone: z
      .string({ error: "Enter a phone number." })
      .trim()
      .min(1, "Enter a phone number.")
      .max(30, "The phone number is too long.")
      .regex(/^[0-9+() -]*$/, "Enter a valid phone number.")
      // An empty number already has its message from min(1).
      .refine((p) => p === "" || p.replace(/\D/g, "").length >= 10, "Enter a valid phone number."),
    accounts_email: emailField,
    expected_monthly_spend: pounds("expected monthly spend"),
    requested_credit_limit: pounds("requested credit limit"),
  })
  .refine((b) => b.company_type !== "limited_company" || b.company_number !== "", {
    message: "Enter the Companies House number: it is required for a limited company.",
    path: ["company_number"],
    // Also when other fields failed, so the form shows every message at once.
    when: (payload) => {
      // The body may be null or any other JSON, not an object: that failed already, with its own message.
      if (typeof payload.value !== "object" || payload.value === null) return false;
      const v = payload.value as { company_type?: unknown; company_number?: unknown };
      return v.company_type === "limited_company" && (v.company_number === undefined || v.company_number === "");
    },
  });
export type TradeSetupInput = z.infer<typeof tradeSetupBody>;

export const tradeAccountJson = z.object({
  id: z.number().int(),
  company_name: z.string(),
  company_type: z.enum(COMPANY_TYPES),
  company_number: z.string().nullable(),
  vat_number: z.string().nullable(),
  trade: z.string(),
  address: z.object({ line1: z.string(), line2: z.string(), town: z.string(), county: z.string(), postcode: z.string() }),
  phone: z.string(),
  accounts_email: z.string(),
  expected_monthly_spend: z.number(),
  requested_credit_limit: z.number(),
  state: z.enum(TRADE_ACCOUNT_STATES),
  /** Pounds; 0 until approved. */
  credit_limit: z.number(),
  terms_days: z.number().int(),
  discount_percent: z.number(),
  role: z.enum(TRADE_ROLES),
  prices_inc_vat: z.boolean(),
  created_at: z.string(),
});
export type TradeAccountJson = z.infer<typeof tradeAccountJson>;

export const tradeDashboardJson = tradeAccountJson.extend({
  credit: z.object({ limit: z.number(), balance: z.number(), available: z.number(), overdue: z.number() }).nullable(),
  recent_orders: z.array(
    z.object({
      id: z.number().int(),
      number: z.string(),
      created_at: z.string(),
      placed_by: z.string(),
      placed_by_you: z.boolean(),
      total: z.number(),
      status: z.string(),
      status_label: z.string(),
      payment_method: z.string(),
    }),
  ),
  unpaid_invoices: z
    .array(
      z.object({
        id: z.number().int(),
        number: z.string(),
        order_number: z.string(),
        invoice_date: z.string(),
        due_date: z.string(),
        total: z.number(),
        status: z.enum(INVOICE_STATUSES),
        overdue: z.boolean(),
      }),
    )
    .nullable(),
  scope: z.enum(["company", "own"]),
  monthly_spend: z.array(z.object({ month: z.string(), total: z.number() })),
});

export const priceDisplayBody = z.object({ prices_inc_vat: z.boolean({ error: "Choose inc VAT or ex VAT." }) });

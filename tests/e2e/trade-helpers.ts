// The demo trade company as the browser tests share it. Its seed holds one
// overdue invoice (so its members cannot pay on account: the dashboard spec
// shows that) and a few unpaid invoices not yet due. Tests that pay take one
// of those each, by slot, so specs running side by side never pay the same one.
import { type APIRequestContext, type Browser, type Page, expect } from "@playwright/test";
import { csrfHeaders, newUser, registerByApi } from "./auth-helpers.ts";
import { PASSWORD } from "./staff-helpers.ts";

export const DEMO_TRADE_PASSWORD = "demo-password-2026";
export const DEMO_TRADE_OWNER = { email: "trade@example.com", password: DEMO_TRADE_PASSWORD };

export async function signInAs(request: APIRequestContext, user: { email: string; password: string }): Promise<void> {
  const res = await request.post("/api/auth/login", { headers: await csrfHeaders(request), data: user });
  expect(res.status(), await res.text()).toBe(200);
}

/** Which test pays which seeded invoice. */
export const PAY_SLOTS = { payScreen: 0, payWithoutJavaScript: 1, accessibility: 2 } as const;

export interface SeededInvoice {
  id: number;
  number: string;
  po_reference: string;
  total: number;
}

/**
 * The demo company's invoice in `slot` (newest first) among those not yet due
 * and not paid. One that another test has just paid (payment pending) keeps
 * its slot, so the slots do not shift while specs run side by side.
 */
export async function seededUnpaidInvoice(request: APIRequestContext, slot: number): Promise<SeededInvoice> {
  const res = await request.get("/api/trade/invoices", { params: { limit: 100 } });
  expect(res.status(), await res.text()).toBe(200);
  const all = (await res.json()).data as (SeededInvoice & { status: string; overdue: boolean; due_date: string })[];
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London" }).format(new Date());
  const notDue = all.filter((i) => i.status !== "paid" && !i.overdue && i.due_date >= today);
  const invoice = notDue[slot];
  expect(invoice, `a seeded unpaid invoice in slot ${slot} (${notDue.length} there)`).toBeTruthy();
  expect(invoice!.status, `${invoice!.number} is still unpaid`).toBe("unpaid");
  return invoice!;
}

/** A member of staff's API session of their own, and the header their cookie-borne writes need. */
export async function staffApi(browser: Browser, email: string) {
  const { request } = await browser.newContext();
  const login = await request.post("/api/admin/auth/login", { data: { email, password: PASSWORD } });
  expect(login.status(), await login.text()).toBe(200);
  const token = (await request.storageState()).cookies.find((c) => c.name === "tc_admin_csrf")!.value;
  return { request, headers: { "X-Admin-CSRF": decodeURIComponent(token) } };
}

/** A new user of this page, owner of an approved trade company that buys on account with a PO. */
export async function approvedTradeOwner(page: Page, browser: Browser): Promise<void> {
  const user = await registerByApi(page.request, newUser("Quinn"));
  const applied = await page.request.post("/api/trade/setup", {
    headers: await csrfHeaders(page.request),
    data: {
      company_name: `Quinn Roofing ${Date.now().toString(36)}`,
      company_type: "sole_trader",
      trade: "Roofer",
      line1: "3 Slate Row",
      town: "Leeds",
      postcode: "LS1 1AA",
      phone: "0113 496 0123",
      accounts_email: user.email,
      expected_monthly_spend: 2000,
      requested_credit_limit: 5000,
    },
  });
  expect(applied.status(), await applied.text()).toBe(201);
  const desk = await staffApi(browser, "accounts@staff.example.com");
  const approved = await desk.request.post(`/api/admin/trade/applications/${(await applied.json()).data.id}/approve`, {
    headers: desk.headers,
    data: { credit_limit: 5000, terms_days: 30, discount_percent: 0, po_required: true },
  });
  expect(approved.status(), await approved.text()).toBe(200);
}

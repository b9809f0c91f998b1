import { randomBytes } from "node:crypto";
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

/**
 * A card processor that speaks the few parts of Stripe's API the shop calls
 * (Checkout Sessions, refunds) and sends Stripe-shaped webhook events signed
 * with its own secret. Two uses, one piece of code:
 * - the built-in test payment page (`/payments/test/…`), so `npm start`
 *   shows the whole card flow with no keys and no internet;
 * - the tests, which drive the real `stripe` SDK against it on loopback.
 * It is not Stripe: it keeps its state in this process's memory, and only
 * outside production (ADR 0033).
 */

export type TestOutcome = "pay" | "pay_later" | "decline" | "authenticate" | "authentication_failed";

export interface TestEvent {
  id: string;
  type: string;
  /** The exact bytes sent, and the `Stripe-Signature` header over them. */
  payload: string;
  signature: string;
}

interface Session {
  id: string;
  amount: number;
  currency: string;
  reference: string | null;
  email: string | null;
  description: string;
  metadata: Record<string, string>;
  successUrl: string;
  cancelUrl: string;
  status: "open" | "complete" | "expired";
  paymentStatus: "paid" | "unpaid";
  paymentIntent: string | null;
  created: number;
  expiresAt: number;
  /** The last card outcome on the page: a decline keeps the session open, as Stripe's page does. */
  lastDecline: string | null;
}

interface Refund {
  id: string;
  paymentIntent: string;
  amount: number;
  status: "pending" | "succeeded" | "failed";
  metadata: Record<string, string>;
  created: number;
}

export interface TestProcessorOptions {
  /** Signs the events; the shop verifies with the same secret. */
  webhookSecret: string;
  /** Where the hosted page is: the shop's origin (its `/payments/test/{id}` route). */
  pageOrigin: string;
  /** Sends each event to the shop as it happens; without it, events only queue in `events`. */
  deliver?: (event: TestEvent) => Promise<void>;
  now?: () => number;
}

const DECLINES: Record<string, string> = {
  decline: "Your card was declined.",
  authentication_failed: "We are unable to authenticate your payment method. Please choose a different payment method and try again.",
};

function newId(prefix: string): string {
  return `${prefix}_test_${randomBytes(12).toString("hex")}`;
}

export function createTestProcessor(options: TestProcessorOptions) {
  const now = options.now ?? (() => Date.now());
  const seconds = () => Math.floor(now() / 1000);
  const sessions = new Map<string, Session>();
  const refunds = new Map<string, Refund>();
  const charged = new Map<string, { amount: number; session: string }>();
  const idempotent = new Map<string, { body: string; status: number; answer: unknown }>();
  const events: TestEvent[] = [];
  const failures: { status: number; count: number } = { status: 500, count: 0 };
  let delayMs = 0;
  let server: Server | null = null;
  let deliver = options.deliver;

  function sessionJson(s: Session) {
    return {
      id: s.id,
      object: "checkout.session",
      amount_subtotal: s.amount,
      amount_total: s.amount,
      client_reference_id: s.reference,
      created: s.created,
      currency: s.currency,
      customer_email: s.email,
      expires_at: s.expiresAt,
      livemode: false,
      metadata: s.metadata,
      mode: "payment",
      payment_intent: s.paymentIntent,
      payment_status: s.paymentStatus,
      status: s.status,
      success_url: s.successUrl,
      cancel_url: s.cancelUrl,
      url: s.status === "open" ? `${options.pageOrigin}/payments/test/${s.id}` : null,
    };
  }

  function refundJson(r: Refund) {
    return { id: r.id, object: "refund", amount: r.amount, currency: "gbp", created: r.created, metadata: r.metadata, payment_intent: r.paymentIntent, status: r.status };
  }

  async function emit(type: string, object: unknown): Promise<TestEvent> {
    const id = newId("evt");
    const payload = JSON.stringify({ id, object: "event", api_version: Stripe.API_VERSION, created: seconds(), livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type, data: { object } });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: options.webhookSecret, timestamp: seconds() });
    const event = { id, type, payload, signature };
    events.push(event);
    await deliver?.(event);
    return event;
  }

  function find(id: string): Session {
    const s = sessions.get(id);
    if (!s) throw new ProcessorError(404, "resource_missing", `No such checkout.session: '${id}'`);
    return s;
  }

  /** Sessions whose time has passed expire, as Stripe's do, with their event. */
  async function expireOverdue(): Promise<void> {
    for (const s of sessions.values()) {
      if (s.status === "open" && s.expiresAt <= seconds()) {
        s.status = "expired";
        await emit("checkout.session.expired", sessionJson(s));
      }
    }
  }

  function paid(s: Session) {
    s.paymentIntent = newId("pi");
    charged.set(s.paymentIntent, { amount: s.amount, session: s.id });
  }

  /** What the customer does on the hosted page. Answers where the browser goes next (null: stay on the page). */
  async function act(id: string, outcome: TestOutcome): Promise<{ redirect: string | null; message: string | null }> {
    await expireOverdue();
    const s = find(id);
    if (s.status !== "open") return { redirect: null, message: s.status === "expired" ? "This payment page has expired." : "This payment is already complete." };
    if (outcome === "decline" || outcome === "authentication_failed") {
      s.lastDecline = DECLINES[outcome]!;
      return { redirect: null, message: s.lastDecline };
    }
    if (outcome === "authenticate") return { redirect: null, message: null };
    s.status = "complete";
    s.lastDecline = null;
    if (outcome === "pay") {
      s.paymentStatus = "paid";
      paid(s);
    }
    await emit("checkout.session.completed", sessionJson(s));
    return { redirect: s.successUrl.replace("{CHECKOUT_SESSION_ID}", s.id), message: null };
  }

  /** A slow method (Bacs, say) settles later: paid, or failed. */
  async function settle(id: string, succeeded: boolean): Promise<TestEvent> {
    const s = find(id);
    if (s.status !== "complete" || s.paymentStatus === "paid") throw new ProcessorError(400, "invalid_request_error", "Nothing to settle.");
    if (succeeded) {
      s.paymentStatus = "paid";
      paid(s);
    }
    return emit(succeeded ? "checkout.session.async_payment_succeeded" : "checkout.session.async_payment_failed", sessionJson(s));
  }

  async function expire(id: string): Promise<Session> {
    const s = find(id);
    if (s.status === "complete") throw new ProcessorError(400, "invalid_request_error", "Only Checkout Sessions with a status of open can be expired.");
    if (s.status === "open") {
      s.status = "expired";
      await emit("checkout.session.expired", sessionJson(s));
    }
    return s;
  }

  async function refund(paymentIntent: string, amount: number | null, metadata: Record<string, string>): Promise<Refund> {
    const charge = charged.get(paymentIntent);
    if (!charge) throw new ProcessorError(404, "resource_missing", `No such payment_intent: '${paymentIntent}'`);
    const already = [...refunds.values()].filter((r) => r.paymentIntent === paymentIntent && r.status !== "failed").reduce((sum, r) => sum + r.amount, 0);
    const wanted = amount ?? charge.amount - already;
    if (wanted <= 0 || already + wanted > charge.amount) {
      throw new ProcessorError(400, "invalid_request_error", `Refund amount (£${(wanted / 100).toFixed(2)}) is greater than unrefunded amount on charge (£${((charge.amount - already) / 100).toFixed(2)})`);
    }
    const r: Refund = { id: newId("re"), paymentIntent, amount: wanted, status: "succeeded", metadata, created: seconds() };
    refunds.set(r.id, r);
    await emit("refund.created", refundJson(r));
    await emit("charge.refunded", { id: newId("ch"), object: "charge", amount: charge.amount, amount_refunded: already + wanted, payment_intent: paymentIntent, refunded: already + wanted === charge.amount });
    return r;
  }

  // ---- Stripe's wire format, for the SDK ----

  function readBody(request: IncomingMessage): Promise<string> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      request.on("data", (c: Buffer) => chunks.push(c));
      request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
      request.on("error", reject);
    });
  }

  function metadataOf(form: URLSearchParams, prefix = "metadata"): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [key, value] of form) {
      const m = new RegExp(`^${prefix.replace(/[[\]]/g, "\\$&")}\\[([^\\]]+)\\]$`).exec(key);
      if (m) out[m[1]!] = value;
    }
    return out;
  }

  async function route(method: string, url: URL, form: URLSearchParams): Promise<unknown> {
    const path = url.pathname;
    if (method === "POST" && path === "/v1/checkout/sessions") {
      const amount = Number(form.get("line_items[0][price_data][unit_amount]"));
      const quantity = Number(form.get("line_items[0][quantity]") ?? "1");
      if (!Number.isSafeInteger(amount) || amount <= 0) throw new ProcessorError(400, "invalid_request_error", "Invalid unit_amount.");
      const s: Session = {
        id: newId("cs"),
        amount: amount * quantity,
        currency: form.get("line_items[0][price_data][currency]") ?? "gbp",
        reference: form.get("client_reference_id"),
        email: form.get("customer_email"),
        description: form.get("line_items[0][price_data][product_data][name]") ?? "",
        metadata: metadataOf(form),
        successUrl: form.get("success_url") ?? "",
        cancelUrl: form.get("cancel_url") ?? "",
        status: "open",
        paymentStatus: "unpaid",
        paymentIntent: null,
        created: seconds(),
        expiresAt: Number(form.get("expires_at") ?? seconds() + 86_400),
        lastDecline: null,
      };
      sessions.set(s.id, s);
      return sessionJson(s);
    }
    const session = /^\/v1\/checkout\/sessions\/([\w]+)(\/expire)?$/.exec(path);
    if (session && method === "GET" && !session[2]) return sessionJson(find(session[1]!));
    if (session && method === "POST" && session[2]) return sessionJson(await expire(session[1]!));
    if (method === "POST" && path === "/v1/refunds") {
      const amount = form.get("amount");
      return refundJson(await refund(form.get("payment_intent") ?? "", amount === null ? null : Number(amount), metadataOf(form)));
    }
    if (method === "GET" && path === "/v1/refunds") {
      const pi = url.searchParams.get("payment_intent");
      const data = [...refunds.values()].filter((r) => !pi || r.paymentIntent === pi).map(refundJson);
      return { object: "list", data, has_more: false, url: "/v1/refunds" };
    }
    throw new ProcessorError(404, "invalid_request_error", `Unrecognized request URL (${method}: ${path}).`);
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json", "request-id": newId("req") });
      response.end(JSON.stringify(body));
    };
    try {
      const body = await readBody(request);
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      if (failures.count > 0) {
        failures.count -= 1;
        return send(failures.status, { error: { type: "api_error", message: "The test processor was told to fail." } });
      }
      if (!/^Bearer .+/.test(request.headers.authorization ?? "")) return send(401, { error: { type: "invalid_request_error", message: "You did not provide an API key." } });
      await expireOverdue();
      const method = request.method ?? "GET";
      const key = request.headers["idempotency-key"];
      const replay = typeof key === "string" && method === "POST" ? idempotent.get(key) : undefined;
      if (replay) {
        if (replay.body !== body) return send(400, { error: { type: "idempotency_error", message: "Keys for idempotent requests can only be used with the same parameters they were first used with." } });
        return send(replay.status, replay.answer);
      }
      const url = new URL(request.url ?? "/", "http://processor.invalid");
      let status = 200;
      let answer: unknown;
      try {
        answer = await route(method, url, new URLSearchParams(body));
      } catch (error) {
        if (!(error instanceof ProcessorError)) throw error;
        status = error.status;
        answer = { error: { type: error.type, message: error.message } };
      }
      if (typeof key === "string" && method === "POST") idempotent.set(key, { body, status, answer });
      send(status, answer);
    } catch {
      send(500, { error: { type: "api_error", message: "The test processor failed." } });
    }
  }

  return {
    events,
    /** The hosted page's view of a session, or null. */
    session(id: string) {
      const s = sessions.get(id);
      return s ? { id: s.id, amount: s.amount, currency: s.currency, description: s.description, email: s.email, status: s.status, cancelUrl: s.cancelUrl, lastDecline: s.lastDecline, expiresAt: new Date(s.expiresAt * 1000) } : null;
    },
    act,
    settle,
    expireOverdue,
    /** A refund made in the processor's own dashboard, as a merchant may in Stripe's. */
    dashboardRefund: (paymentIntent: string, amount: number) => refund(paymentIntent, amount, {}),
    /** The next `count` API calls answer `status` (Stripe down); `delay` slows every call. */
    failNext(count: number, status = 500) {
      failures.count = count;
      failures.status = status;
    },
    delay(ms: number) {
      delayMs = ms;
    },
    /** Sends events to the shop as they happen (as Stripe may, before its API call has even answered), or stops. */
    deliverTo(to: TestProcessorOptions["deliver"] | null) {
      deliver = to ?? undefined;
    },
    async listen(): Promise<string> {
      server = createServer((req, res) => void handle(req, res));
      await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    async close(): Promise<void> {
      if (!server) return;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
      server = null;
    },
  };
}

export type TestProcessor = ReturnType<typeof createTestProcessor>;

class ProcessorError extends Error {
  readonly status: number;
  readonly type: string;
  constructor(status: number, type: string, message: string) {
    super(message);
    this.status = status;
    this.type = type;
  }
}

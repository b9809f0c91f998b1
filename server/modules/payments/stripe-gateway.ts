import Stripe from "stripe";
import { type GatewayRefund, type GatewaySession, GatewayUnavailableError, type PaymentGateway, type WebhookAction, WebhookSignatureError } from "./gateway.ts";

export interface StripeGatewayOptions {
  secretKey: string;
  webhookSecret: string;
  /** Only to point the SDK at another server (the tests' fake, the built-in test page's): `http://127.0.0.1:4242`. */
  apiUrl?: string;
  /** `test` for the built-in test page, which speaks Stripe's API; `stripe` otherwise. */
  id?: string;
  testMode?: boolean;
  /** Milliseconds before a call counts as failed; the SDK retries once with the same idempotency key. */
  timeout?: number;
}

/** Events whose session is now paid (a card at once; a slower method later). */
const PAID_EVENTS = new Set(["checkout.session.completed", "checkout.session.async_payment_succeeded"]);
const CLOSED_EVENTS: Record<string, "expired" | "failed"> = {
  "checkout.session.expired": "expired",
  "checkout.session.async_payment_failed": "failed",
};
const REFUND_EVENTS = new Set(["charge.refunded", "refund.created", "refund.updated", "refund.failed"]);

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === "string" ? value : value.id;
}

export function sessionOf(s: Stripe.Checkout.Session): GatewaySession {
  return {
    id: s.id,
    url: s.url ?? "",
    // Stripe may add states; anything unknown is treated as neither open nor paid.
    status: s.status === "open" ? "open" : s.status === "complete" ? "complete" : "expired",
    paymentStatus: s.payment_status === "paid" ? "paid" : s.payment_status === "no_payment_required" ? "no_payment_required" : "unpaid",
    amount: s.amount_total ?? 0,
    currency: s.currency ?? "",
    paymentId: idOf(s.payment_intent),
    reference: s.client_reference_id,
    metadata: { ...(s.metadata ?? {}) },
  };
}

function refundOf(r: Stripe.Refund): GatewayRefund {
  const status = r.status === "succeeded" ? "succeeded" : r.status === "failed" || r.status === "canceled" ? "failed" : "pending";
  return { id: r.id, paymentId: idOf(r.payment_intent) ?? "", amount: r.amount, status, metadata: { ...(r.metadata ?? {}) } };
}

/** Reads a verified Stripe event as the shop's action. Exported for the built-in test page, which sends the same events. */
export function actionOf(event: Stripe.Event): WebhookAction {
  const base = { eventId: event.id, type: event.type };
  if (PAID_EVENTS.has(event.type) || event.type in CLOSED_EVENTS) {
    const session = sessionOf(event.data.object as Stripe.Checkout.Session);
    // A completed session paid by a slow method (Bacs, for one) is not paid yet: its async event says how it went.
    if (PAID_EVENTS.has(event.type)) return session.paymentStatus === "paid" ? { ...base, kind: "paid", session } : { ...base, kind: "ignored" };
    return { ...base, kind: "closed", session, outcome: CLOSED_EVENTS[event.type]! };
  }
  if (REFUND_EVENTS.has(event.type)) {
    const object = event.data.object as Stripe.Charge | Stripe.Refund;
    const paymentId = idOf(object.payment_intent);
    return paymentId ? { ...base, kind: "refunds", paymentId } : { ...base, kind: "ignored" };
  }
  return { ...base, kind: "ignored" };
}

/** Runs a call to Stripe; anything but an answer becomes GatewayUnavailableError, so callers tell the customer plainly. */
async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new GatewayUnavailableError(error);
  }
}

/** The official SDK behind the PaymentGateway interface: Stripe Checkout, the hosted payment page. */
export function createStripeGateway(options: StripeGatewayOptions): PaymentGateway {
  const api = options.apiUrl ? new URL(options.apiUrl) : null;
  const stripe = new Stripe(options.secretKey, {
    maxNetworkRetries: 1,
    timeout: options.timeout ?? 15_000,
    telemetry: false,
    ...(api ? { host: api.hostname, port: Number(api.port || (api.protocol === "https:" ? 443 : 80)), protocol: api.protocol === "https:" ? "https" : "http" } : {}),
  });

  return {
    id: options.id ?? "stripe",
    testMode: options.testMode ?? false,

    async initiate(request) {
      const session = await call(() =>
        stripe.checkout.sessions.create(
          {
            mode: "payment",
            client_reference_id: request.reference,
            ...(request.customerEmail ? { customer_email: request.customerEmail } : {}),
            line_items: [{ quantity: 1, price_data: { currency: request.currency, unit_amount: request.amount, product_data: { name: request.description } } }],
            success_url: request.successUrl,
            cancel_url: request.cancelUrl,
            expires_at: Math.floor(request.expiresAt.getTime() / 1000),
            metadata: request.metadata,
            payment_intent_data: { metadata: request.metadata },
          },
          { idempotencyKey: request.idempotencyKey },
        ),
      );
      return sessionOf(session);
    },

    async retrieve(sessionId) {
      return sessionOf(await call(() => stripe.checkout.sessions.retrieve(sessionId)));
    },

    async cancel(sessionId) {
      const current = await call(() => stripe.checkout.sessions.retrieve(sessionId));
      if (current.status !== "open") return sessionOf(current);
      return sessionOf(await call(() => stripe.checkout.sessions.expire(sessionId)));
    },

    async refund(request) {
      const refund = await call(() =>
        stripe.refunds.create({ payment_intent: request.paymentId, amount: request.amount, metadata: request.metadata }, { idempotencyKey: request.idempotencyKey }),
      );
      return refundOf(refund);
    },

    async refunds(paymentId) {
      const found: GatewayRefund[] = [];
      await call(async () => {
        for await (const r of stripe.refunds.list({ payment_intent: paymentId, limit: 100 })) found.push(refundOf(r));
      });
      return found;
    },

    webhook(rawBody, signature) {
      if (!signature) throw new WebhookSignatureError();
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, options.webhookSecret);
      } catch {
        throw new WebhookSignatureError();
      }
      return actionOf(event);
    },
  };
}

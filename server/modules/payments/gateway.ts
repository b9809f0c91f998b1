/**
 * A card payment gateway, shaped like Medusa's payment provider (initiate,
 * retrieve, refund, cancel, webhook → action), so SumUp, PayPal or GoCardless
 * can be added beside Stripe without touching checkout (ADR 0033). The shop's
 * own rules (what is paid, what is refunded, what happens once) live in
 * `service.ts`; a gateway only speaks to the outside.
 */

/** A hosted payment page to open: exactly one amount, for one thing the shop sells. */
export interface InitiateRequest {
  /** The shop's reference the gateway files it under (an order number, a remittance or hire reference). */
  reference: string;
  /** Pence, and the ISO currency in lower case. */
  amount: number;
  currency: "gbp";
  /** The one line the customer sees on the payment page. */
  description: string;
  customerEmail: string | null;
  successUrl: string;
  cancelUrl: string;
  expiresAt: Date;
  /** The same key gives the same session, however often the request is retried. */
  idempotencyKey: string;
  metadata: Record<string, string>;
}

/** A hosted payment page as the gateway reports it now. */
export interface GatewaySession {
  id: string;
  url: string;
  status: "open" | "complete" | "expired";
  /** `paid` only once the money is taken; a completed session may still be unpaid (a slow method). */
  paymentStatus: "paid" | "unpaid" | "no_payment_required";
  amount: number;
  currency: string;
  /** The payment to refund against, once there is one. */
  paymentId: string | null;
  reference: string | null;
  metadata: Record<string, string>;
}

export interface GatewayRefund {
  id: string;
  paymentId: string;
  amount: number;
  status: "pending" | "succeeded" | "failed";
  /** What the shop sent with it: `refund_id` names the shop's own row. */
  metadata: Record<string, string>;
}

/** What a verified webhook event asks the shop to do. */
export type WebhookAction =
  | { kind: "paid"; eventId: string; type: string; session: GatewaySession }
  | { kind: "closed"; eventId: string; type: string; session: GatewaySession; outcome: "expired" | "failed" }
  | { kind: "refunds"; eventId: string; type: string; paymentId: string }
  | { kind: "ignored"; eventId: string; type: string };

export interface PaymentGateway {
  /** `stripe` or `test`: stored with every session and payment. */
  readonly id: string;
  /** The built-in test page: the storefront says plainly that no money moves. */
  readonly testMode: boolean;
  initiate(request: InitiateRequest): Promise<GatewaySession>;
  retrieve(sessionId: string): Promise<GatewaySession>;
  /** Closes an open session so it can no longer be paid; answers the session as it now is (it may have been paid meanwhile). */
  cancel(sessionId: string): Promise<GatewaySession>;
  refund(request: { paymentId: string; amount: number; idempotencyKey: string; metadata: Record<string, string> }): Promise<GatewayRefund>;
  /** Every refund of a payment, however it was made (the shop's, or in the gateway's own dashboard). */
  refunds(paymentId: string): Promise<GatewayRefund[]>;
  /** Checks the signature over the raw body, then reads the event; throws WebhookSignatureError when it does not verify. */
  webhook(rawBody: Buffer, signature: string | undefined): WebhookAction;
}

export class WebhookSignatureError extends Error {
  constructor() {
    super("The webhook signature did not verify.");
    this.name = "WebhookSignatureError";
  }
}

/** The gateway could not be reached or refused: the customer is told plainly and nothing is lost. */
export class GatewayUnavailableError extends Error {
  constructor(cause: unknown) {
    super("The payment service did not answer.", { cause });
    this.name = "GatewayUnavailableError";
  }
}

import type { FastifyInstance } from "fastify";
import type { PaymentGateway } from "../modules/payments/gateway.ts";
import { createStripeGateway } from "../modules/payments/stripe-gateway.ts";
import { type TestEvent, type TestProcessor, createTestProcessor } from "../modules/payments/test-processor.ts";

export const WEBHOOK_SECRET = "whsec_testsecretfortheshopstests0000";

export interface FakeStripe {
  processor: TestProcessor;
  gateway: PaymentGateway;
  /** The processor's clock: move it to make sessions expire. */
  clock: { now: number };
  close(): Promise<void>;
}

/**
 * Stripe's API as far as the shop calls it, on loopback (the test processor,
 * the same one behind the built-in test page), and the shop's gateway: the
 * real `stripe` SDK pointed at it. Events queue in `processor.events` for the
 * test to deliver, twice or out of order, as Stripe may.
 */
export async function fakeStripe(options: { timeout?: number } = {}): Promise<FakeStripe> {
  const clock = { now: Date.now() };
  const processor = createTestProcessor({ webhookSecret: WEBHOOK_SECRET, pageOrigin: "http://shop.test", now: () => clock.now });
  const apiUrl = await processor.listen();
  const gateway = createStripeGateway({ secretKey: "sk_test_fakekeyforthetests", webhookSecret: WEBHOOK_SECRET, apiUrl, timeout: options.timeout ?? 3_000 });
  return { processor, gateway, clock, close: () => processor.close() };
}

/** Posts an event to the webhook as Stripe does: the exact bytes, and its signature header. */
export function deliver(app: FastifyInstance, event: Pick<TestEvent, "payload" | "signature">, signature = event.signature) {
  return app.inject({ method: "POST", url: "/api/payments/stripe/webhook", payload: event.payload, headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": signature } });
}

/** The session id in a payment page's address. */
export const sessionIdOf = (redirectUrl: string) => redirectUrl.split("/").pop()!;

import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll } from "vitest";
import type { PaymentGateway } from "../modules/payments/gateway.ts";
import { createStripeGateway } from "../modules/payments/stripe-gateway.ts";
import { type TestEvent, type TestProcessor, createTestProcessor } from "../modules/payments/test-processor.ts";
import { type TestShop, createTestShop } from "./app.ts";

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

/** The path of a link the payment page sends the browser to, for `app.inject`. */
export const pathOf = (url: string) => new URL(url).pathname;

/**
 * A test file's shop whose card payments go to its own fake Stripe: made in
 * beforeAll, closed in afterAll. Read `shop` and `stripe` inside the tests.
 */
export function cardPaymentShop(options: { timeout?: number } = {}) {
  const made: { shop?: TestShop; stripe?: FakeStripe } = {};
  beforeAll(async () => {
    made.stripe = await fakeStripe({ timeout: options.timeout ?? 1_000 });
    made.shop = await createTestShop({}, { paymentGateway: made.stripe.gateway });
  });
  afterAll(async () => {
    await made.shop?.close();
    await made.stripe?.close();
  });
  return {
    get shop(): TestShop {
      return made.shop!;
    },
    get stripe(): FakeStripe {
      return made.stripe!;
    },
    /** The newest event of a type the processor sent, to deliver (again) at will. */
    lastEvent(type: string): TestEvent {
      return [...made.stripe!.processor.events].reverse().find((e) => e.type === type)!;
    },
  };
}

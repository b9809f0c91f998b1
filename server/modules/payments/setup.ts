import { randomBytes } from "node:crypto";
import type { Config } from "../../config.ts";
import type { PaymentGateway } from "./gateway.ts";
import { createStripeGateway } from "./stripe-gateway.ts";
import { type TestEvent, type TestProcessor, createTestProcessor } from "./test-processor.ts";

/** Stripe when both keys are set; null otherwise (the app starts the test page outside production). */
export function stripeGatewayFromConfig(config: Config): PaymentGateway | null {
  if (!config.stripeSecretKey || !config.stripeWebhookSecret) return null;
  return createStripeGateway({ secretKey: config.stripeSecretKey, webhookSecret: config.stripeWebhookSecret, apiUrl: config.stripeApiUrl });
}

/** Whether card payment runs on the built-in test page: no Stripe keys, and not in production. */
export function usesTestPayments(config: Config): boolean {
  return !config.isProduction && !stripeGatewayFromConfig(config);
}

/**
 * The built-in test page's processor, on loopback, and the gateway that
 * speaks to it through the real Stripe SDK. Its events are signed with a
 * secret made now and handed to `deliver`, the same webhook handler Stripe's
 * reach over HTTP.
 */
export async function startTestPayments(config: Config, deliver: (event: TestEvent) => Promise<void>): Promise<{ gateway: PaymentGateway; processor: TestProcessor }> {
  const webhookSecret = `whsec_${randomBytes(24).toString("hex")}`;
  const processor = createTestProcessor({ webhookSecret, pageOrigin: config.publicUrl, deliver });
  const apiUrl = await processor.listen();
  const gateway = createStripeGateway({ secretKey: "sk_test_builtin", webhookSecret, apiUrl, id: "test", testMode: true, timeout: 5_000 });
  return { gateway, processor };
}

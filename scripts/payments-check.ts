// `npm run payments:check`: the card payment adapter against Stripe itself, in
// test mode, on a machine with internet (CI tests it against the local fake;
// see ADR 0033). Opens and expires a Checkout Session through the shop's own
// gateway, takes one real test-mode payment with Stripe's test card, refunds it
// through the gateway and reads the refund back, and checks a signed webhook.
import Stripe from "stripe";
import { scriptConfig } from "../server/bootstrap.ts";
import { createStripeGateway } from "../server/modules/payments/stripe-gateway.ts";

const config = scriptConfig();
const key = config.stripeSecretKey ?? process.env.STRIPE_SECRET_KEY;
if (!key || !/^(sk|rk)_test_/.test(key)) {
  console.error("Set STRIPE_SECRET_KEY to a Stripe test-mode key (sk_test_…). A live key is refused: this places a real payment.");
  process.exit(2);
}
const webhookSecret = config.stripeWebhookSecret ?? "whsec_paymentscheckunused";
const gateway = createStripeGateway({ secretKey: key, webhookSecret, apiUrl: config.stripeApiUrl });
const stripe = new Stripe(key, { maxNetworkRetries: 1, telemetry: false });
const run = `check-${Date.now()}`;

async function step<T>(name: string, work: () => Promise<T>): Promise<T> {
  process.stdout.write(`${name}… `);
  const result = await work();
  console.log("ok");
  return result;
}

let code = 0;
try {
  const session = await step("Open a Checkout Session for £1.00", () =>
    gateway.initiate({
      reference: run,
      amount: 100,
      currency: "gbp",
      description: `${config.appName} payments check`,
      customerEmail: null,
      successUrl: `${config.publicUrl}/checkout/thank-you`,
      cancelUrl: `${config.publicUrl}/checkout`,
      expiresAt: new Date(Date.now() + 31 * 60_000),
      idempotencyKey: `${run}-session`,
      metadata: { purpose: "payments_check" },
    }),
  );
  const read = await step("Read it back", () => gateway.retrieve(session.id));
  if (read.amount !== 100 || read.currency !== "gbp" || read.status !== "open") throw new Error(`Unexpected session: ${JSON.stringify(read)}`);
  await step("Expire it", async () => {
    const closed = await gateway.cancel(session.id);
    if (closed.status !== "expired") throw new Error(`Still ${closed.status}`);
  });
  const intent = await step("Take £1.00 with Stripe's test card", () =>
    stripe.paymentIntents.create({ amount: 100, currency: "gbp", payment_method: "pm_card_visa", confirm: true, automatic_payment_methods: { enabled: true, allow_redirects: "never" }, metadata: { purpose: "payments_check" } }),
  );
  if (intent.status !== "succeeded") throw new Error(`The payment is ${intent.status}`);
  const refund = await step("Refund it through the gateway", () => gateway.refund({ paymentId: intent.id, amount: 100, idempotencyKey: `${run}-refund`, metadata: { refund_id: "0" } }));
  await step("Read the refund back", async () => {
    const listed = await gateway.refunds(intent.id);
    if (!listed.some((r) => r.id === refund.id && r.amount === 100)) throw new Error("The refund is not listed");
  });
  if (config.stripeWebhookSecret) {
    await step("Verify a webhook signed with STRIPE_WEBHOOK_SECRET", async () => {
      const payload = JSON.stringify({ id: `evt_${run}`, object: "event", type: "checkout.session.expired", data: { object: await stripe.checkout.sessions.retrieve(session.id) } });
      const action = gateway.webhook(Buffer.from(payload), Stripe.webhooks.generateTestHeaderString({ payload, secret: config.stripeWebhookSecret! }));
      if (action.kind !== "closed") throw new Error(`Read as ${action.kind}`);
    });
  }
  console.log("The Stripe adapter works against this account.");
} catch (error) {
  console.log("FAILED");
  console.error(error instanceof Error ? `${error.message}${error.cause instanceof Error ? `: ${error.cause.message}` : ""}` : error);
  code = 1;
}
process.exit(code);

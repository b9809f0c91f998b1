// The demo's promotions (issue 32), so a newcomer sees them work: a welcome
// code with a minimum spend, a trade code, free delivery, and a 3 for 2 on
// work gloves that applies by itself.
import { eq } from "drizzle-orm";
import type { Db } from "../client.ts";
import { categories } from "../../modules/catalog/schema.ts";
import { promotions } from "../../modules/promotions/schema.ts";

export async function seedDemoPromotions(tx: Db): Promise<void> {
  const [gloves] = await tx.select({ id: categories.id }).from(categories).where(eq(categories.slug, "gloves")).limit(1);
  await tx.insert(promotions).values([
    { code: "WELCOME10", name: "10% off your first order over £50", kind: "percent", value: 1000, minSpend: 5000, audience: "consumer", maxUsesPerCustomer: 1 },
    { code: "TRADE5", name: "£5 off trade orders over £100", kind: "amount", value: 500, minSpend: 10000, audience: "trade" },
    { code: "FREESHIP", name: "Free standard delivery", kind: "free_delivery", value: 0, maxUses: 500 },
    ...(gloves ? [{ code: null, name: "3 for 2 on work gloves", kind: "multi_buy", multiBuy: "free", buy: 3, value: 1, appliesTo: { product_ids: [], category_ids: [gloves.id], brand_ids: [] } }] : []),
  ]);
}

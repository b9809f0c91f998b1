// The promotions desk's shapes (issue 32): what POST and PATCH
// /api/admin/promotions take, in the units a merchant types (percent, pounds),
// and a promotion as the API answers it.
import { z } from "zod";
import { AUDIENCES, MULTI_BUY_KINDS, PROMOTION_KINDS } from "./rules.ts";

export const PROMOTION_STATUSES = ["active", "paused", "ended"] as const;

const ids = z.array(z.number().int().positive().max(2_147_483_647)).max(200, "At most 200.");
const when = z.iso.datetime({ offset: true, error: "Give a date and time, e.g. 2026-12-01T09:00:00Z." });
const count = z.number().int("A whole number.").min(1, "At least 1.").max(1_000_000, "At most 1,000,000.");

export const promotionInput = z.object({
  code: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9][A-Z0-9_-]{2,29}$/, "3 to 30 letters, digits, dashes or underscores.")
    .nullable()
    .optional()
    .describe("What customers type (any case); none for a multi-buy, which applies by itself"),
  name: z.string().trim().min(1, "Give it a name customers will read.").max(80, "At most 80 characters.").optional().describe("What the basket and the order call it: \"10% off decking\""),
  kind: z.enum(PROMOTION_KINDS, { error: "Choose percent, amount, free_delivery or multi_buy." }),
  value: z.number({ error: "Give a number." }).min(0, "Not below 0.").max(1_000_000, "Too large.").optional().describe("percent: percent off; amount: pounds off (ex VAT); multi_buy: units free (free), percent off (percent) or the group's price in pounds ex VAT (price)"),
  buy: z.number().int("A whole number.").min(2, "At least 2.").max(100, "At most 100.").nullable().optional().describe("A multi-buy's group: buy this many"),
  multi_buy: z.enum(MULTI_BUY_KINDS).nullable().optional(),
  min_spend: z.number().min(0, "Not below 0.").max(1_000_000, "Too large.").optional().describe("Pounds ex VAT on the items it reaches"),
  starts_at: when.nullable().optional(),
  ends_at: when.nullable().optional(),
  max_uses: count.nullable().optional(),
  max_uses_per_customer: count.nullable().optional(),
  audience: z.enum(AUDIENCES).optional().describe("all, consumer or trade"),
  stackable: z.boolean().optional().describe("May go with other stackable codes in one basket"),
  applies_to: z.object({ product_ids: ids.default([]), category_ids: ids.default([]), brand_ids: ids.default([]) }).optional().describe("Empty: the whole basket"),
  status: z.enum(PROMOTION_STATUSES).optional(),
});
export type PromotionInput = z.infer<typeof promotionInput>;

export const promotionPatch = promotionInput.partial();
export type PromotionPatch = z.infer<typeof promotionPatch>;

export const promotionJson = z.object({
  id: z.number().int(),
  code: z.string().nullable(),
  name: z.string(),
  kind: z.enum(PROMOTION_KINDS),
  value: z.number(),
  buy: z.number().int().nullable(),
  multi_buy: z.enum(MULTI_BUY_KINDS).nullable(),
  min_spend: z.number(),
  starts_at: z.string().nullable(),
  ends_at: z.string().nullable(),
  max_uses: z.number().int().nullable(),
  max_uses_per_customer: z.number().int().nullable(),
  uses: z.number().int(),
  audience: z.enum(AUDIENCES),
  stackable: z.boolean(),
  applies_to: z.object({ product_ids: z.array(z.number().int()), category_ids: z.array(z.number().int()), brand_ids: z.array(z.number().int()) }),
  status: z.enum(PROMOTION_STATUSES),
  /** What it is doing now: running, scheduled, expired, used_up, paused or ended. */
  state: z.enum(["running", "scheduled", "expired", "used_up", "paused", "ended"]),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PromotionJson = z.infer<typeof promotionJson>;

// The promotions desk (issue 32): create, change, pause and end promotions,
// each change audited; a promotion's report of uses, discount given and sales;
// and a preview of what a sample basket would get, worked by the pipeline
// checkout uses.
import { and, desc, eq, inArray, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { recordAudit } from "../audit/service.ts";
import { penceFrom } from "../catalog/products/prices.ts";
import { pounds } from "../catalog/products/products.ts";
import { categories, manufacturers, productListing, productVariants, products } from "../catalog/schema.ts";
import { orders } from "../orders/schema.ts";
import { priceLines } from "../pricing/pipeline.ts";
import { type StaffActor, authorize } from "../staff/actor.ts";
import { RETAIL } from "../trade/pricing.ts";
import type { PromotionInput, PromotionJson, PromotionPatch } from "./contract.ts";
import type { AppliesTo, MultiBuyKind } from "./rules.ts";
import { type PromotionRow, lineCategoryIds, ruleOf } from "./running.ts";
import { promotionRedemptions, promotions } from "./schema.ts";

export const PROMOTIONS_PAGE = 50;

const pence = (poundsValue: number) => penceFrom(poundsValue);

export function stateOf(row: PromotionRow, now = new Date()): PromotionJson["state"] {
  if (row.status !== "active") return row.status as "paused" | "ended";
  if (row.startsAt && row.startsAt > now) return "scheduled";
  if (row.endsAt && row.endsAt <= now) return "expired";
  if (row.maxUses !== null && row.uses >= row.maxUses) return "used_up";
  return "running";
}

export function promotionJsonOf(row: PromotionRow): PromotionJson {
  // Back in the units typed: percent, pounds, units.
  const value = row.kind === "percent" || row.multiBuy === "percent" ? row.value / 100 : row.kind === "amount" || row.multiBuy === "price" ? pounds(row.value) : row.value;
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    kind: row.kind as PromotionJson["kind"],
    value,
    buy: row.buy,
    multi_buy: row.multiBuy as MultiBuyKind | null,
    min_spend: pounds(row.minSpend),
    starts_at: row.startsAt?.toISOString() ?? null,
    ends_at: row.endsAt?.toISOString() ?? null,
    max_uses: row.maxUses,
    max_uses_per_customer: row.maxUsesPerCustomer,
    uses: row.uses,
    audience: row.audience as PromotionJson["audience"],
    stackable: row.stackable,
    applies_to: row.appliesTo,
    status: row.status as PromotionJson["status"],
    state: stateOf(row),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A promotion's name when none is given: what it does, in a few words. */
function defaultName(input: PromotionInput & { value: number }): string {
  switch (input.kind) {
    case "percent":
      return `${input.value}% off`;
    case "amount":
      return `£${input.value.toFixed(2)} off`;
    case "free_delivery":
      return "Free standard delivery";
    case "multi_buy":
      return input.multi_buy === "free"
        ? `${input.buy} for ${(input.buy ?? 0) - input.value}`
        : input.multi_buy === "percent"
          ? `Buy ${input.buy}, ${input.value}% off`
          : `${input.buy} for £${input.value.toFixed(2)}`;
  }
}

/** The row a promotion's fields make, in the database's units, with every rule across fields checked. */
function rowOf(typed: PromotionInput) {
  const input = { ...typed, value: typed.value ?? 0 };
  const errors: Record<string, string[]> = {};
  const say = (field: string, message: string) => (errors[field] ??= []).push(message);
  const multiBuy = input.kind === "multi_buy";
  if (multiBuy) {
    if (input.code) say("code", "A multi-buy applies by itself, without a code.");
    if (!input.buy) say("buy", "Say how many make the multi-buy (buy 3…).");
    if (!input.multi_buy) say("multi_buy", "Choose free, percent or price.");
    if (input.multi_buy === "free" && input.buy && (input.value < 1 || input.value >= input.buy || !Number.isInteger(input.value))) say("value", `Between 1 and ${input.buy - 1} of the ${input.buy} free.`);
  } else {
    if (!input.code) say("code", "Give the code customers will type (only multi-buys apply without one).");
    if (input.buy || input.multi_buy) say("buy", "Only a multi-buy has a group size.");
  }
  const percent = input.kind === "percent" || input.multi_buy === "percent";
  const money = input.kind === "amount" || input.multi_buy === "price";
  // Both to two decimals: a percentage is kept in basis points, pounds in pence.
  if (percent && (input.value <= 0 || input.value > 100 || Number.isNaN(penceFrom(input.value)))) say("value", "A percentage above 0 and at most 100, to two decimals.");
  if (money && (input.value <= 0 || Number.isNaN(penceFrom(input.value)))) say("value", "An amount in pounds above £0, to the penny.");
  if (input.min_spend !== undefined && Number.isNaN(penceFrom(input.min_spend))) say("min_spend", "An amount in pounds, to the penny.");
  if (input.starts_at && input.ends_at && new Date(input.ends_at) <= new Date(input.starts_at)) say("ends_at", "It must end after it starts.");
  if (input.max_uses && input.max_uses_per_customer && input.max_uses_per_customer > input.max_uses) say("max_uses_per_customer", "Not more than the uses in all.");
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return {
    code: multiBuy ? null : input.code!,
    name: input.name ?? defaultName(input),
    kind: input.kind,
    value: percent ? Math.round(input.value * 100) : money ? pence(input.value) : input.kind === "free_delivery" ? 0 : input.value,
    buy: multiBuy ? input.buy! : null,
    multiBuy: multiBuy ? input.multi_buy! : null,
    minSpend: pence(input.min_spend ?? 0),
    startsAt: input.starts_at ? new Date(input.starts_at) : null,
    endsAt: input.ends_at ? new Date(input.ends_at) : null,
    maxUses: input.max_uses ?? null,
    maxUsesPerCustomer: input.max_uses_per_customer ?? null,
    audience: input.audience ?? "all",
    stackable: input.stackable ?? false,
    appliesTo: input.applies_to ?? { product_ids: [], category_ids: [], brand_ids: [] },
    status: input.status ?? "active",
  };
}

/**
 * The rules across fields (a code or not, the value for the kind, the dates,
 * the limits) without saving: the desk's screen shows them beside the other
 * errors it finds before it may ask the service to save.
 */
export function promotionRuleErrors(input: PromotionInput): Record<string, string[]> {
  try {
    rowOf(input);
    return {};
  } catch (error) {
    if (error instanceof ValidationError) return error.errors;
    throw error;
  }
}

/** The typed fields of a stored promotion, so a PATCH is checked as the whole it makes. */
function inputOf(row: PromotionRow): PromotionInput {
  const json = promotionJsonOf(row);
  return {
    code: json.code,
    name: json.name,
    kind: json.kind,
    value: json.value,
    buy: json.buy,
    multi_buy: json.multi_buy,
    min_spend: json.min_spend,
    starts_at: json.starts_at,
    ends_at: json.ends_at,
    max_uses: json.max_uses,
    max_uses_per_customer: json.max_uses_per_customer,
    audience: json.audience,
    stackable: json.stackable,
    applies_to: json.applies_to,
    status: json.status,
  };
}

export function createPromotionAdmin(db: Db) {
  /** Every product, category and brand named exists: a promotion that reaches nothing is a mistake. */
  async function checkTargets(appliesTo: AppliesTo) {
    const missing = async (field: keyof AppliesTo, table: typeof products | typeof categories | typeof manufacturers) => {
      const wanted = appliesTo[field];
      if (!wanted.length) return;
      const found = new Set((await db.select({ id: table.id }).from(table).where(inArray(table.id, wanted))).map((r) => r.id));
      const absent = wanted.filter((id) => !found.has(id));
      if (absent.length) throw new ValidationError({ [`applies_to.${field}`]: [`No such ${field.replace("_ids", "")}: ${absent.join(", ")}.`] });
    };
    await missing("product_ids", products);
    await missing("category_ids", categories);
    await missing("brand_ids", manufacturers);
  }

  const codeTaken = (error: unknown) => {
    if (isUniqueViolation(error)) throw new ValidationError({ code: ["That code is already in use: codes are told apart without regard to case."] });
    throw error;
  };

  async function load(id: number) {
    const [row] = await db.select().from(promotions).where(eq(promotions.id, id));
    if (!row) throw new HttpError(404, "No promotion has that number.");
    return row;
  }

  /** Its uses, the discount given and the orders' sales, counting only uses not given back. */
  async function report(id: number) {
    const [r] = await db
      .select({
        orders: sql<number>`count(*)::int`,
        discount: sql<number>`coalesce(sum(${promotionRedemptions.discount}), 0)::int`,
        sales: sql<number>`coalesce(sum(${orders.total}), 0)::bigint`.mapWith(Number),
      })
      .from(promotionRedemptions)
      .innerJoin(orders, eq(orders.id, promotionRedemptions.orderId))
      .where(and(eq(promotionRedemptions.promotionId, id), isNull(promotionRedemptions.releasedAt)));
    const [given] = await db.select({ n: sql<number>`count(*)::int` }).from(promotionRedemptions).where(and(eq(promotionRedemptions.promotionId, id), sql`${promotionRedemptions.releasedAt} is not null`));
    return { orders: r?.orders ?? 0, discount_given: pounds(r?.discount ?? 0), sales: pounds(r?.sales ?? 0), uses_given_back: given?.n ?? 0 };
  }

  return {
    async list(actor: StaffActor, filters: { status?: string; cursor?: number }) {
      authorize(actor, "promotions.view");
      const where = [
        ...(filters.status ? [eq(promotions.status, filters.status)] : []),
        ...(filters.cursor ? [lt(promotions.id, filters.cursor)] : []),
      ];
      const rows = await db
        .select()
        .from(promotions)
        .where(where.length ? and(...where) : undefined)
        .orderBy(desc(promotions.id))
        .limit(PROMOTIONS_PAGE + 1);
      const page = rows.slice(0, PROMOTIONS_PAGE);
      return { data: page.map(promotionJsonOf), next_cursor: rows.length > PROMOTIONS_PAGE ? page.at(-1)!.id : null };
    },

    async get(actor: StaffActor, id: number) {
      authorize(actor, "promotions.view");
      const row = await load(id);
      return { data: promotionJsonOf(row), report: await report(id) };
    },

    async create(actor: StaffActor, input: PromotionInput) {
      authorize(actor, "promotions.manage");
      const values = rowOf(input);
      await checkTargets(values.appliesTo);
      const row = await db
        .transaction(async (t) => {
          const tx = t as unknown as Db;
          const [made] = await tx.insert(promotions).values(values).returning();
          await recordAudit(tx, actor, { action: "promotion.created", entity: "promotion", entityId: made!.id, after: promotionJsonOf(made!) });
          return made!;
        })
        .catch(codeTaken);
      return { data: promotionJsonOf(row) };
    },

    /** Any field; the whole it makes is checked again. Uses already made stay counted. */
    async update(actor: StaffActor, id: number, patch: PromotionPatch) {
      authorize(actor, "promotions.manage");
      const before = await load(id);
      if (patch.kind && patch.kind !== before.kind) throw new ValidationError({ kind: ["A promotion keeps its kind: end this one and make another."] });
      // Ended is final: its report stays as it was; a new run is a new promotion.
      if (before.status === "ended") throw new ValidationError({ status: ["This promotion has ended and cannot be changed: make a new one."] });
      const values = rowOf({ ...inputOf(before), ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) } as PromotionInput);
      if (patch.code === undefined) values.code = before.code;
      if (patch.name === undefined) values.name = before.name;
      await checkTargets(values.appliesTo);
      const row = await db
        .transaction(async (t) => {
          const tx = t as unknown as Db;
          const [changed] = await tx.update(promotions).set({ ...values, updatedAt: new Date() }).where(eq(promotions.id, id)).returning();
          const action = values.status !== before.status ? (values.status === "active" ? "promotion.resumed" : values.status === "paused" ? "promotion.paused" : "promotion.ended") : "promotion.updated";
          await recordAudit(tx, actor, { action, entity: "promotion", entityId: id, before: promotionJsonOf(before), after: promotionJsonOf(changed!) });
          return changed!;
        })
        .catch(codeTaken);
      return { data: promotionJsonOf(row) };
    },

    /**
     * Products by SKU (a product's or any of its variants', any case), for the
     * desk's form, which takes SKUs where the API takes product ids; `missing`
     * names the SKUs no product has.
     */
    async productsBySku(actor: StaffActor, skus: string[]) {
      authorize(actor, "promotions.view");
      const wanted = [...new Set(skus.map((s) => s.trim().toLowerCase()).filter(Boolean))];
      const found = wanted.length
        ? await db
            .select({ id: products.id, sku: productVariants.sku })
            .from(productVariants)
            .innerJoin(products, eq(products.id, productVariants.productId))
            .where(inArray(sql`lower(${productVariants.sku})`, wanted))
        : [];
      const byLower = new Map(found.map((f) => [f.sku.toLowerCase(), f.id]));
      return { ids: [...new Set(wanted.flatMap((s) => byLower.get(s) ?? []))], missing: skus.filter((s) => !byLower.has(s.trim().toLowerCase())) };
    },

    /** Products by id with their SKU and name: what the desk shows of a promotion's products. */
    async productsById(actor: StaffActor, ids: number[]) {
      authorize(actor, "promotions.view");
      if (!ids.length) return [];
      return db.select({ id: products.id, sku: products.sku, name: products.name }).from(products).where(inArray(products.id, ids)).orderBy(products.sku);
    },

    /**
     * What a sample basket would get from this promotion with the multi-buys
     * running now, as a consumer or a trade member, at list prices. Writes nothing.
     */
    async preview(actor: StaffActor, id: number, input: { lines: { sku: string; quantity: number }[]; trade: boolean }) {
      authorize(actor, "promotions.view");
      const row = await load(id);
      const skus = input.lines.map((l) => l.sku.trim().toUpperCase());
      const found = skus.length
        ? await db
            .select({
              sku: productVariants.sku,
              productId: products.id,
              name: products.name,
              listPence: productVariants.pricePence,
              vatRate: products.vatRate,
              brandId: products.manufacturerId,
              categoryIds: lineCategoryIds,
            })
            .from(productVariants)
            .innerJoin(products, eq(products.id, productVariants.productId))
            .leftJoin(productListing, eq(productListing.productId, products.id))
            .where(inArray(sql`upper(${productVariants.sku})`, skus))
        : [];
      const bySku = new Map(found.map((f) => [f.sku.toUpperCase(), f]));
      const unknown = input.lines.flatMap((l, i) => (bySku.has(skus[i]!) ? [] : [i]));
      if (unknown.length) throw new ValidationError(Object.fromEntries(unknown.map((i) => [`lines.${i}.sku`, [`No product has the SKU ${input.lines[i]!.sku}.`]])));
      const multiBuys = (await db.select().from(promotions).where(sql`${promotions.code} is null and ${promotions.status} = 'active' and ${promotions.id} <> ${id}`)).filter((p) => stateOf(p) === "running");
      const lines = input.lines.map((l, i) => ({ ...bySku.get(skus[i]!)!, quantity: l.quantity }));
      const rules = [...multiBuys, row].sort((a, b) => Number(a.code !== null) - Number(b.code !== null) || a.id - b.id).map(ruleOf);
      const priced = priceLines(lines, input.trade ? { discountBasisPoints: 0, trade: true } : RETAIL, rules);
      const mine = priced.applied.find((a) => a.promotion.id === id);
      return {
        data: {
          lines: lines.map((l, i) => ({ sku: l.sku, name: l.name, quantity: l.quantity, line_total_ex_vat: pounds(priced.lines[i]!.grossPence), discount_ex_vat: pounds(priced.lines[i]!.discountPence), vat: pounds(priced.lines[i]!.vatPence) })),
          subtotal: pounds(priced.grossPence),
          discount: pounds(priced.discountPence),
          vat: pounds(priced.vatPence),
          total: pounds(priced.netPence + priced.vatPence),
          discounts: priced.applied.filter((a) => a.amount > 0).map((a) => ({ code: a.promotion.code, description: a.promotion.name, amount: pounds(a.amount) })),
          free_delivery: priced.freeDelivery,
          /** Why this promotion gives nothing to this basket, if it does not. */
          not_applying: mine?.notApplying ?? (row.kind === "multi_buy" && !mine ? { reason: "no_lines" as const } : null),
          state: stateOf(row),
        },
      };
    },
  };
}

export type PromotionAdmin = ReturnType<typeof createPromotionAdmin>;

import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { executeNamed } from "../../db/named.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { type BasketOwner, pricesOf } from "../../plugins/guest.ts";
import { RETAIL } from "../trade/pricing.ts";
import { incVat, pounds } from "../catalog/products/products.ts";
import { productListing, productVariants, products } from "../catalog/schema.ts";
import { priceLines } from "../pricing/pipeline.ts";
import { notApplyingMessage } from "../promotions/rules.ts";
import { basketPromotionsFromJson, basketPromotionsJson, lineCategoryIds } from "../promotions/running.ts";
import { type BulkLineInput, type BulkVerdict, MAX_QUANTITY, judgeBulk, skusToFind } from "./bulk.ts";
import { lineVariants } from "./line-variants.ts";
import { basketItems, baskets } from "./schema.ts";

export { MAX_QUANTITY };

export interface BasketItem {
  cart_item_id: number;
  product_id: number;
  /** The variant bought: its SKU and option values ({} for a product without options). */
  variant_id: number;
  quantity: number;
  name: string;
  slug: string;
  sku: string;
  options: Record<string, string>;
  /** How it is sold (catalog/products/units.ts): "each", "m", "pack"… */
  unit: string;
  image: { src: string; alt: string } | null;
  /** Pounds inc VAT, and ex VAT beside it. */
  unit_price: number;
  unit_price_ex_vat: number;
  vat_rate: number;
  /** Unit price × quantity, before promotions. */
  line_total: number;
  line_total_ex_vat: number;
  /** Taken off the line by promotions, ex VAT, and their names (issue 32). */
  discount_ex_vat: number;
  promotions: string[];
  stock: number;
  in_stock: boolean;
  /** Fewer in stock than in the basket: checkout will refuse until it is changed. */
  exceeds_stock: boolean;
}

/** A promotion that took something off the basket: a code, or a multi-buy (code null). Pounds ex VAT. */
export interface BasketDiscount {
  code: string | null;
  description: string;
  amount: number;
}

export interface Basket {
  items: BasketItem[];
  /** Ex VAT, before promotions. */
  subtotal: number;
  /** Ex VAT: what promotions took off (the sum of `discounts`). */
  discount: number;
  discounts: BasketDiscount[];
  /** The basket's codes that take nothing off as it stands, and why ("Spend £5.00 more…", "…has ended"). */
  discount_notices: { code: string; message: string }[];
  /** The code that makes standard delivery free, if one applies. */
  free_delivery_code: string | null;
  /** The VAT, worked per line on the line's discounted value, rounded half-up. */
  taxes: number;
  /** What is paid (before delivery): subtotal less discount, plus taxes. */
  total: number;
  itemCount: number;
}

/** What a batch of lines (e.g. a reorder) did to the basket, line by line. */
export interface LinesOutcome {
  /** Added in full. */
  added: { product_id: number; name: string; quantity: number }[];
  /** Added, but fewer than asked: capped at the stock (less what the basket already held). */
  capped: { product_id: number; name: string; quantity: number; requested: number; stock: number }[];
  /** Not added: the product is gone, out of stock, or the basket already holds all there is. */
  skipped: { product_id: number | null; name: string; requested: number; reason: "unavailable" | "out_of_stock" | "basket_full" }[];
}

export const emptyBasket: Basket = { items: [], subtotal: 0, discount: 0, discounts: [], discount_notices: [], free_delivery_code: null, taxes: 0, total: 0, itemCount: 0 };

export function stockMessage(stock: number): string {
  return stock <= 0 ? "This product is out of stock." : `Only ${stock} left in stock.`;
}

/** A line whose variant is gone, archived or off sale: what the customer reads. */
const optionNames = (names: string[]) => (names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`);

/** A variant's adds as one (a multi-row upsert may not touch a row twice). */
function merged(adds: { variantId: number; productId: number; quantity: number }[]) {
  const byVariant = new Map<number, { variantId: number; productId: number; quantity: number }>();
  for (const a of adds) {
    const seen = byVariant.get(a.variantId);
    if (seen) seen.quantity += a.quantity;
    else byVariant.set(a.variantId, { ...a });
  }
  return [...byVariant.values()];
}

/** A new basket row for the owner. */
function ownerRow(owner: BasketOwner) {
  return "userId" in owner ? { userId: owner.userId } : { guestTokenHash: owner.guestHash };
}

function ownerCondition(owner: BasketOwner) {
  return "userId" in owner ? eq(baskets.userId, owner.userId) : eq(baskets.guestTokenHash, owner.guestHash);
}

/** The purchase basket. Prices always come from the database, never from the request. */
export function createBasketService(db: Db) {
  async function basketId(owner: BasketOwner, q: Db = db): Promise<number | null> {
    const [row] = await q.select({ id: baskets.id }).from(baskets).where(ownerCondition(owner)).limit(1);
    return row?.id ?? null;
  }

  async function ensureBasket(owner: BasketOwner, q: Db = db): Promise<number> {
    const existing = await basketId(owner, q);
    if (existing) return existing;
    const [row] = await q.insert(baskets).values(ownerRow(owner)).onConflictDoNothing().returning({ id: baskets.id });
    return row?.id ?? (await basketId(owner, q))!;
  }

  /**
   * Runs `write` in a transaction that first locks the owner's basket row (made
   * if need be), so writes to one basket run one after another: a quantity read
   * inside is still true when it is written, whatever the concurrency.
   *
   * One statement finds, makes, stamps and locks the row: an upsert's DO UPDATE
   * locks the row it updates, and waits for a writer that holds it. A basket
   * deleted meanwhile (a sign-in merged this guest basket) is no conflict once
   * that commits, so a new one is made.
   */
  async function lockedBasket<T>(owner: BasketOwner, write: (tx: Db, basketId: number) => Promise<T>): Promise<T> {
    return db.transaction(async (t) => {
      // PGlite runs one query at a time: only the transaction's handle inside it.
      const tx = t as unknown as Db;
      const [row] = await upsertBasket(tx, owner);
      return write(tx, row!.id);
    });
  }

  /** The owner's basket found or made, stamped and locked, answering its id: one statement (see lockedBasket). */
  function upsertBasket(q: Db, owner: BasketOwner) {
    const target = "userId" in owner ? baskets.userId : baskets.guestTokenHash;
    return q.insert(baskets).values(ownerRow(owner)).onConflictDoUpdate({ target, set: { updatedAt: sql`now()` } }).returning({ id: baskets.id });
  }

  /** Locks basket rows in id order, so two writers locking the same pair never deadlock. */
  async function lockRows(tx: Db, ids: number[]): Promise<number[]> {
    const rows = await tx.select({ id: baskets.id }).from(baskets).where(inArray(baskets.id, ids)).orderBy(asc(baskets.id)).for("update");
    return rows.map((r) => r.id);
  }

  /**
   * The variant a request means: the one named (it must be the product's and on
   * sale), or a product's only variant when none is named. A product with
   * several and none named is refused, naming its options.
   */
  async function chooseVariant(productId: number, variantId: number | undefined, q: Db = db): Promise<number> {
    const rows = await q
      .select({ id: productVariants.id, status: products.status, options: productVariants.options })
      .from(products)
      .leftJoin(productVariants, and(eq(productVariants.productId, products.id), eq(productVariants.status, "active")))
      .where(eq(products.id, productId));
    if (rows.length === 0) throw new ValidationError({ product_id: ["That product does not exist."] });
    if (rows[0]!.status !== "published") throw new ValidationError({ product_id: ["That product is no longer on sale."] });
    const variants = rows.filter((r) => r.id !== null);
    if (variantId !== undefined) {
      if (!variants.some((v) => v.id === variantId)) throw new ValidationError({ variant_id: ["That choice of this product is not on sale."] });
      return variantId;
    }
    if (variants.length === 1) return variants[0]!.id!;
    const names = Object.keys(variants[0]?.options ?? {});
    throw new ValidationError({ variant_id: [names.length ? `Choose the ${optionNames(names.map((n) => n.toLowerCase()))} first.` : "Choose which one you want first."] });
  }

  /** The variant's stock, refusing one that is gone or off sale; with how many of it basket `heldIn` already holds. */
  async function variantStock(variantId: number, q: Db = db, heldIn?: number): Promise<{ stock: number; held: number }> {
    const held =
      heldIn === undefined
        ? sql<number>`0`
        : sql<number>`coalesce((select held.quantity from basket_items held where held.basket_id = ${heldIn} and held.variant_id = ${variantId}), 0)`;
    const [row] = await q
      .select({ stock: productVariants.stock, status: products.status, variantStatus: productVariants.status, held: held.mapWith(Number) })
      .from(productVariants)
      .innerJoin(products, eq(products.id, productVariants.productId))
      .where(eq(productVariants.id, variantId))
      .limit(1);
    if (!row) throw new ValidationError({ product_id: ["That product does not exist."] });
    if (row.status !== "published" || row.variantStatus !== "active") throw new ValidationError({ product_id: ["That product is no longer on sale."] });
    return { stock: row.stock, held: row.held };
  }

  /**
   * The basket's lines with only the product fields a line shows, by user or by
   * guest: built once and prepared (named statements on PostgreSQL), since every
   * basket read and write ends with it.
   */
  const linesOf = (ownerColumn: typeof baskets.userId | typeof baskets.guestTokenHash, name: string) =>
    db
      .select({
        item: { id: basketItems.id, quantity: basketItems.quantity, basketId: basketItems.basketId },
        product: {
          id: products.id,
          name: products.name,
          slug: products.slug,
          images: products.images,
          vatRate: products.vatRate,
          unit: products.unit,
          // What promotions reach a line by: its categories with their ancestors, and its brand.
          categoryIds: lineCategoryIds,
          brandId: products.manufacturerId,
        },
        variant: {
          id: productVariants.id,
          sku: productVariants.sku,
          options: productVariants.options,
          images: productVariants.images,
          pricePence: productVariants.pricePence,
          stock: productVariants.stock,
        },
        // The basket's promotions in the same statement (issue 35): the same on every row, worked out once.
        promotions: basketPromotionsJson(sql`(select ${baskets.id} from ${baskets} where ${ownerColumn} = ${sql.placeholder("owner")})`),
      })
      .from(basketItems)
      .innerJoin(baskets, eq(baskets.id, basketItems.basketId))
      .innerJoin(productVariants, eq(productVariants.id, basketItems.variantId))
      .innerJoin(products, eq(products.id, productVariants.productId))
      .leftJoin(productListing, eq(productListing.productId, products.id))
      .where(eq(ownerColumn, sql.placeholder("owner")))
      .orderBy(asc(basketItems.id))
      .prepare(name);
  const userLines = linesOf(baskets.userId, "basket_lines_of_user");
  const guestLines = linesOf(baskets.guestTokenHash, "basket_lines_of_guest");

  /** The basket as it stands, its promotions with it: one prepared query. */
  async function cart(owner: BasketOwner): Promise<Basket> {
    const rows = "userId" in owner ? await userLines.execute({ owner: owner.userId }) : await guestLines.execute({ owner: owner.guestHash });
    if (rows.length === 0) return emptyBasket;
    const running = basketPromotionsFromJson(rows[0]!.promotions);
    const priced = priceLines(
      rows.map(({ item, product, variant }) => ({ productId: product.id, categoryIds: product.categoryIds, brandId: product.brandId, quantity: item.quantity, listPence: variant.pricePence, vatRate: product.vatRate })),
      pricesOf(owner),
      running.rules,
    );
    const items = rows.map(({ item, product, variant }, i) => {
      const line = priced.lines[i]!;
      return {
        cart_item_id: item.id,
        product_id: product.id,
        variant_id: variant.id,
        quantity: item.quantity,
        name: product.name,
        slug: product.slug,
        sku: variant.sku,
        options: variant.options,
        unit: product.unit,
        image: variant.images[0] ?? product.images[0] ?? null,
        unit_price: pounds(incVat(line.unitPence, product.vatRate)),
        unit_price_ex_vat: pounds(line.unitPence),
        vat_rate: product.vatRate,
        line_total: pounds(incVat(line.grossPence, product.vatRate)),
        line_total_ex_vat: pounds(line.grossPence),
        discount_ex_vat: pounds(line.discountPence),
        promotions: priced.applied.filter((a) => a.lines.includes(i)).map((a) => a.promotion.name),
        stock: variant.stock,
        in_stock: variant.stock > 0,
        exceeds_stock: item.quantity > variant.stock,
      };
    });
    return {
      items,
      subtotal: pounds(priced.grossPence),
      discount: pounds(priced.discountPence),
      discounts: priced.applied.filter((a) => a.amount > 0).map((a) => ({ code: a.promotion.code, description: a.promotion.name, amount: pounds(a.amount) })),
      discount_notices: [
        ...running.unusable,
        ...priced.applied.flatMap((a) => (a.notApplying ? [{ code: a.promotion.code!, message: notApplyingMessage(a.promotion.code!, a.notApplying) }] : [])),
      ],
      free_delivery_code: priced.freeDeliveryCode,
      taxes: pounds(priced.vatPence),
      total: pounds(priced.netPence + priced.vatPence),
      itemCount: items.reduce((n, i) => n + i.quantity, 0),
    };
  }

  /** Says why an add was refused, from the figures as they now stand: the product gone or off sale, the stock, or the cap. */
  async function refuseAdd(owner: BasketOwner, variantId: number, quantity: number): Promise<never> {
    const { stock, held } = await variantStock(variantId, db, (await basketId(owner)) ?? undefined);
    if (held + quantity > MAX_QUANTITY && held + quantity <= stock) throw new ValidationError({ quantity: [`You can buy at most ${MAX_QUANTITY} of one product.`] });
    throw new ValidationError({ quantity: [stockMessage(stock)] });
  }

  /** How many of each of these variants the basket holds. */
  async function heldIn(q: Db, basket: number, variantIds: number[]): Promise<Map<number, number>> {
    if (variantIds.length === 0) return new Map();
    const rows = await q
      .select({ variantId: basketItems.variantId, quantity: basketItems.quantity })
      .from(basketItems)
      .where(and(eq(basketItems.basketId, basket), inArray(basketItems.variantId, variantIds)));
    return new Map(rows.map((r) => [r.variantId, r.quantity]));
  }

  /** Adds to the basket's lines in one statement: a variant already there grows. Callers have judged the stock under the basket's lock. */
  async function putLines(tx: Db, basket: number, adds: { variantId: number; productId: number; quantity: number }[]): Promise<void> {
    if (adds.length === 0) return;
    await tx
      .insert(basketItems)
      .values(adds.map((a) => ({ basketId: basket, productId: a.productId, variantId: a.variantId, quantity: a.quantity })))
      .onConflictDoUpdate({ target: [basketItems.basketId, basketItems.variantId], set: { quantity: sql`${basketItems.quantity} + excluded.quantity` } });
  }

  /** A quick order's lines judged against the variants their SKUs name (any case) and what basket `basket` holds. */
  async function judgeLines(q: Db, basket: number | null, lines: BulkLineInput[], prices = RETAIL): Promise<BulkVerdict> {
    const skus = skusToFind(lines);
    const variants = skus.length ? await lineVariants(q, inArray(sql`lower(${productVariants.sku})`, skus)) : [];
    const held = basket === null ? new Map<number, number>() : await heldIn(q, basket, variants.map((v) => v.id));
    return judgeBulk(lines, variants, held, prices);
  }

  async function itemOf(owner: BasketOwner, itemId: number, q: Db = db) {
    const [row] = await q
      .select({ item: basketItems })
      .from(basketItems)
      .innerJoin(baskets, eq(baskets.id, basketItems.basketId))
      .where(and(eq(basketItems.id, itemId), ownerCondition(owner)))
      .limit(1);
    if (!row) throw new HttpError(404, "That item is not in your basket.");
    return row.item;
  }

  return {
    cart,

    /** The owner's basket row, made if need be: a code is held by a basket (promotions/basket-codes.ts). */
    idOf: (owner: BasketOwner) => ensureBasket(owner),

    /** Whether any line is heavy or bulky (delivery adds its surcharge). */
    async hasHeavy(owner: BasketOwner): Promise<boolean> {
      const id = await basketId(owner);
      if (!id) return false;
      const [row] = await db
        .select({ id: basketItems.id })
        .from(basketItems)
        .innerJoin(products, eq(products.id, basketItems.productId))
        .where(and(eq(basketItems.basketId, id), eq(products.heavy, true)))
        .limit(1);
      return !!row;
    },

    /** Adds a variant (a product's only one when none is named); the same variant again adds to its line. */
    async add(owner: BasketOwner, productId: number, quantity: number, variantId?: number): Promise<Basket> {
      // One statement, so no transaction's round trips: the basket found or made and
      // stamped, and the line added only while what the basket holds plus this stays
      // within the stock and the cap. The upsert's condition is judged on the line's
      // latest committed quantity, so adds racing on one line never pass the stock together.
      // With no variant named, the product's only active variant is the one (none when it has several).
      // The basket's upsert goes in as its SQL: a builder would be wrapped in parentheses, which a data-modifying CTE refuses.
      const chosen =
        variantId === undefined
          ? sql`v.product_id = ${productId} and not exists (select 1 from product_variants o where o.product_id = v.product_id and o.status = 'active' and o.id <> v.id)`
          : sql`v.id = ${variantId} and v.product_id = ${productId}`;
      // Named per shape (whose basket, a variant named or not), so PostgreSQL plans each once per connection.
      const shape = `basket_add_${"userId" in owner ? "user" : "guest"}_${variantId === undefined ? "only_variant" : "variant"}`;
      const added = await executeNamed<{ rows: { quantity: number }[] }>(db, shape, sql`
        with basket as (${upsertBasket(db, owner).getSQL()})
        insert into basket_items (basket_id, product_id, variant_id, quantity)
        select basket.id, p.id, v.id, ${quantity}::int from basket, product_variants v join products p on p.id = v.product_id
        where ${chosen} and v.status = 'active' and p.status = 'published' and ${quantity} <= least(v.stock, ${MAX_QUANTITY})
        on conflict (basket_id, variant_id) do update set quantity = basket_items.quantity + excluded.quantity
          where basket_items.quantity + excluded.quantity <= least((select stock from product_variants where id = basket_items.variant_id), ${MAX_QUANTITY})
        returning quantity`);
      if (added.rows.length === 0) await refuseAdd(owner, await chooseVariant(productId, variantId), quantity);
      return cart(owner);
    },

    async update(owner: BasketOwner, itemId: number, quantity: number): Promise<Basket> {
      // Answers 404 before anything is made or locked for a line that is not the owner's.
      await itemOf(owner, itemId);
      await lockedBasket(owner, async (tx) => {
        const item = await itemOf(owner, itemId, tx);
        const { stock } = await variantStock(item.variantId, tx);
        if (quantity > stock) throw new ValidationError({ quantity: [stockMessage(stock)] });
        await tx.update(basketItems).set({ quantity }).where(eq(basketItems.id, item.id));
      });
      return cart(owner);
    },

    async remove(owner: BasketOwner, itemId: number): Promise<Basket> {
      const item = await itemOf(owner, itemId);
      await db.delete(basketItems).where(eq(basketItems.id, item.id));
      return cart(owner);
    },

    async clear(owner: BasketOwner): Promise<Basket> {
      const id = await basketId(owner);
      if (id) await db.delete(basketItems).where(eq(basketItems.basketId, id));
      return cart(owner);
    },

    /**
     * Adds many lines at today's prices, each capped at the stock (less what the
     * basket already holds), skipping variants that are gone or out of stock.
     * One transaction, so a reorder is added whole or not at all.
     */
    async addLines(owner: BasketOwner, lines: { variantId: number | null; name: string; quantity: number }[]): Promise<LinesOutcome> {
      const outcome: LinesOutcome = { added: [], capped: [], skipped: [] };
      const ids = [...new Set(lines.map((l) => l.variantId).filter((id): id is number => id !== null))];
      // The basket row is locked so that two reorders at once cannot both fill the same stock.
      await lockedBasket(owner, async (tx, id) => {
        const found = ids.length
          ? await tx
              .select({ id: productVariants.id, productId: products.id, name: products.name, stock: productVariants.stock })
              .from(productVariants)
              .innerJoin(products, eq(products.id, productVariants.productId))
              .where(and(inArray(productVariants.id, ids), eq(productVariants.status, "active"), eq(products.status, "published")))
          : [];
        const inBasket = await heldIn(tx, id, ids);
        const adds: { variantId: number; productId: number; quantity: number }[] = [];
        for (const line of lines) {
          const variant = found.find((v) => v.id === line.variantId);
          if (!variant) {
            outcome.skipped.push({ product_id: null, name: line.name, requested: line.quantity, reason: "unavailable" });
            continue;
          }
          if (variant.stock <= 0) {
            outcome.skipped.push({ product_id: variant.productId, name: line.name, requested: line.quantity, reason: "out_of_stock" });
            continue;
          }
          const have = inBasket.get(variant.id) ?? 0;
          const quantity = Math.min(line.quantity, Math.min(variant.stock, MAX_QUANTITY) - have);
          if (quantity <= 0) {
            outcome.skipped.push({ product_id: variant.productId, name: line.name, requested: line.quantity, reason: "basket_full" });
            continue;
          }
          adds.push({ variantId: variant.id, productId: variant.productId, quantity });
          inBasket.set(variant.id, have + quantity);
          if (quantity < line.quantity) outcome.capped.push({ product_id: variant.productId, name: line.name, quantity, requested: line.quantity, stock: variant.stock });
          else outcome.added.push({ product_id: variant.productId, name: line.name, quantity });
        }
        await putLines(tx, id, merged(adds));
      });
      return outcome;
    },

    /**
     * The quick order (ADR 0051): lines of SKU and quantity, each judged
     * (judgeBulk), and those that pass added in one transaction under the
     * basket's row lock, so two at once never pass the stock together.
     * The lines refused are left out whole, each with its error.
     */
    async addBulk(owner: BasketOwner, lines: BulkLineInput[]): Promise<BulkVerdict> {
      return lockedBasket(owner, async (tx, id) => {
        const verdict = await judgeLines(tx, id, lines, pricesOf(owner));
        await putLines(tx, id, verdict.adds);
        return verdict;
      });
    },

    /** What addBulk would do now, writing nothing (no basket yet: an empty one). */
    async checkBulk(owner: BasketOwner | null, lines: BulkLineInput[]): Promise<BulkVerdict> {
      return judgeLines(db, owner ? await basketId(owner) : null, lines, owner ? pricesOf(owner) : RETAIL);
    },

    /** A guest who signs in keeps their basket: quantities are added, capped at stock. */
    async merge(guestHash: string, userId: number): Promise<void> {
      if (!(await basketId({ guestHash }))) return;
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const userBasket = await ensureBasket({ userId }, tx);
        const guestId = await basketId({ guestHash }, tx);
        // Both baskets locked (in id order): adds to either wait until the merge is done.
        if (!guestId || !(await lockRows(tx, [guestId, userBasket])).includes(guestId)) return;
        const lines = await tx
          .select({ productId: basketItems.productId, variantId: basketItems.variantId, quantity: basketItems.quantity, stock: productVariants.stock })
          .from(basketItems)
          .innerJoin(productVariants, eq(productVariants.id, basketItems.variantId))
          .where(eq(basketItems.basketId, guestId));
        const held = lines.length
          ? await tx.select().from(basketItems).where(and(eq(basketItems.basketId, userBasket), inArray(basketItems.variantId, lines.map((l) => l.variantId))))
          : [];
        for (const line of lines) {
          const mine = held.find((h) => h.variantId === line.variantId);
          const quantity = Math.min((mine?.quantity ?? 0) + line.quantity, Math.max(line.stock, mine?.quantity ?? 0), MAX_QUANTITY);
          if (mine) await tx.update(basketItems).set({ quantity }).where(eq(basketItems.id, mine.id));
          else if (quantity > 0) await tx.insert(basketItems).values({ basketId: userBasket, productId: line.productId, variantId: line.variantId, quantity });
        }
        await tx.delete(baskets).where(eq(baskets.id, guestId));
      });
    },
  };
}

export type BasketService = ReturnType<typeof createBasketService>;

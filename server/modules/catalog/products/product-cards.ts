// A product as a card on a listing (and the variants behind it), priced for
// whoever is looking: retail or their trade prices.
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { type PriceContext, RETAIL, unitPence } from "../../trade/pricing.ts";
import { multiBuyOffers } from "../../promotions/offers.ts";
import { incVat, pounds } from "./prices.ts";
import { type ProductImage, manufacturers, productOptions, productVariants, products } from "../schema.ts";
import type { SaleUnit } from "./units.ts";

export interface ProductCard {
  id: number;
  sku: string;
  slug: string;
  name: string;
  summary: string;
  manufacturer: { id: number; name: string; slug: string } | null;
  price: number;
  price_ex_vat: number;
  vat_rate: number;
  was_price: number | null;
  stock: number;
  in_stock: boolean;
  image: { src: string; alt: string } | null;
  /** How it is sold: the price is per this unit. */
  unit: SaleUnit;
  /** Its variants' prices differ: `price` is the cheapest ("from £x"). */
  price_varies: boolean;
  /** Its first option's values, for the card's chips (four lengths); null without options. */
  option_chips: { name: string; values: string[] } | null;
  /** Trade members only: the shop's own prices beside their trade price. */
  list_price?: number;
  list_price_ex_vat?: number;
  /** The multi-buys it is in, by name ("3 for 2 on gloves"), for its badge; listings and its own page only. */
  offers?: string[];
}

/** The cards with their multi-buy badges (promotions/offers.ts). */
export async function withOffers<C extends ProductCard>(db: Db, cards: C[], prices: PriceContext): Promise<C[]> {
  const offers = await multiBuyOffers(db, cards.map((c) => ({ id: c.id, brandId: c.manufacturer?.id ?? null })), prices.trade === true);
  return offers.size ? cards.map((c) => (offers.has(c.id) ? { ...c, offers: offers.get(c.id)! } : c)) : cards;
}

/** One variant as the product page and the API show it (prices at this request's view, like the product's). */
export interface VariantJson {
  id: number;
  sku: string;
  options: Record<string, string>;
  price: number;
  price_ex_vat: number;
  was_price: number | null;
  stock: number;
  in_stock: boolean;
  barcode: string | null;
  /** Its own photos; empty shows the product's. */
  images: ProductImage[];
  weight_grams: number | null;
  list_price?: number;
  list_price_ex_vat?: number;
}

/** What a card knows of its product's variants beyond the summary row. */
export interface CardVariants {
  priceVaries: boolean;
  chips: { name: string; values: string[] } | null;
}
export const NO_VARIANTS: CardVariants = { priceVaries: false, chips: null };

/** Prices of one price at this request's view: what is paid, and the shop's own beside a trade price. */
function priced(pricePence: number, wasPricePence: number | null, vatRate: number, prices: PriceContext) {
  const unit = unitPence(pricePence, prices);
  return {
    price: pounds(incVat(unit, vatRate)),
    price_ex_vat: pounds(unit),
    was_price: wasPricePence === null ? null : pounds(incVat(wasPricePence, vatRate)),
    ...(unit !== pricePence ? { list_price: pounds(incVat(pricePence, vatRate)), list_price_ex_vat: pounds(pricePence) } : {}),
  };
}

export function variantJson(v: typeof productVariants.$inferSelect, vatRate: number, prices: PriceContext = RETAIL): VariantJson {
  return {
    id: v.id,
    sku: v.sku,
    options: v.options,
    ...priced(v.pricePence, v.wasPricePence, vatRate, prices),
    stock: v.stock,
    in_stock: v.stock > 0,
    barcode: v.barcode,
    images: v.images,
    weight_grams: v.weightGrams,
  };
}

/**
 * Whether each product's variants differ in price, and its first option's
 * values for the card's chips: two small indexed reads for a page of cards.
 */
export async function cardVariants(db: Db, ids: number[]): Promise<Map<number, CardVariants>> {
  if (ids.length === 0) return new Map();
  const [ranges, options] = await Promise.all([
    db
      .select({ productId: productVariants.productId, varies: sql<boolean>`min(${productVariants.pricePence}) <> max(${productVariants.pricePence})` })
      .from(productVariants)
      .where(and(inArray(productVariants.productId, ids), eq(productVariants.status, "active")))
      .groupBy(productVariants.productId),
    db.select().from(productOptions).where(and(inArray(productOptions.productId, ids), eq(productOptions.position, 0))),
  ]);
  return new Map(
    ids.map((id) => {
      const option = options.find((o) => o.productId === id);
      return [id, { priceVaries: ranges.find((r) => r.productId === id)?.varies ?? false, chips: option ? { name: option.name, values: option.values } : null }];
    }),
  );
}

export type ProductRow = typeof products.$inferSelect & { manufacturerName: string | null; manufacturerSlug: string | null };

/** A product card at the prices of this request: retail, or a trade member's. */
export function toCard(p: ProductRow, prices: PriceContext = RETAIL, variants: CardVariants = NO_VARIANTS): ProductCard {
  const { was_price, ...price } = priced(p.pricePence, p.wasPricePence, p.vatRate, prices);
  return {
    id: p.id,
    sku: p.sku,
    slug: p.slug,
    name: p.name,
    summary: p.summary,
    manufacturer: p.manufacturerId && p.manufacturerName ? { id: p.manufacturerId, name: p.manufacturerName, slug: p.manufacturerSlug ?? "" } : null,
    price: price.price,
    price_ex_vat: price.price_ex_vat,
    vat_rate: p.vatRate,
    was_price,
    stock: p.stock,
    in_stock: p.stock > 0,
    image: p.images[0] ?? null,
    unit: p.unit,
    price_varies: variants.priceVaries,
    option_chips: variants.chips,
    ...(price.list_price !== undefined ? { list_price: price.list_price, list_price_ex_vat: price.list_price_ex_vat } : {}),
  };
}

export function selectCards(db: Db) {
  return db
    .select({
      id: products.id,
      sku: products.sku,
      slug: products.slug,
      name: products.name,
      summary: products.summary,
      descriptionHtml: products.descriptionHtml,
      manufacturerId: products.manufacturerId,
      pricePence: products.pricePence,
      vatRate: products.vatRate,
      wasPricePence: products.wasPricePence,
      stock: products.stock,
      images: products.images,
      featured: products.featured,
      status: products.status,
      reorderLevel: products.reorderLevel,
      seoTitle: products.seoTitle,
      seoDescription: products.seoDescription,
      showcase: products.showcase,
      unit: products.unit,
      coveragePerUnit: products.coveragePerUnit,
      coverageUnit: products.coverageUnit,
      createdAt: products.createdAt,
      updatedAt: products.updatedAt,
      manufacturerName: manufacturers.name,
      manufacturerSlug: manufacturers.slug,
    })
    .from(products)
    .leftJoin(manufacturers, eq(manufacturers.id, products.manufacturerId));
}


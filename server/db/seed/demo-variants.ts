import { eq, sql } from "drizzle-orm";
import { sanitizeDescription } from "../../modules/catalog/products/sanitize.ts";
import type { SaleUnit } from "../../modules/catalog/products/units.ts";
import { combinations, variantSku } from "../../modules/catalog/variants/variant-rules.ts";
import type { Db } from "../client.ts";
import { categories, manufacturers, productAttributes, productCategories, productOptions, productVariants, products } from "../schema.ts";
import { slugify } from "./demo-categories.ts";

/**
 * The demo's products that come in lengths, packs, sizes and colours (issue
 * 29): what a builders' merchant sells and a customer picks on one page.
 * Added after the generated catalogue, so its products keep their ids.
 */
interface VariantProductSeed {
  sku: string;
  name: string;
  category: string;
  brand: string;
  summary: string;
  unit: SaleUnit;
  coverage?: { per_unit: number; unit: "m2" | "m" };
  heavy?: boolean;
  /** Cut to the customer's length: not returnable unless faulty (issue 31), with the reason the order page gives. */
  nonReturnable?: string;
  attributes: Record<string, string>;
  options: { name: string; values: string[] }[];
  /** Ex VAT pence of each combination, by its values. */
  price: (values: Record<string, string>) => number;
  stock: (values: Record<string, string>, index: number) => number;
}

const LENGTH_PRICE: Record<string, number> = { "2.4 m": 1, "3.0 m": 1.25, "3.6 m": 1.5, "4.8 m": 2 };

/** Timber sold by the length: each length's price is the 2.4 m price (`base`, pence) scaled by LENGTH_PRICE; `stock` per length, shortest first. */
function byLength(base: number, stock: number[]): Pick<VariantProductSeed, "options" | "price" | "stock"> {
  return {
    options: [{ name: "Length", values: Object.keys(LENGTH_PRICE) }],
    price: (v) => Math.round(base * LENGTH_PRICE[v.Length!]!),
    stock: (_v, i) => stock[i]!,
  };
}

const COLOURS = ["Brilliant White", "Magnolia", "Soft Grey", "Pale Sage", "Duck Egg", "Warm Stone", "Dove Grey", "Cream", "Charcoal", "Barley", "Pebble", "Buttermilk"];

const SEEDS: VariantProductSeed[] = [
  {
    sku: "TCL-CLS3863",
    name: "CLS studwork 38 × 63 mm, regularised",
    category: "timber/cls-studwork",
    brand: "Tradecounter",
    summary: "Kiln-dried, planed CLS timber with rounded edges for stud walls and partitions. Sold by the length.",
    unit: "each",
    heavy: true,
    attributes: { Size: "38 × 63 mm", Grade: "C16" },
    ...byLength(349, [140, 96, 3, 0]),
  },
  {
    sku: "TCL-SAWN47100",
    name: "Sawn treated timber 47 × 100 mm",
    category: "timber/sawn-timber",
    brand: "Tradecounter",
    summary: "Pressure-treated, sawn carcassing timber for joists, frames and outdoor work. Sold by the length.",
    unit: "each",
    heavy: true,
    attributes: { Size: "47 × 100 mm", Treatment: "Pressure treated" },
    ...byLength(529, [80, 64, 48, 22]),
  },
  {
    sku: "TCL-WS4040",
    name: "Wood screws, yellow zinc 4.0 × 40 mm",
    category: "building-materials/screws-and-fixings",
    brand: "Tradecounter",
    summary: "Pozi countersunk multi-purpose screws with a sharp point and a cutting thread. Sold in packs.",
    unit: "pack",
    attributes: { Head: "Countersunk", Drive: "PZ2" },
    options: [{ name: "Pack size", values: ["100", "200", "500"] }],
    price: (v) => ({ "100": 299, "200": 499, "500": 999 })[v["Pack size"]!]!,
    stock: (_v, i) => [240, 180, 75][i]!,
  },
  {
    sku: "TCL-EMUL",
    name: "Trade vinyl matt emulsion",
    category: "building-materials/paint",
    brand: "Tradecounter",
    summary: "A tough, washable matt emulsion for walls and ceilings, with high opacity for fewer coats.",
    unit: "each",
    attributes: { Finish: "Matt", "Coverage per litre": "Up to 13 m²" },
    options: [
      { name: "Size", values: ["2.5 L", "5 L"] },
      { name: "Colour", values: COLOURS },
    ],
    price: (v) => (v.Size === "5 L" ? 2999 : 1799) + (v.Colour === "Brilliant White" ? 0 : 200),
    // A few colours sold out in the big tin, so the picker has something to explain.
    stock: (v, i) => (v.Size === "5 L" && ["Charcoal", "Barley"].includes(v.Colour!) ? 0 : 10 + ((i * 7) % 30)),
  },
  {
    sku: "TCL-PT6060",
    name: "Porcelain floor tile 600 × 600 mm",
    category: "bathrooms/tiles",
    brand: "Tradecounter",
    summary: "Rectified porcelain tiles for floors and walls, frost resistant. A pack of four covers 1.44 m².",
    unit: "pack",
    coverage: { per_unit: 1.44, unit: "m2" },
    heavy: true,
    attributes: { Size: "600 × 600 mm", Material: "Porcelain" },
    options: [{ name: "Colour", values: ["Grey", "Ivory", "Anthracite"] }],
    price: () => 2749,
    stock: (_v, i) => [60, 34, 12][i]!,
  },
  {
    sku: "TCL-TE25",
    name: "Twin & earth cable 2.5 mm² (6242Y)",
    category: "electrical/cable",
    brand: "Tradecounter",
    summary: "Flat twin and earth cable for ring mains and socket circuits, cut to the length you need. Sold by the metre.",
    unit: "m",
    nonReturnable: "Cut to the length you ordered, so it can only be returned if it is faulty.",
    attributes: { "Conductor size": "2.5 mm²", Type: "6242Y" },
    options: [{ name: "Sheath", values: ["Grey", "White"] }],
    price: () => 99,
    stock: (_v, i) => [500, 250][i]!,
  },
];

/** Inserts the demo's variant products with their options and variants; answers how many products. */
export async function seedDemoVariants(tx: Db): Promise<number> {
  const [brand] = await tx.insert(manufacturers).values({ slug: "tradecounter", name: "Tradecounter", description: "Our own range: trade quality at merchant prices.", logo: "/images/brands/tradecounter.svg" }).onConflictDoNothing().returning({ id: manufacturers.id });
  const brandId = brand?.id ?? (await tx.select({ id: manufacturers.id }).from(manufacturers).where(eq(manufacturers.slug, "tradecounter")))[0]!.id;
  for (const seed of SEEDS) {
    const [category] = await tx.select({ id: categories.id }).from(categories).where(eq(categories.path, seed.category));
    if (!category) throw new Error(`demo category ${seed.category} is missing`);
    const combos = combinations(seed.options);
    const slug = slugify(seed.name);
    const [first] = combos;
    const [row] = await tx
      .insert(products)
      .values({
        sku: seed.sku,
        slug,
        name: seed.name,
        summary: seed.summary,
        descriptionHtml: sanitizeDescription(`<p>${seed.summary}</p><ul>${Object.entries(seed.attributes).map(([n, v]) => `<li><strong>${n}:</strong> ${v}</li>`).join("")}</ul>`),
        manufacturerId: brandId,
        pricePence: seed.price(first!),
        vatRate: 20,
        stock: 0,
        unit: seed.unit,
        coveragePerUnit: seed.coverage?.per_unit ?? null,
        coverageUnit: seed.coverage?.unit ?? null,
        heavy: seed.heavy ?? false,
        returnable: !seed.nonReturnable,
        nonReturnableReason: seed.nonReturnable ?? "",
        images: [
          { src: `/images/products/${slug}/1.svg`, alt: seed.name },
          { src: `/images/products/${slug}/2.svg`, alt: `${seed.name}, another view` },
        ],
        searchText: `Tradecounter ${seed.sku} ${seed.summary}`,
        // Older than the generated catalogue, so "newest first" lists and the journeys that read them keep their order.
        createdAt: sql`now() - interval '400 days'`,
      })
      .returning({ id: products.id });
    const productId = row!.id;
    await tx.insert(productCategories).values({ productId, categoryId: category.id });
    await tx.insert(productAttributes).values(Object.entries(seed.attributes).map(([name, value], position) => ({ productId, name, value, position })));
    await tx.insert(productOptions).values(seed.options.map((o, position) => ({ productId, position, name: o.name, values: o.values })));
    // The product came with one variant under its own SKU: it becomes the first combination, the rest are added.
    await tx.update(productVariants).set({ options: first!, stock: seed.stock(first!, 0) }).where(eq(productVariants.productId, productId));
    if (combos.length > 1) {
      await tx.insert(productVariants).values(
        combos.slice(1).map((values, i) => ({ productId, sku: variantSku(seed.sku, values), options: values, pricePence: seed.price(values), stock: seed.stock(values, i + 1), position: i + 1 })),
      );
    }
  }
  return SEEDS.length;
}

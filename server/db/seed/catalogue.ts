import { type SQL, sql } from "drizzle-orm";
import { sanitizeDescription } from "../../modules/catalog/products/sanitize.ts";
import type { Db } from "../client.ts";
import { categories, manufacturers, productAttributes, productCategories, products, relatedProducts } from "../schema.ts";
import { slugify } from "./demo-categories.ts";
import { demoBrands, productKinds, seededRandom } from "./demo-catalogue.ts";

const PER_KIND = 9;

function escape(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Inserts the demo brands and about 300 products; returns how many of each. */
export async function seedDemoCatalogue(tx: Db): Promise<{ manufacturers: number; products: number }> {
  const random = seededRandom(2026);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

  const brandRows = await tx
    .insert(manufacturers)
    .values(
      demoBrands.map((b) => {
        const slug = slugify(b.name);
        return { slug, name: b.name, description: b.description, logo: `/images/brands/${slug}.svg` };
      }),
    )
    .returning({ id: manufacturers.id, name: manufacturers.name });
  const brandId = new Map(brandRows.map((b) => [b.name, b.id]));

  const categoryRows = await tx.select({ id: categories.id, path: categories.path }).from(categories);
  const categoryId = new Map(categoryRows.map((c) => [c.path, c.id]));

  const usedSlugs = new Set<string>();
  let sequence = 1000;
  // Every product, its category and attributes first, then written in four statements: the catalogue's
  // statement-level triggers run once for the lot instead of once per row (a quarter of a first start's time,
  // issue 35). Rows go in the order they were made, so every id is the one a row-by-row seed gave.
  const rows: (Omit<typeof products.$inferInsert, "createdAt"> & { createdAt: SQL })[] = [];
  const details: { leafId: number; listed: (readonly [string, string])[] }[] = [];
  const kinds: number[][] = [];
  for (const kind of productKinds) {
    const leafId = categoryId.get(kind.category);
    if (!leafId) throw new Error(`demo category ${kind.category} is missing`);
    const made: number[] = [];
    for (let i = 0; i < PER_KIND; i++) {
      const brand = kind.brands[i % kind.brands.length]!;
      const attributes = Object.entries(kind.attributes).map(([name, values]) => [name, pick(values)] as const);
      let name = pick(kind.names).replace("{brand}", brand);
      for (const [attr, value] of attributes) name = name.replace(`{${attr}}`, value === "—" ? "" : value);
      name = name.replace(/\s+/g, " ").trim();
      sequence += 1;
      const sku = `${brand.replace(/[^A-Za-z]/g, "").slice(0, 3).toUpperCase()}-${sequence}`;
      let slug = slugify(name);
      if (usedSlugs.has(slug)) slug = `${slug}-${sku.toLowerCase()}`;
      usedSlugs.add(slug);
      const [min, max] = kind.price;
      const pricePence = Math.round((min + random() * (max - min)) / 100) * 100 - 1;
      const onOffer = random() < 0.2;
      const vatRate = /grab rail/i.test(name) ? 5 : (kind.vatRate ?? 20);
      const listed = attributes.filter(([, v]) => v !== "—");
      const description = sanitizeDescription(
        `<p>${escape(kind.summary)}</p><ul>${listed.map(([n, v]) => `<li><strong>${escape(n)}:</strong> ${escape(v)}</li>`).join("")}</ul>` +
          `<p>Supplied by ${escape(brand)}. Order before 2pm for next working day delivery on stocked lines.</p>`,
      );
      rows.push({
        sku,
        slug,
        name,
        summary: kind.summary,
        descriptionHtml: description,
        manufacturerId: brandId.get(brand) ?? null,
        pricePence,
        vatRate,
        wasPricePence: onOffer ? Math.round(pricePence * 1.2 / 100) * 100 - 1 : null,
        stock: random() < 0.1 ? 0 : Math.floor(random() * 120) + 1,
        heavy: /^(building-materials|timber|garden\/paving|kitchens\/worktops)/.test(kind.category),
        images: [
          { src: `/images/products/${slug}/1.svg`, alt: name },
          { src: `/images/products/${slug}/2.svg`, alt: `${name}, another view` },
        ],
        featured: random() < 0.08,
        showcase: random() < 0.05,
        searchText: `${brand} ${sku} ${kind.summary}`,
        createdAt: sql`now() - ${`${Math.floor(random() * 365)} days`}::interval`,
      });
      details.push({ leafId, listed });
      made.push(rows.length - 1);
    }
    kinds.push(made);
  }
  const inserted = await tx.insert(products).values(rows).returning({ id: products.id, slug: products.slug });
  const idOfSlug = new Map(inserted.map((r) => [r.slug, r.id]));
  const ids = rows.map((r) => idOfSlug.get(r.slug)!);
  await tx.insert(productCategories).values(details.map((d, i) => ({ productId: ids[i]!, categoryId: d.leafId })));
  await tx.insert(productAttributes).values(details.flatMap((d, i) => d.listed.map(([n, v], position) => ({ productId: ids[i]!, name: n, value: v, position }))));
  // Related products: the others of the same kind.
  const related = kinds.flatMap((made) =>
    made.map((index) => ids[index]!).flatMap((id, i, kindIds) => [1, 2, 3].map((step, position) => ({ productId: id, relatedId: kindIds[(i + step) % kindIds.length]!, position }))),
  );
  await tx.insert(relatedProducts).values(related);
  return { manufacturers: brandRows.length, products: rows.length };
}

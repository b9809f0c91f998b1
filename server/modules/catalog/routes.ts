import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { HttpError } from "../../http-errors.ts";
import type { Services } from "../../services.ts";
import { attributeFilters, optionFilters } from "./attribute-filters.ts";
import { categoryTreeResponse } from "./contract.ts";
import { brandLogoSvg, productImageSvg } from "./photos/images.ts";
import { MAX_PAGE, MAX_PER_PAGE } from "./products/products.ts";

const flag = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0", "yes", "no", "on", "off"])])
  .transform((v) => v === true || v === "true" || v === "1" || v === "yes" || v === "on");
const money = z.coerce.number({ error: "Enter a price in pounds." }).min(0, "Prices start at £0.").max(1_000_000, "That price is too high.");
const idList = z
  .string()
  .max(200)
  // At most 9 digits each, as for compare: a longer one is no id and overflowed the integer column (500).
  .regex(/^\d{1,9}(,\d{1,9})*$/, "Give ids as a comma-separated list of numbers.")
  .transform((s) => s.split(",").map(Number));
const oneOrMany = z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v : [v]));

export const productListQuery = z.object({
  category: z.string().trim().max(300).regex(/^[a-z0-9-]+(\/[a-z0-9-]+)*$/, "Unknown category.").optional(),
  manufacturer: idList.optional(),
  price_min: money.optional(),
  price_max: money.optional(),
  in_stock: flag.optional(),
  attr: oneOrMany
    .pipe(z.array(z.string().max(200).regex(/^[^:]{1,80}:.{1,100}$/, "Give attributes as Name:Value.")).max(20))
    .optional(),
  q: z.string().trim().max(200).optional(),
  sort: z.enum(["relevance", "price_asc", "price_desc", "newest", "name"], { error: "Sort by relevance, price_asc, price_desc, newest or name." }).optional(),
  page: z.coerce.number().int("The page must be a whole number.").min(1, "Pages start at 1.").max(MAX_PAGE, `Pages stop at ${MAX_PAGE}.`).optional(),
  per_page: z.coerce.number().int().min(1).max(MAX_PER_PAGE, `At most ${MAX_PER_PAGE} per page.`).optional(),
});


const COMPARE_LIMIT = 4;
const immutable = "public, max-age=31536000, immutable";

export async function catalogRoutes(app: FastifyInstance, options: { services: Services }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { catalog, products, search } = options.services;
  const tags = ["catalogue"];

  r.get("/categories", { schema: { tags, summary: "The category tree", response: { 200: categoryTreeResponse } } }, async () => ({
    data: await catalog.categoryTree(),
  }));

  r.get("/categories/*", { schema: { tags, summary: "A category by its slug path, with ancestors and children; an old path of a renamed or moved category answers 301 to its new one" } }, async (request, reply) => {
    const path = String((request.params as Record<string, string>)["*"] ?? "").replace(/\/+$/, "");
    const found = path.length <= 300 ? await catalog.categoryByPath(path) : null;
    if (!found) {
      const moved = path.length <= 300 ? await catalog.movedCategory(path) : null;
      if (moved) return reply.code(301).header("location", `/api/categories/${moved}`).send({ message: "This category has moved.", path: moved });
      throw new HttpError(404, "Category not found.");
    }
    return { data: found };
  });

  r.get(
    "/products",
    {
      schema: {
        tags,
        summary:
          "Products with filters, sort, pagination and facet counts. `option[Length]=3.0 m` (repeatable; values of one option are alternatives) keeps products with a variant of that value; `facets.options` counts each option value",
        querystring: productListQuery,
      },
    },
    async (request) => {
      const q = request.query;
      if (q.price_min !== undefined && q.price_max !== undefined && q.price_min > q.price_max) {
        throw new HttpError(422, "The lowest price must not be above the highest.");
      }
      const result = await products.list(
        {
          category: q.category,
          manufacturer: q.manufacturer,
          priceMin: q.price_min,
          priceMax: q.price_max,
          inStock: q.in_stock,
          attributes: attributeFilters(q.attr),
          // `option[Name]` keys are read from the address itself: the schema knows no names in advance.
          options: optionFilters(new URL(request.url, "http://shop").searchParams),
          q: q.q,
          sort: q.sort,
          page: q.page,
          perPage: q.per_page,
        },
        request.prices,
      );
      if (!result) throw new HttpError(404, "Category not found.");
      return result;
    },
  );

  r.get(
    "/products/:slug",
    {
      schema: {
        tags,
        summary:
          "One product with its unit, coverage, options and variants, attributes, categories and related products; with ?variant={sku} its sku, price and stock are that variant's (an unknown variant is 404)",
        params: z.object({ slug: z.string().max(200) }),
        querystring: z.object({ variant: z.string().trim().min(1).max(100).optional() }),
      },
    },
    async (request, reply) => {
      const { variant } = request.query;
      const product = await products.bySlug(request.params.slug, request.prices, variant);
      if (!product) {
        const moved = await products.movedSlug(request.params.slug);
        if (moved) {
          const location = `/api/products/${moved}${variant ? `?variant=${encodeURIComponent(variant)}` : ""}`;
          return reply.code(301).header("location", location).send({ message: "This product has moved.", slug: moved });
        }
        throw new HttpError(404, variant ? "That variant of this product was not found." : "Product not found.");
      }
      return { data: product };
    },
  );

  r.get("/manufacturers", { schema: { tags, summary: "Every brand" } }, async () => ({ data: await catalog.manufacturers() }));

  r.get(
    "/manufacturers/:id",
    { schema: { tags, summary: "One brand", params: z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }) } },
    async (request) => {
      const brand = await catalog.manufacturer(request.params.id);
      if (!brand) throw new HttpError(404, "Manufacturer not found.");
      return { data: brand };
    },
  );

  r.get(
    "/search",
    {
      schema: {
        tags,
        summary: "Search: exact SKU first, then full-text relevance, tolerant of typos; offers a did-you-mean when nothing matches",
        querystring: z.object({
          q: z.string({ error: "Enter something to search for." }).trim().min(1, "Enter something to search for.").max(200),
          page: productListQuery.shape.page,
          per_page: productListQuery.shape.per_page,
        }),
      },
    },
    async (request) => search.search(request.query.q, { page: request.query.page, perPage: request.query.per_page }, request.prices),
  );

  r.get(
    "/search/suggest",
    { schema: { tags, summary: "Up to 8 suggestions for the search box", querystring: z.object({ q: z.string().trim().max(100).default("") }) } },
    async (request) => ({ data: request.query.q.length >= 2 ? await search.suggest(request.query.q) : [] }),
  );

  r.get(
    "/compare",
    {
      schema: {
        tags,
        summary: "Up to 4 products side by side, with the sorted union of their attribute names",
        querystring: z.object({ product_ids: z.string().max(200).default("") }),
      },
    },
    async (request, reply) => {
      const raw = request.query.product_ids.trim();
      const parts = raw === "" ? [] : raw.split(",").map((p) => p.trim());
      if (parts.some((p) => !/^\d{1,9}$/.test(p))) {
        return reply.code(422).send({ success: false, message: "Invalid product ID.", errors: { product_ids: ["Invalid product ID."] }, data: [], unique_attribute_names: [] });
      }
      const ids = [...new Set(parts.map(Number))];
      if (ids.length > COMPARE_LIMIT) {
        const message = "You can only compare up to 4 products.";
        return reply.code(422).send({ success: false, message, errors: { product_ids: [message] }, data: [], unique_attribute_names: [] });
      }
      const data = await products.byIds(ids, request.prices);
      const names = [...new Set(data.flatMap((p) => p.attributes.map((a) => a.name)))].sort((a, b) => a.localeCompare(b, "en-GB"));
      return { success: true, data, unique_attribute_names: names, message: data.length ? "" : "No products to compare." };
    },
  );
}

/** Generated images, outside /api: they are page assets. */
export async function imageRoutes(app: FastifyInstance): Promise<void> {
  const slug = z.string().regex(/^[a-z0-9-]{1,200}$/);
  app.withTypeProvider<ZodTypeProvider>().get(
    "/images/products/:slug/:view",
    { schema: { hide: true, params: z.object({ slug, view: z.enum(["1.svg", "2.svg"]) }) } },
    async (request, reply) => {
      reply.type("image/svg+xml").header("cache-control", immutable);
      return productImageSvg(request.params.slug, request.params.view === "2.svg" ? 2 : 1);
    },
  );
  app.withTypeProvider<ZodTypeProvider>().get(
    "/images/brands/:file",
    { schema: { hide: true, params: z.object({ file: z.string().regex(/^[a-z0-9-]{1,100}\.svg$/) }) } },
    async (request, reply) => {
      reply.type("image/svg+xml").header("cache-control", immutable);
      return brandLogoSvg(request.params.file.replace(/\.svg$/, ""));
    },
  );
}

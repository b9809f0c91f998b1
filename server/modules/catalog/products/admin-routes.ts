import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { messageResponse } from "../../auth/contract.ts";
import { staffApi } from "../../staff/admin-api.ts";
import type { AdminProductService } from "./admin.ts";
import { BULK_ACTIONS, BULK_MAX } from "./admin-bulk.ts";
import { ADMIN_PRODUCTS_PAGE_MAX, type AdminProductFilters, STATUS_FILTERS, STOCK_FILTERS } from "./admin-list.ts";
import type { AdminVariantService } from "../variants/admin-variants.ts";
import { productCreate, productPatch } from "./product-rules.ts";
import { COVERAGE_UNITS, SALE_UNITS } from "./units.ts";
import { optionsInput, variantCreate, variantPatch } from "../variants/variant-rules.ts";
import { PRODUCT_STATUSES } from "../schema.ts";
import { staffDoor } from "../../staff/door.ts";

// A filter form sends an empty value for "any": accepted, and read as no filter.
const blankOr = <T extends z.ZodType>(schema: T) => z.union([z.literal(""), schema]).optional();
const id = z.coerce.number().int().positive().max(2_147_483_647);

const filtersQuery = z.object({
  q: z.string().trim().max(100, "Search for at most 100 characters.").optional(),
  category: blankOr(id),
  brand: blankOr(id),
  stock: blankOr(z.enum(STOCK_FILTERS, { error: `Choose one of: ${STOCK_FILTERS.join(", ")}.` })),
  status: blankOr(z.enum(STATUS_FILTERS, { error: `Choose one of: ${STATUS_FILTERS.join(", ")}.` })),
  no_photo: blankOr(z.enum(["1", "true"])),
});
const listQuery = filtersQuery.extend({
  cursor: z.string().max(400).regex(/^[A-Za-z0-9_-]*$/, "Invalid cursor.").optional(),
  limit: z.coerce.number().int().min(1).max(ADMIN_PRODUCTS_PAGE_MAX).optional(),
});

/** The query as the service takes it: blanks dropped. */
export function productFiltersOf(query: z.infer<typeof listQuery>): AdminProductFilters {
  return {
    q: query.q || undefined,
    category: query.category || undefined,
    brand: query.brand || undefined,
    stock: query.stock || undefined,
    status: query.status || undefined,
    no_photo: query.no_photo ? true : undefined,
    cursor: query.cursor || undefined,
    limit: query.limit,
  };
}

export const skuParams = z.object({ sku: z.string().min(1).max(64).regex(/^[A-Za-z0-9][A-Za-z0-9._/-]*$/, "Give a product's SKU.") });

/** A photo as a product or hire item carries it: its fallback, alt text and renditions. */
export const imageJson = z.object({
  src: z.string(),
  alt: z.string(),
  id: z.string().optional(),
  width: z.number().int().optional(),
  height: z.number().int().optional(),
  sources: z.array(z.object({ type: z.enum(["image/avif", "image/webp"]), srcset: z.string() })).optional(),
});
const variant = z.object({
  id: z.number().int(),
  sku: z.string(),
  options: z.record(z.string(), z.string()).describe("Option name → value; {} for a product without options"),
  price_ex_vat: z.number(),
  price_inc_vat: z.number(),
  was_price_ex_vat: z.number().nullable(),
  stock: z.number().int(),
  reorder_level: z.number().int(),
  low_stock: z.boolean(),
  barcode: z.string().nullable(),
  weight_grams: z.number().int().nullable(),
  images: z.array(imageJson),
  position: z.number().int(),
  status: z.enum(["active", "archived"]),
});
const variantsView = z.object({ options: z.array(z.object({ name: z.string(), values: z.array(z.string()) })), variants: z.array(variant) });

const summary = z.object({
  sku: z.string(),
  name: z.string(),
  slug: z.string(),
  status: z.enum(PRODUCT_STATUSES),
  brand: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  price_ex_vat: z.number(),
  price_inc_vat: z.number(),
  vat_rate: z.number().int(),
  stock: z.number().int(),
  reorder_level: z.number().int(),
  low_stock: z.boolean(),
  photo: z.string().nullable(),
  photos: z.number().int(),
  updated_at: z.string(),
});
const detail = summary.extend({
  summary: z.string(),
  description_html: z.string(),
  was_price_ex_vat: z.number().nullable(),
  heavy: z.boolean(),
  returnable: z.boolean(),
  non_returnable_reason: z.string(),
  featured: z.boolean(),
  seo_title: z.string(),
  seo_description: z.string(),
  bin_location: z.string().describe("Aisle, bay and shelf where it is kept (such as A3-B2-S1); the picking list sorts by it"),
  published: z.boolean(),
  categories: z.array(z.object({ id: z.number().int(), name: z.string(), path: z.string() })),
  attributes: z.array(z.object({ name: z.string(), value: z.string() })),
  related: z.array(z.object({ sku: z.string(), name: z.string() })),
  images: z.array(imageJson),
  old_slugs: z.array(z.string()).describe("Earlier web addresses, each answering with a 301 to this product"),
  attribute_set: z.array(z.object({ name: z.string(), kind: z.enum(["text", "number", "yes_no"]), unit: z.string() })).describe("The attributes its categories ask for, typed; values of these are checked and written alike"),
  trade_prices: z.array(z.object({ discount_percent: z.number(), accounts: z.number().int(), price_ex_vat: z.number(), price_inc_vat: z.number() })).describe("What approved trade accounts pay, by their discount"),
  unit: z.enum(SALE_UNITS).describe("How it is sold: the price is per this unit"),
  coverage: z.object({ per_unit: z.number(), unit: z.enum(COVERAGE_UNITS) }).nullable().describe("What one unit covers (a pack of tiles: 1.44 m²)"),
  options: variantsView.shape.options,
  variants: variantsView.shape.variants,
  stock_movements: z.array(z.object({ id: z.number().int(), change: z.number().int(), kind: z.string(), reason: z.string(), stock_after: z.number().int(), at: z.string() })).describe("The latest ten"),
  created_at: z.string(),
});

const productErrors = { 404: messageResponse };

/** The catalogue desk's API (issue 20): the same service as its screens, which checks each permission. */
export async function adminProductRoutes(app: FastifyInstance, options: { products: AdminProductService; variants: AdminVariantService }): Promise<void> {
  const { products, variants } = options;
  const api = staffApi(app, { tags: ["admin: catalogue"] });

  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });

  api.get(
    "/admin/products",
    {
      summary:
        "Products by name, a keyset page at a time (`next_cursor`): search `q` by name or SKU; filter by category (with its subcategories), brand, stock (in_stock, low: at or below the reorder level, out), status (active: drafts and published, the default; draft, published, archived, all) and `no_photo`. Needs catalogue.view",
      querystring: listQuery,
      response: { 200: z.object({ data: z.array(summary), next_cursor: z.string().nullable() }) },
    },
    async (actor, request) => products.list(actor, productFiltersOf(request.query)),
  );

  api.get(
    "/admin/products/counts",
    {
      summary: "Products per status under the same filters, status aside: the counts on the tabs",
      querystring: filtersQuery,
      response: { 200: z.object({ data: z.object({ draft: z.number().int(), published: z.number().int(), archived: z.number().int() }) }) },
    },
    async (actor, request) => ({ data: await products.counts(actor, productFiltersOf(request.query)) }),
  );

  api.post(
    "/admin/products",
    {
      config: staffDoor("catalogue.manage"),
      summary: "A new product: SKU, name and price ex VAT at least (a draft unless `published` or `status` says otherwise). A stock given is its opening stock in the ledger. Needs catalogue.manage",
      body: productCreate,
      response: { 201: detail },
    },
    async (actor, request, reply) => reply.code(201).send(await products.create(actor, request.body)),
  );

  api.post(
    "/admin/products/bulk",
    {
      config: staffDoor("catalogue.manage"),
      summary: `One change to up to ${BULK_MAX} products by SKU: move_category (category_id), set_vat (vat_rate), archive, price_percent (percent, e.g. 5 or -10; rounded to the penny). With \`preview: true\` it answers each product's old → new and writes nothing. Needs catalogue.manage`,
      body: z.object({
        skus: z.array(z.string().max(64)).min(1, "Choose at least one product.").max(BULK_MAX, `Choose at most ${BULK_MAX} products at once.`),
        action: z.enum(BULK_ACTIONS, { error: `Choose one of: ${BULK_ACTIONS.join(", ")}.` }),
        category_id: id.optional(),
        vat_rate: z.number().int().optional(),
        percent: z.number().optional(),
        preview: z.boolean().optional(),
      }),
      response: {
        200: z.object({
          action: z.enum(BULK_ACTIONS),
          products: z.number().int(),
          applied: z.boolean(),
          changes: z.array(z.object({ sku: z.string(), name: z.string(), field: z.string(), from: z.string(), to: z.string() })),
        }),
      },
    },
    async (actor, request) => {
      const { preview, ...change } = request.body;
      return products.bulk(actor, change, { preview: preview ?? false });
    },
  );

  api.get(
    "/admin/products/:sku",
    { summary: "One product with every field the storefront shows, its old slugs, trade prices and latest stock movements. Needs catalogue.view", params: skuParams, response: { 200: detail, ...productErrors } },
    async (actor, request) => products.get(actor, request.params.sku),
  );

  api.patch(
    "/admin/products/:sku",
    {
      // Stock and reorder level alone need stock.count (the service checks which the body changes).
      config: staffDoor(["catalogue.manage", "stock.count"]),
      summary:
        "Changes any of a product's fields (name, price_ex_vat, vat_rate, stock, reorder_level, published, and the rest); 422 `{errors}` names each bad field. A `stock` given is recorded as a counted movement in the stock ledger. Stock and reorder level need stock.count; every other field catalogue.manage",
      params: skuParams,
      body: productPatch,
      response: { 200: detail, ...productErrors },
    },
    async (actor, request) => products.update(actor, request.params.sku, request.body),
  );

  api.get(
    "/admin/products/:sku/variants",
    {
      summary: "A product's options and every variant (archived ones too), found by any of its variants' SKUs. Needs catalogue.view",
      params: skuParams,
      response: {
        200: variantsView.extend({
          product: z.object({ sku: z.string(), name: z.string(), slug: z.string(), status: z.enum(PRODUCT_STATUSES), vat_rate: z.number().int(), unit: z.enum(SALE_UNITS) }),
        }),
        ...productErrors,
      },
    },
    async (actor, request) => variants.list(actor, request.params.sku),
  );

  api.put(
    "/admin/products/:sku/options",
    {
      config: staffDoor("catalogue.manage"),
      summary: `A product's options (at most 3, such as Length; Size and Colour), each with its values in order. Every combination becomes a variant: a variant that still fits keeps its SKU, price and stock, a new one gets the first variant's price and no stock, one that no longer fits is archived (refused while it holds stock). Needs catalogue.manage`,
      params: skuParams,
      body: z.object({ options: optionsInput }),
      response: { 200: variantsView.extend({ created: z.array(z.string()), archived: z.array(z.string()) }), ...productErrors },
    },
    async (actor, request) => variants.setOptions(actor, request.params.sku, request.body.options),
  );

  api.post(
    "/admin/products/:sku/variants",
    {
      config: staffDoor("catalogue.manage"),
      summary:
        "A new variant of the product (for an ERP): its SKU, option values ({name: value}, one for each of the product's options; a value not yet listed joins the option), price ex VAT, and optionally was price, opening stock (into the ledger), reorder level, barcode (EAN/GTIN, checked) and weight in grams; 422 `{errors}` names each refused field. Needs catalogue.manage",
      params: skuParams,
      body: variantCreate,
      response: { 201: variant, ...productErrors },
    },
    async (actor, request, reply) => reply.code(201).send(await variants.add(actor, request.params.sku, request.body)),
  );

  api.patch(
    "/admin/variants/:sku",
    {
      // Stock and reorder level alone need stock.count (the service checks which the body changes).
      config: staffDoor(["catalogue.manage", "stock.count"]),
      summary:
        "Changes a variant's fields (sku, options, price_ex_vat, was_price_ex_vat, stock, reorder_level, barcode, weight_grams, position, status); 422 `{errors}` names each refused field. A `stock` given is a counted movement in the ledger. Stock and reorder level need stock.count; the rest catalogue.manage",
      params: skuParams,
      body: variantPatch,
      response: { 200: variant, ...productErrors },
    },
    async (actor, request) => variants.update(actor, request.params.sku, request.body),
  );
}

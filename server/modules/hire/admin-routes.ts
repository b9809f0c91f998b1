import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { messageResponse } from "../auth/contract.ts";
import { imageJson } from "../catalog/products/admin-routes.ts";
import { staffApi } from "../staff/admin-api.ts";
import { ADMIN_HIRE_PAGE_MAX, type AdminHireService } from "./admin.ts";
import { hireItemCreate, hireItemPatch, hireUnitCreate, hireUnitPatch } from "./item-rules.ts";
import { staffDoor } from "../staff/door.ts";
import { storeNothing } from "../../lib/no-store.ts";

const id = z.coerce.number().int().positive().max(2_147_483_647);
const listQuery = z.object({
  q: z.string().trim().max(100, "Search for at most 100 characters.").optional(),
  // A filter form sends an empty value for "any".
  category: z.union([z.literal(""), id]).optional(),
  cursor: z.string().max(400).regex(/^[A-Za-z0-9_-]*$/, "Invalid cursor.").optional(),
  limit: z.coerce.number().int().min(1).max(ADMIN_HIRE_PAGE_MAX).optional(),
});
const slugParams = z.object({ slug: z.string().regex(/^[a-z0-9-]{1,200}$/, "Give a hire item's slug.") });
const unitParams = slugParams.extend({ id });

const summary = z.object({
  slug: z.string(),
  name: z.string(),
  category: z.object({ id: z.number().int(), name: z.string() }),
  day_rate: z.number().describe("Pounds ex VAT"),
  weekend_rate: z.number(),
  week_rate: z.number(),
  deposit: z.number().describe("Per unit, refundable, no VAT"),
  vat_rate: z.number().int(),
  units: z.number().int().describe("Active units"),
  photo: z.string().nullable(),
  photos: z.number().int(),
  updated_at: z.string(),
});
const unit = z.object({
  id: z.number().int(),
  asset_number: z.string(),
  serial_number: z.string(),
  active: z.boolean(),
  depot: z.object({ slug: z.string(), name: z.string() }).describe("The hire depot the unit is based at; PATCH `depot` (a slug) moves it there (a transfer, with its history)"),
  allocation: z.object({ start: z.string(), end: z.string(), kind: z.string() }).nullable().describe("The live hold or booking it is out on now, or its next: [start, end)"),
  created_at: z.string(),
});
const detail = summary.extend({
  description: z.string().describe("HTML, sanitised when saved"),
  specifications: z.array(z.object({ name: z.string(), value: z.string() })),
  product: z.object({ sku: z.string(), name: z.string() }).nullable().describe("The same tool for sale"),
  images: z.array(imageJson),
  old_slugs: z.array(z.string()).describe("Earlier web addresses, each answering with a 301 to this hire item"),
  extra_day_rate: z.number().describe("Each day past whole weeks, as the pricing engine charges it: the week rate ÷ 7, never more than a week"),
  examples: z
    .array(
      z.object({
        label: z.string(),
        start_date: z.string(),
        end_date: z.string(),
        days: z.number().int(),
        weekend_rate: z.boolean(),
        hire_ex_vat: z.number(),
        vat: z.number(),
        hire_inc_vat: z.number(),
        deposit: z.number(),
        total: z.number(),
      }),
    )
    .describe("One unit for a day, a weekend, a week and ten days, priced by the storefront's own engine"),
  unit_list: z.array(unit),
  created_at: z.string(),
});

const itemErrors = { 404: messageResponse };

/** The hire catalogue's API (issue 20): the same service as its screens, which checks each permission. */
export async function adminHireRoutes(app: FastifyInstance, options: { hire: AdminHireService }): Promise<void> {
  const { hire } = options;
  const api = staffApi(app, { tags: ["admin: hire catalogue"] });
  const reads = "Needs catalogue.view or hire.desk";
  const writes = "Needs catalogue.manage";

  storeNothing(app);

  api.get(
    "/admin/hire/items",
    {
      summary: `Hire items by name, a keyset page at a time (\`next_cursor\`): search \`q\` by any words of the name, filter by hire \`category\` (its id). ${reads}`,
      querystring: listQuery,
      response: { 200: z.object({ data: z.array(summary), next_cursor: z.string().nullable() }) },
    },
    async (actor, request) => {
      const q = request.query;
      return hire.list(actor, { q: q.q || undefined, category: q.category || undefined, cursor: q.cursor || undefined, limit: q.limit });
    },
  );

  api.get(
    "/admin/hire/categories",
    { summary: `The hire categories a hire item may be in, in the storefront's order. ${reads}`, response: { 200: z.object({ data: z.array(z.object({ id: z.number().int(), slug: z.string(), name: z.string() })) }) } },
    async (actor) => ({ data: await hire.categories(actor) }),
  );

  api.post(
    "/admin/hire/items",
    {
      config: staffDoor("catalogue.manage"),
      summary: `A new hire item: name, hire_category_id and the day, weekend and week rates (pounds ex VAT) at least; slug from the name unless given. 422 \`{errors}\` names each bad field. ${writes}`,
      body: hireItemCreate,
      response: { 201: detail },
    },
    async (actor, request, reply) => reply.code(201).send(await hire.create(actor, request.body)),
  );

  api.get(
    "/admin/hire/items/:slug",
    { summary: `One hire item with every field, its units, old slugs and its rate card worked for a day, a weekend, a week and ten days. ${reads}`, params: slugParams, response: { 200: detail, ...itemErrors } },
    async (actor, request) => hire.get(actor, request.params.slug),
  );

  api.patch(
    "/admin/hire/items/:slug",
    {
      config: staffDoor("catalogue.manage"),
      summary: `Changes any of \`{name, slug, description, hire_category_id, specifications, day_rate, weekend_rate, week_rate, deposit, vat_rate, product_sku}\`; 422 \`{errors}\` names each bad field (a negative rate, a slug another item has, an unknown SKU). A new slug leaves the old one answering 301. The storefront shows it on its next request. ${writes}`,
      params: slugParams,
      body: hireItemPatch,
      response: { 200: detail, ...itemErrors },
    },
    async (actor, request) => hire.update(actor, request.params.slug, request.body),
  );

  api.get(
    "/admin/hire/items/:slug/units",
    { summary: `The hire item's units, active first, each with the hold or booking it is out on now or next. ${reads}`, params: slugParams, response: { 200: z.object({ data: z.array(unit) }), ...itemErrors } },
    async (actor, request) => ({ data: await hire.units(actor, request.params.slug) }),
  );

  api.post(
    "/admin/hire/items/:slug/units",
    {
      config: staffDoor("catalogue.manage"),
      summary: `Adds a unit: \`{asset_number, serial_number?, depot?}\` (depot: a hire depot's slug, the default depot when absent); an asset number another unit has (any case) is refused (422). ${writes}`,
      params: slugParams,
      body: hireUnitCreate,
      response: { 201: unit.extend({ hire_item: z.string() }), ...itemErrors },
    },
    async (actor, request, reply) => reply.code(201).send(await hire.addUnit(actor, request.params.slug, request.body)),
  );

  api.patch(
    "/admin/hire/items/:slug/units/:id",
    {
      config: staffDoor("catalogue.manage"),
      summary: `Changes a unit's \`asset_number\`, \`serial_number\` or \`depot\` (a slug: the unit is transferred there, with a history row), retires it (\`active: false\`) or brings it back. A unit out on hire now, or held or booked for a hire to come, is not retired: 409 naming the dates. ${writes}`,
      params: unitParams,
      body: hireUnitPatch,
      response: { 200: unit.extend({ hire_item: z.string() }), ...itemErrors, 409: messageResponse },
    },
    async (actor, request) => hire.updateUnit(actor, request.params.slug, request.params.id, request.body),
  );
}

import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { messageResponse } from "../../auth/contract.ts";
import { staffApi } from "../../staff/admin-api.ts";
import { type AdminTreeService, attributeSetBody, brandCreate, brandPatch, categoryCreate, categoryPatch } from "./admin-tree.ts";
import { staffDoor } from "../../staff/door.ts";

const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const category = z.object({
  id: z.number().int(),
  parent_id: z.number().int().nullable(),
  name: z.string(),
  slug: z.string(),
  path: z.string(),
  description: z.string(),
  position: z.number().int(),
  depth: z.number().int(),
  products: z.number().int().describe("Products listed in it or its subcategories"),
  attributes: z.array(z.object({ name: z.string(), kind: z.enum(["text", "number", "yes_no"]), unit: z.string() })).describe("Its own attribute set; subcategories inherit it"),
});
const brand = z.object({ id: z.number().int(), name: z.string(), slug: z.string(), description: z.string(), products: z.number().int().optional() });
const oneErrors = { 404: messageResponse };

/** The category tree and brands in the back office's API: the same service as their screens. */
export async function adminTreeRoutes(app: FastifyInstance, options: { tree: AdminTreeService }): Promise<void> {
  const { tree } = options;
  const api = staffApi(app, { tags: ["admin: catalogue"] });

  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });

  api.get("/admin/categories", { summary: "Every category, depth first, siblings in their order, with its path and product count. Needs catalogue.view", response: { 200: z.object({ data: z.array(category) }) } }, async (actor) => ({
    data: await tree.tree(actor),
  }));
  api.post(
    "/admin/categories",
    { config: staffDoor("catalogue.manage"), summary: "A new category `{name, slug?, parent_id?, description?}`, last among its siblings. Needs catalogue.manage", body: categoryCreate, response: { 201: category } },
    async (actor, request, reply) => reply.code(201).send(await tree.createCategory(actor, request.body)),
  );
  api.patch(
    "/admin/categories/:id",
    {
      config: staffDoor("catalogue.manage"),
      summary: "Rename, a new web address, or a new parent (`parent_id`, null for the top): its path and every subcategory's follow, and each old path answers 301. Needs catalogue.manage",
      params: idParams,
      body: categoryPatch,
      response: { 200: category, ...oneErrors },
    },
    async (actor, request) => tree.updateCategory(actor, request.params.id, request.body),
  );
  api.post(
    "/admin/categories/:id/move",
    { config: staffDoor("catalogue.manage"), summary: "One place up or down among its siblings. Needs catalogue.manage", params: idParams, body: z.object({ direction: z.enum(["up", "down"], { error: "Move up or down." }) }), response: { 200: z.object({ moved: z.boolean() }), ...oneErrors } },
    async (actor, request) => tree.moveCategory(actor, request.params.id, request.body.direction),
  );

  api.put(
    "/admin/categories/:id/attributes",
    {
      config: staffDoor("catalogue.manage"),
      summary: "Replaces a category's attribute set `{attributes: [{name, kind: text|number|yes_no, unit?}]}`: its products' (and its subcategories' products') values of these attributes are checked and written alike from their next save. Needs catalogue.manage",
      params: idParams,
      body: attributeSetBody,
      response: { 200: category, ...oneErrors },
    },
    async (actor, request) => tree.setAttributes(actor, request.params.id, request.body),
  );

  api.get("/admin/brands", { summary: "Every brand with its product count. Needs catalogue.view", response: { 200: z.object({ data: z.array(brand) }) } }, async (actor) => ({
    data: await tree.brands(actor),
  }));
  api.post(
    "/admin/brands",
    { config: staffDoor("catalogue.manage"), summary: "A new brand `{name, slug?, description?}`. Needs catalogue.manage", body: brandCreate, response: { 201: brand } },
    async (actor, request, reply) => reply.code(201).send(await tree.createBrand(actor, request.body)),
  );
  api.patch(
    "/admin/brands/:id",
    { config: staffDoor("catalogue.manage"), summary: "Rename a brand, its web address or description; its products are found by the new name. Needs catalogue.manage", params: idParams, body: brandPatch, response: { 200: brand, ...oneErrors } },
    async (actor, request) => tree.updateBrand(actor, request.params.id, request.body),
  );
}

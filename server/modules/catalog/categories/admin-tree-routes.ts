import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { messageResponse, validationResponse } from "../../auth/contract.ts";
import { staffActorOf } from "../../staff/actor.ts";
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
const errors = { 401: messageResponse, 403: messageResponse, 422: validationResponse };
const oneErrors = { ...errors, 404: messageResponse };

/** The category tree and brands in the back office's API: the same service as their screens. */
export async function adminTreeRoutes(app: FastifyInstance, options: { tree: AdminTreeService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { tree } = options;
  const tags = ["admin: catalogue"];

  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", "no-store");
  });

  r.get("/admin/categories", { schema: { tags, summary: "Every category, depth first, siblings in their order, with its path and product count. Needs catalogue.view", response: { 200: z.object({ data: z.array(category) }), ...errors } } }, async (request) => ({
    data: await tree.tree(staffActorOf(request)),
  }));
  r.post(
    "/admin/categories",
    { config: staffDoor("catalogue.manage"), schema: { tags, summary: "A new category `{name, slug?, parent_id?, description?}`, last among its siblings. Needs catalogue.manage", body: categoryCreate, response: { 201: category, ...errors } } },
    async (request, reply) => reply.code(201).send(await tree.createCategory(staffActorOf(request), request.body)),
  );
  r.patch(
    "/admin/categories/:id",
    { config: staffDoor("catalogue.manage"),
      schema: {
        tags,
        summary: "Rename, a new web address, or a new parent (`parent_id`, null for the top): its path and every subcategory's follow, and each old path answers 301. Needs catalogue.manage",
        params: idParams,
        body: categoryPatch,
        response: { 200: category, ...oneErrors },
      },
    },
    async (request) => tree.updateCategory(staffActorOf(request), request.params.id, request.body),
  );
  r.post(
    "/admin/categories/:id/move",
    { config: staffDoor("catalogue.manage"), schema: { tags, summary: "One place up or down among its siblings. Needs catalogue.manage", params: idParams, body: z.object({ direction: z.enum(["up", "down"], { error: "Move up or down." }) }), response: { 200: z.object({ moved: z.boolean() }), ...oneErrors } } },
    async (request) => tree.moveCategory(staffActorOf(request), request.params.id, request.body.direction),
  );

  r.put(
    "/admin/categories/:id/attributes",
    { config: staffDoor("catalogue.manage"),
      schema: {
        tags,
        summary: "Replaces a category's attribute set `{attributes: [{name, kind: text|number|yes_no, unit?}]}`: its products' (and its subcategories' products') values of these attributes are checked and written alike from their next save. Needs catalogue.manage",
        params: idParams,
        body: attributeSetBody,
        response: { 200: category, ...oneErrors },
      },
    },
    async (request) => tree.setAttributes(staffActorOf(request), request.params.id, request.body),
  );

  r.get("/admin/brands", { schema: { tags, summary: "Every brand with its product count. Needs catalogue.view", response: { 200: z.object({ data: z.array(brand) }), ...errors } } }, async (request) => ({
    data: await tree.brands(staffActorOf(request)),
  }));
  r.post(
    "/admin/brands",
    { config: staffDoor("catalogue.manage"), schema: { tags, summary: "A new brand `{name, slug?, description?}`. Needs catalogue.manage", body: brandCreate, response: { 201: brand, ...errors } } },
    async (request, reply) => reply.code(201).send(await tree.createBrand(staffActorOf(request), request.body)),
  );
  r.patch(
    "/admin/brands/:id",
    { config: staffDoor("catalogue.manage"), schema: { tags, summary: "Rename a brand, its web address or description; its products are found by the new name. Needs catalogue.manage", params: idParams, body: brandPatch, response: { 200: brand, ...oneErrors } } },
    async (request) => tree.updateBrand(staffActorOf(request), request.params.id, request.body),
  );
}

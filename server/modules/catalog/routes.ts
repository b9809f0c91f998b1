import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { Services } from "../../services.ts";
import { categoryTreeResponse } from "./contract.ts";

export async function catalogRoutes(app: FastifyInstance, options: { services: Services }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/categories",
    {
      schema: {
        tags: ["catalogue"],
        summary: "The category tree",
        response: { 200: categoryTreeResponse },
      },
    },
    async () => ({ data: await options.services.catalog.categoryTree() }),
  );
}

import type { FastifyInstance } from "fastify";

/**
 * Every answer of this plugin's routes kept by no cache: the back office's
 * (`no-store`), and a customer's own (`private, no-store`, so no shared cache
 * holds it either).
 */
export function storeNothing(app: FastifyInstance, value: "no-store" | "private, no-store" = "no-store"): void {
  app.addHook("onSend", async (_request, reply) => {
    reply.header("cache-control", value);
  });
}

import type { FastifyInstance } from "fastify";
import { mayReadMetrics } from "./access.ts";
import type { ShopMetrics } from "./registry.ts";

/**
 * Counts every request by the route pattern it matched (never its raw path,
 * so the label set stays the size of the route table), and the page cache's
 * hits and misses. Added on the root instance before any route, so it sees all.
 */
export function registerRequestMetrics(app: FastifyInstance, metrics: ShopMetrics): void {
  app.addHook("onResponse", async (request, reply) => {
    metrics.observeRequest(request.is404 ? undefined : request.routeOptions.url, request.method, reply.statusCode, reply.elapsedTime / 1000);
    const cached = request.pageCache;
    if (cached) metrics.pageCache(reply.getHeader("content-type")?.toString().startsWith("application/json") ? "json" : "page", cached.kind === "hit" ? "hit" : "miss");
  });
}

/** GET /metrics in Prometheus's text format, for the operator only (ADR 0056); kept out of the public API document. */
export async function metricsRoutes(app: FastifyInstance, options: { metrics: ShopMetrics; token: string | undefined }): Promise<void> {
  app.get("/metrics", { schema: { hide: true } }, async (request, reply) => {
    reply.header("cache-control", "no-store");
    if (!mayReadMetrics(request, options.token)) return reply.code(403).send({ message: "Forbidden" });
    const { contentType, body } = await options.metrics.scrape();
    return reply.type(contentType).send(body);
  });
}

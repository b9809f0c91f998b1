import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Database } from "../../db/client.ts";
import { DATABASE_RETRY_AFTER_SECONDS } from "../../lib/database-outage.ts";
import { renderApiReference } from "./api-docs.ts";

export interface SystemRouteOptions {
  database: Database;
  buildId: string;
  appName: string;
}

const noStore = "no-store";

export async function systemRoutes(app: FastifyInstance, options: SystemRouteOptions): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    "/healthz",
    { schema: { tags: ["system"], summary: "The process is up", response: { 200: z.object({ status: z.literal("ok") }) } } },
    async (_request, reply) => {
      reply.header("cache-control", noStore);
      return { status: "ok" as const };
    },
  );

  r.get(
    "/readyz",
    {
      schema: {
        tags: ["system"],
        summary: "The database answers",
        response: {
          200: z.object({ status: z.literal("ready"), database: z.enum(["pglite", "postgres"]) }),
          503: z.object({ message: z.string() }),
        },
      },
    },
    async (_request, reply) => {
      reply.header("cache-control", noStore);
      if (await options.database.ping()) return { status: "ready" as const, database: options.database.kind };
      return reply.code(503).header("retry-after", String(DATABASE_RETRY_AFTER_SECONDS)).send({ message: "Database unavailable" });
    },
  );

  r.get(
    "/api/build",
    {
      schema: {
        tags: ["system"],
        summary: "The build the server runs; the browser compares it to spot a new release",
        response: { 200: z.object({ buildId: z.string() }) },
      },
    },
    async (_request, reply) => {
      reply.header("cache-control", noStore);
      return { buildId: options.buildId };
    },
  );

  app.get("/api/openapi.json", { schema: { hide: true } }, async () => app.swagger());

  app.get("/api/docs", { schema: { hide: true } }, async (request, reply) => {
    reply.type("text/html; charset=utf-8");
    return renderApiReference(app.swagger() as Parameters<typeof renderApiReference>[0], options.appName);
  });
}

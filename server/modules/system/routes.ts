import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Database } from "../../db/client.ts";
import { DATABASE_RETRY_AFTER_SECONDS } from "../../lib/database-outage.ts";
import { renderApiReference } from "./api-docs.ts";

export interface SystemRouteOptions {
  database: Database;
  /** Set when REDIS_URL is: readiness needs it to answer as well. */
  redis?: { ping(): Promise<unknown> } | null;
  buildId: string;
  appName: string;
}

const noStore = "no-store";

/** How long readiness waits for the database or Redis: a check slower than this is as good as down. */
export const READY_TIMEOUT_MS = 2_000;

/** True when `check` answers truthily within `ms`; a failure or a slow answer is false. */
async function answersWithin(check: () => Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return Boolean(await Promise.race([check().then((ok) => ok !== false, () => false), late]));
  } finally {
    clearTimeout(timer);
  }
}

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
        summary: `Readiness: the database, and Redis when REDIS_URL is set, each answer within ${READY_TIMEOUT_MS / 1000} s (else 503 naming which); /healthz is liveness`,
        response: {
          200: z.object({ status: z.literal("ready"), database: z.enum(["pglite", "postgres"]), redis: z.enum(["ok", "not used"]) }),
          503: z.object({ message: z.string() }),
        },
      },
    },
    async (_request, reply) => {
      reply.header("cache-control", noStore);
      const redis = options.redis;
      const [database, cache] = await Promise.all([answersWithin(() => options.database.ping(), READY_TIMEOUT_MS), redis ? answersWithin(() => redis.ping(), READY_TIMEOUT_MS) : Promise.resolve(true)]);
      if (database && cache) return { status: "ready" as const, database: options.database.kind, redis: redis ? ("ok" as const) : ("not used" as const) };
      const down = [...(database ? [] : ["Database"]), ...(cache ? [] : ["Redis"])];
      return reply.code(503).header("retry-after", String(DATABASE_RETRY_AFTER_SECONDS)).send({ message: `${down.join(" and ")} unavailable` });
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

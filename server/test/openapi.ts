import type { FastifyInstance } from "fastify";

/** The part of a JSON Schema (as the OpenAPI document gives zod's shapes) that tests read. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}

export interface OpenApiParameter {
  in: "path" | "query" | "header" | "cookie";
  name: string;
  required?: boolean;
  schema?: JsonSchema;
}

export interface ApiOperation {
  /** Upper case, e.g. `POST`. */
  method: string;
  /** As the OpenAPI document names it, e.g. `/api/trade/users/{id}`. */
  path: string;
  parameters: OpenApiParameter[];
  /** The JSON body's schema, when the operation takes one. */
  body: JsonSchema | null;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: OpenApiParameter[]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>>;
}

/** Every operation the server serves, read from its own OpenAPI document, so a new route is covered without a list to update. */
export async function apiOperations(app: FastifyInstance): Promise<ApiOperation[]> {
  const res = await app.inject({ method: "GET", url: "/api/openapi.json" });
  if (res.statusCode !== 200) throw new Error(`GET /api/openapi.json answered ${res.statusCode}`);
  const doc = res.json() as OpenApiDocument;
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      parameters: op.parameters ?? [],
      body: op.requestBody?.content?.["application/json"]?.schema ?? null,
    })),
  );
}

import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { type FieldErrors, HttpError, ValidationError, summarise } from "../http-errors.ts";
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE, isDatabaseUnavailable, outagePage } from "../lib/database-outage.ts";

function fieldName(instancePath: string, context: string | undefined): string {
  const field = instancePath.replace(/^\//, "").replaceAll("/", ".");
  return field || context || "request";
}

/**
 * One error handler for the API: validation answers 422 `{message, errors}`,
 * client errors keep their own message, and anything unexpected answers
 * 500 `{message: "Server Error"}` and is logged with its stack, never sent.
 */
/** The field messages of a failed request schema, or null for any other error. */
export function schemaErrors(error: unknown): FieldErrors | null {
  if (!hasZodFastifySchemaValidationErrors(error)) return null;
  const errors = new Map<string, string[]>();
  for (const issue of error.validation) {
    const field = fieldName(issue.instancePath, error.validationContext);
    errors.set(field, [...(errors.get(field) ?? []), issue.message ?? "is invalid"]);
  }
  // Built from a map: a field named `__proto__` (a key of a record) must stay a field, not become a prototype.
  return Object.fromEntries(errors);
}

/** The storefront's pages: every path but the API's and Sanctum's. */
function isPageRequest(url: string): boolean {
  return !/^\/(api|sanctum)(\/|\?|$)/.test(url);
}

export function registerErrorHandler(app: FastifyInstance, appName: string): void {
  app.setErrorHandler((error: FastifyError | ValidationError, request, reply) => {
    if (isDatabaseUnavailable(error)) {
      // Not the client's fault and not a bug: ask for a retry, and let the load balancer see /readyz.
      request.log.warn({ err: error }, "database unavailable");
      reply.code(503).header("retry-after", String(DATABASE_RETRY_AFTER_SECONDS)).header("cache-control", "no-store");
      // A page met the outage before the storefront rendered it (reading the session): a page, not JSON.
      if (isPageRequest(request.url)) return reply.type("text/html; charset=utf-8").send(outagePage(appName));
      return reply.send({ message: DATABASE_UNAVAILABLE });
    }
    if (error instanceof ValidationError) {
      return reply.code(422).send({ message: error.message, errors: error.errors });
    }
    const errors = schemaErrors(error);
    if (errors) return reply.code(422).send({ message: summarise(errors), errors });
    const status = typeof error.statusCode === "number" ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      request.log.info({ err: { message: error.message, code: error.code } }, "client error");
      return reply.code(status).send({ message: error.message });
    }
    // A deliberate 5xx (a payment service that did not answer) carries a message written for the customer.
    if (error instanceof HttpError) {
      request.log.warn({ err: { message: error.message, cause: error.cause } }, "service unavailable");
      return reply.code(status).send({ message: error.message });
    }
    request.log.error({ err: error }, "unexpected error");
    return reply.code(500).send({ message: "Server Error" });
  });
}

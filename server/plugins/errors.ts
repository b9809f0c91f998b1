import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { type FieldErrors, ValidationError, summarise } from "../http-errors.ts";

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
  const errors: FieldErrors = {};
  for (const issue of error.validation) {
    const field = fieldName(issue.instancePath, error.validationContext);
    (errors[field] ??= []).push(issue.message ?? "is invalid");
  }
  return errors;
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ValidationError, request, reply) => {
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
    request.log.error({ err: error }, "unexpected error");
    return reply.code(500).send({ message: "Server Error" });
  });
}

import type { FastifyInstance } from "fastify";
import { type FieldErrors, HttpError, ValidationError } from "../http-errors.ts";

const NUL = "\u0000";
export const NUL_MESSAGE = "Must not contain a NUL character.";

/**
 * Names every field of `value` (dotted, as schema errors name them) whose text
 * or key holds a NUL. Walks with a stack, not recursion: a 1 MB body may nest
 * arrays hundreds of thousands deep.
 */
export function fieldsWithNul(value: unknown, root: string): string[] {
  const found: string[] = [];
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length) {
    const [v, field] = stack.pop()!;
    if (typeof v === "string") {
      if (v.includes(NUL)) found.push(field);
    } else if (typeof v === "object" && v !== null) {
      for (const [key, child] of Object.entries(v)) {
        const name = field ? `${field}.${key}` : key;
        if (key.includes(NUL)) found.push(name);
        else stack.push([child, name]);
      }
    }
  }
  return found;
}

/**
 * PostgreSQL text cannot hold U+0000: a NUL that reaches a query fails it
 * (error 22021), which would answer 500. No field of the shop has a use for
 * one, so the API refuses a NUL anywhere in a request's path, query or body
 * at the door, with the same 422 as a schema failure; a page whose address
 * holds one (its loaders pass the path and query to the services) is a 400.
 */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook("preValidation", async (request) => {
    const route = request.routeOptions.url ?? "";
    if (!route.startsWith("/api/") && !route.startsWith("/sanctum/")) {
      // A page's form posts go to the storefront's own body parsers; its address is what loaders read.
      if (fieldsWithNul(request.params, "").length || fieldsWithNul(request.query, "").length) throw new HttpError(400, "The address holds a NUL character.");
      return;
    }
    const fields = [...fieldsWithNul(request.params, ""), ...fieldsWithNul(request.query, ""), ...fieldsWithNul(request.body, "")];
    if (!fields.length) return;
    // A field named `__proto__` (a query key, say) would become a prototype, not a key, on the way out (an answer that failed its schema, 500): it is the request's.
    const errors: FieldErrors = Object.fromEntries(fields.map((field) => [field === "" || field === "__proto__" ? "request" : field, [NUL_MESSAGE]]));
    throw new ValidationError(errors);
  });
}

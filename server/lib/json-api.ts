import type {
  ContextConfigDefault,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HTTPMethods,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
} from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { z } from "zod";

export type Responses = Record<number, z.ZodType>;

/** One operation's own part: what the API reference says of it, what it takes, what it answers beyond the shared errors. */
export interface Operation {
  summary: string;
  params?: z.ZodType;
  querystring?: z.ZodType;
  body?: z.ZodType;
  /** Left out where the answer has no JSON shape to give (a CSV or PDF stream): the reference then lists no answers, the shared errors neither. */
  response?: Responses;
  /** The route's config, such as a back-office write's door (modules/staff/door.ts). */
  config?: object;
  /** An upload's own limit on its body's bytes. */
  bodyLimit?: number;
}

/** Fastify's own handler for an operation of this schema: its request, reply and what it may return are typed from the schema. */
type Handler<S extends Operation> = RouteHandlerMethod<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, RouteGenericInterface, ContextConfigDefault, S, ZodTypeProvider>;
type Request<S extends Operation> = Parameters<Handler<S>>[0];
type Reply<S extends Operation> = Parameters<Handler<S>>[1];

/** The handler of one operation: who is behind the request (as the API's `who` finds them, or its error), then Fastify's request and reply. */
export type OperationHandler<Who, S extends Operation> = (who: Who, request: Request<S>, reply: Reply<S>) => ReturnType<Handler<S>>;

/**
 * A group of JSON operations written as their content (path, summary, shapes,
 * the service call): the group's tags and the errors each may answer are
 * added here, and `who` finds who is behind the request (the staff actor, the
 * signed-in customer) before the handler runs, refusing as it does.
 */
export function jsonApi<Who>(app: FastifyInstance, shared: { tags: readonly string[]; errors: Responses; who: (request: FastifyRequest) => Who }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  function route<S extends Operation>(method: HTTPMethods, url: string, operation: S, handler: OperationHandler<Who, S>): void {
    const { config, bodyLimit, response, ...schema } = operation;
    r.route({
      method,
      url,
      ...(config ? { config } : {}),
      ...(bodyLimit ? { bodyLimit } : {}),
      schema: { tags: shared.tags, ...schema, ...(response ? { response: { ...response, ...shared.errors } } : {}) },
      // Typed from the operation's own schema: the same params, query and body; the shared errors only widen what the reply may send.
      handler: (request, reply) => handler(shared.who(request), request as unknown as Request<S>, reply as unknown as Reply<S>),
    });
  }

  return {
    get: <S extends Operation>(url: string, operation: S, handler: OperationHandler<Who, S>) => route("GET", url, operation, handler),
    post: <S extends Operation>(url: string, operation: S, handler: OperationHandler<Who, S>) => route("POST", url, operation, handler),
    put: <S extends Operation>(url: string, operation: S, handler: OperationHandler<Who, S>) => route("PUT", url, operation, handler),
    patch: <S extends Operation>(url: string, operation: S, handler: OperationHandler<Who, S>) => route("PATCH", url, operation, handler),
    delete: <S extends Operation>(url: string, operation: S, handler: OperationHandler<Who, S>) => route("DELETE", url, operation, handler),
  };
}

/**
 * The handler of an operation that answers 204 with no body (its response
 * `{204: z.null()}`) once `work` is done: a delete, a revoke, a check.
 */
export function noContent<Who, S extends Operation>(work: (who: Who, request: Request<S>) => Promise<unknown>): OperationHandler<Who, S> {
  // Fastify types the reply from the operation's own responses, which this handler cannot name for any S; every caller's lists 204.
  return (who, request, reply) => work(who, request).then(() => (reply as unknown as FastifyReply).code(204).send(null)) as unknown as ReturnType<Handler<S>>;
}

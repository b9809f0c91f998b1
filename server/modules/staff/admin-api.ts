import type {
  ContextConfigDefault,
  FastifyInstance,
  HTTPMethods,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
} from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { z } from "zod";
import { messageResponse, validationResponse } from "../auth/contract.ts";
import { type StaffActor, staffActorOf } from "./actor.ts";
import type { StaffDoor } from "./door.ts";

/** What an `/api/admin` operation may answer besides its own result: not signed in, not allowed, a refused field. */
export const staffErrors = { 401: messageResponse, 403: messageResponse, 422: validationResponse };

type Responses = Record<number, z.ZodType>;

/** An upload's own limit on its body's bytes (a route option, beside the schema). */
interface RouteOptions {
  bodyLimit?: number;
}

/** One operation's own part: what the API reference says of it, what it takes, what it answers beyond the shared errors. */
export interface StaffOperation extends RouteOptions {
  summary: string;
  params?: z.ZodType;
  querystring?: z.ZodType;
  body?: z.ZodType;
  /** Left out where the answer has no JSON shape to give (a CSV or PDF stream): the reference then lists no answers, the shared errors neither. */
  response?: Responses;
}

/** A write's door (modules/staff/door.ts), as `staffDoor(…)` makes it: who may come in before its body is read. */
export interface StaffWrite extends StaffOperation {
  config: { staffDoor: StaffDoor };
}

/** Fastify's own handler for an operation of this schema: its request, reply and what it may return are typed from the schema. */
type Handler<S extends StaffOperation> = RouteHandlerMethod<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, RouteGenericInterface, ContextConfigDefault, S, ZodTypeProvider>;
type Request<S extends StaffOperation> = Parameters<Handler<S>>[0];
type Reply<S extends StaffOperation> = Parameters<Handler<S>>[1];

/** The handler of one operation: the actor behind the request (401 when there is none), then Fastify's request and reply. */
export type StaffHandler<S extends StaffOperation> = (actor: StaffActor, request: Request<S>, reply: Reply<S>) => ReturnType<Handler<S>>;

/**
 * A desk's JSON operations under `/api/admin`, each written as its content
 * (path, door, summary, shapes, the service call): the desk's tags and the
 * errors every operation may answer are added here, and the handler gets the
 * staff actor. A write's type asks for its door; plugins/staff-auth.ts still
 * refuses at start any write that declares none. The service checks the
 * permission again.
 */
export function staffApi(app: FastifyInstance, shared: { tags: readonly string[]; errors?: Responses }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const errors = shared.errors ?? staffErrors;

  function route<S extends StaffOperation>(method: HTTPMethods, url: string, operation: S & { config?: StaffWrite["config"] }, handler: StaffHandler<S>): void {
    const { config, bodyLimit, response, ...schema } = operation;
    r.route({
      method,
      url,
      ...(config ? { config } : {}),
      ...(bodyLimit ? { bodyLimit } : {}),
      schema: { tags: shared.tags, ...schema, ...(response ? { response: { ...response, ...errors } } : {}) },
      // Typed from the operation's own schema: the same params, query and body; the shared errors only widen what the reply may send.
      handler: (request, reply) => handler(staffActorOf(request), request as unknown as Request<S>, reply as unknown as Reply<S>),
    });
  }

  return {
    get: <S extends StaffOperation>(url: string, operation: S, handler: StaffHandler<S>) => route("GET", url, operation, handler),
    post: <S extends StaffWrite>(url: string, operation: S, handler: StaffHandler<S>) => route("POST", url, operation, handler),
    put: <S extends StaffWrite>(url: string, operation: S, handler: StaffHandler<S>) => route("PUT", url, operation, handler),
    patch: <S extends StaffWrite>(url: string, operation: S, handler: StaffHandler<S>) => route("PATCH", url, operation, handler),
    delete: <S extends StaffWrite>(url: string, operation: S, handler: StaffHandler<S>) => route("DELETE", url, operation, handler),
  };
}

import type { FastifyInstance } from "fastify";
import { type Operation, type OperationHandler, type Responses, jsonApi } from "../../lib/json-api.ts";
import { messageResponse, validationResponse } from "../auth/contract.ts";
import { type StaffActor, staffActorOf } from "./actor.ts";
import type { StaffDoor } from "./door.ts";

/** What an `/api/admin` operation may answer besides its own result: not signed in, not allowed, a refused field. */
export const staffErrors = { 401: messageResponse, 403: messageResponse, 422: validationResponse };

/** A write's door (modules/staff/door.ts), as `staffDoor(…)` makes it: who may come in before its body is read. */
export interface StaffWrite extends Operation {
  config: { staffDoor: StaffDoor };
}

/**
 * A desk's operations under `/api/admin` (lib/json-api.ts): the desk's tags
 * and the errors every operation may answer are added, and the handler gets
 * the staff actor (401 without one). A write's type asks for its door;
 * plugins/staff-auth.ts still refuses at start any write that declares none.
 * The service checks the permission again.
 */
export function staffApi(app: FastifyInstance, shared: { tags: readonly string[]; errors?: Responses }) {
  const api = jsonApi(app, { tags: shared.tags, errors: shared.errors ?? staffErrors, who: staffActorOf });
  return {
    get: <S extends Operation>(url: string, operation: S, handler: OperationHandler<StaffActor, S>) => api.get(url, operation, handler),
    post: <S extends StaffWrite>(url: string, operation: S, handler: OperationHandler<StaffActor, S>) => api.post(url, operation, handler),
    put: <S extends StaffWrite>(url: string, operation: S, handler: OperationHandler<StaffActor, S>) => api.put(url, operation, handler),
    patch: <S extends StaffWrite>(url: string, operation: S, handler: OperationHandler<StaffActor, S>) => api.patch(url, operation, handler),
    delete: <S extends StaffWrite>(url: string, operation: S, handler: OperationHandler<StaffActor, S>) => api.delete(url, operation, handler),
  };
}

import { HttpError } from "../../http-errors.ts";
import { type StaffActor, authorize, requireSession } from "./actor.ts";
import { type Permission, can } from "./permissions.ts";

/**
 * What an `/api/admin` write asks of its caller at the door, before its body
 * is read or checked (issue 33): any member of staff, one permission, or any
 * one of several (where the body decides which, the service checks that one
 * again). `sessionOnly`: a member signed in here, never an API token.
 */
export type DoorNeeds = "member" | Permission | readonly [Permission, ...Permission[]];
export interface StaffDoor {
  needs: DoorNeeds;
  sessionOnly?: true;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** Every `/api/admin` write declares one (plugins/staff-auth.ts refuses to register it otherwise). */
    staffDoor?: StaffDoor;
  }
}

/** A route's `config`: `{ config: staffDoor("orders.note"), schema: … }`. */
export function staffDoor(needs: DoorNeeds, options: { sessionOnly?: true } = {}): { staffDoor: StaffDoor } {
  return { staffDoor: { needs, ...options } };
}

/** Why the actor may not pass the door (the message the service's own checks give), or null when they may. */
export function refusedAtDoor(door: StaffDoor, actor: StaffActor): string | null {
  try {
    if (door.sessionOnly) requireSession(actor);
    if (door.needs === "member") return null;
    const needs = typeof door.needs === "string" ? [door.needs] : door.needs;
    // Any one of them opens it: the one the role holds, else the first, refused as such.
    authorize(actor, needs.find((p) => can(actor.role, p)) ?? needs[0]!);
    return null;
  } catch (error) {
    if (error instanceof HttpError) return error.message;
    throw error;
  }
}

import type { StaffActor } from "./actor.ts";
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

/** Why the actor may not pass the door, or null when they may. */
export function refusedAtDoor(door: StaffDoor, actor: StaffActor): string | null {
  if (door.sessionOnly && actor.via !== "cli" && !actor.sessionId) return "This needs a signed-in member of staff, not an API token.";
  const { needs } = door;
  if (needs === "member") return null;
  const allowed = typeof needs === "string" ? can(actor.role, needs) : needs.some((p) => can(actor.role, p));
  return allowed ? null : "Your role does not allow this.";
}

import { HttpError } from "../../http-errors.ts";
import { type Permission, type StaffRole, can } from "./permissions.ts";

/**
 * Who is acting behind the counter: a signed-in member (through a screen or
 * the API), an API token (acting with its own role, in the name of the owner
 * who made it), or the CLI (`system`). Every admin service takes one and checks
 * the permission itself: a loader's guard does not stop a direct POST.
 */
export interface StaffActor {
  staffId: number;
  /** Name and email as the audit log records them. */
  name: string;
  email: string;
  role: StaffRole;
  via: "screen" | "api" | "token" | "cli";
  /** A staff API token's name when `via` is `token`. */
  tokenName?: string;
  /** The session, for actions that ask for the password again; none for tokens and the CLI. */
  sessionId?: number;
  /** The branches the member works at (staff.branch_ids): their queues come first. */
  branchIds?: readonly number[];
  /** Limited to those branches' orders by an owner's choice (staff.branches_only). */
  branchesOnly?: boolean;
}

/**
 * The branches whose orders a member may see and work (issue 30), or null for
 * every branch: owners and managers always see all; anyone else only when an
 * owner has not limited them to their own branches.
 */
export function branchLimit(actor: StaffActor): readonly number[] | null {
  if (actor.role === "owner" || actor.role === "manager") return null;
  return actor.branchesOnly ? (actor.branchIds ?? []) : null;
}

/** Refuses with 403 when the actor's role does not hold the permission. */
export function authorize(actor: StaffActor | null | undefined, permission: Permission): StaffActor {
  if (!actor) throw new HttpError(401, "Sign in to the back office.");
  if (!can(actor.role, permission)) throw new HttpError(403, "Your role does not allow this.");
  return actor;
}

/** The API's actor, or 401: every admin handler calls it first, and the service checks the permission again. */
export function staffActorOf(request: { staffActor: StaffActor | null }): StaffActor {
  if (!request.staffActor) throw new HttpError(401, "Sign in to the back office.");
  return request.staffActor;
}

/**
 * Who may manage staff, tokens and their own second factor: a member signed
 * in here (their session's id) or the CLI (null), never an API token, whatever its role: a leaked
 * till's token must not make itself more tokens or enrol its owner's phone.
 */
export function requireSession(actor: StaffActor): number | null {
  if (actor.via === "cli") return null;
  if (!actor.sessionId) throw new HttpError(403, "This needs a signed-in member of staff, not an API token.");
  return actor.sessionId;
}

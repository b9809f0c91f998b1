import { HttpError } from "../../http-errors.ts";
import { type Permission, type StaffRole, can } from "../staff/permissions.ts";
import { RETURN_STATUS_LABELS, type ReturnStatus } from "./statuses.ts";

/**
 * A return's state machine, in one table like the orders' (design: "rules
 * with states are a transition table"): every legal move is a row; any other
 * is a 409. Approved → received is always allowed, since goods often arrive
 * unannounced; so is requested → received, for goods handed in at a branch.
 */
export interface ReturnTransition {
  from: ReturnStatus;
  to: ReturnStatus;
  permission: Permission;
  /** The button on the return's page. */
  label: string;
  /** Whether the customer is emailed about the move (through the outbox). */
  emailsCustomer: boolean;
}

const move = (from: ReturnStatus, to: ReturnStatus, permission: Permission, label: string, emailsCustomer = true): ReturnTransition => ({ from, to, permission, label, emailsCustomer });

export const RETURN_TRANSITIONS: readonly ReturnTransition[] = [
  move("requested", "approved", "returns.approve", "Approve"),
  move("requested", "rejected", "returns.approve", "Reject"),
  move("approved", "rejected", "returns.approve", "Reject"),
  move("requested", "received", "returns.receive", "Receive the goods"),
  move("approved", "received", "returns.receive", "Receive the goods"),
  move("received", "refunded", "refunds.create", "Refund"),
  move("received", "exchanged", "returns.approve", "Send a replacement"),
  // Nothing to give back (nothing arrived, or settled another way): closed as it stands.
  move("received", "closed", "returns.approve", "Close without refund", false),
  move("refunded", "closed", "returns.approve", "Close", false),
  move("exchanged", "closed", "returns.approve", "Close", false),
];

export interface ReturnAction {
  to: ReturnStatus;
  label: string;
}

/** The moves this return's status allows this role. */
export function allowedReturnMoves(status: ReturnStatus, role: StaffRole): ReturnAction[] {
  return RETURN_TRANSITIONS.filter((t) => t.from === status && can(role, t.permission)).map((t) => ({ to: t.to, label: t.label }));
}

const lower = (s: ReturnStatus) => RETURN_STATUS_LABELS[s].toLowerCase();

/** The move, or why not: 409 for one the table does not list, 403 for a role without its permission. */
export function checkReturnMove(number: string, from: ReturnStatus, to: ReturnStatus, role: StaffRole): ReturnTransition {
  if (from === to) throw new HttpError(409, `Return ${number} is already ${lower(to)}.`);
  const found = RETURN_TRANSITIONS.find((t) => t.from === from && t.to === to);
  if (!found) throw new HttpError(409, `Return ${number} is ${lower(from)}; it cannot move to ${lower(to)}.`);
  if (!can(role, found.permission)) throw new HttpError(403, "Your role does not allow this.");
  return found;
}

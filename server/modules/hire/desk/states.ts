import { HttpError } from "../../../http-errors.ts";
import { type HireRequestState, hireStatusLabel } from "../desk-labels.ts";

/**
 * The hire request's states and the hire desk's moves between them (ADR 0039),
 * in one table: a move from a state it does not list is a 409.
 *
 * pending → confirmed ("Approved") | declined | lapsed (the hold ran out);
 * confirmed → out (a unit handed over) → off_hired (every unit out is
 * off-hired, some not yet back) → returned (all back, charges not settled)
 * → completed (invoiced, paid or settled as the shop arranged).
 */
export { HIRE_REQUEST_STATUSES, HIRE_STATUS_LABELS } from "../desk-labels.ts";
export type { HireRequestState as HireRequestStatus } from "../desk-labels.ts";

export const HIRE_DESK_MOVES = {
  approve: ["pending"],
  decline: ["pending", "confirmed"],
  propose: ["pending"],
  hand_over: ["confirmed", "out"],
  off_hire: ["out", "off_hired"],
  return: ["out", "off_hired"],
  charge: ["out", "off_hired", "returned"],
  settle: ["returned"],
  /** The command line's "complete": a hire that never went through the desk, or one returned and settled as arranged. */
  complete: ["confirmed", "returned"],
} as const satisfies Record<string, readonly HireRequestState[]>;
export type HireDeskMove = keyof typeof HIRE_DESK_MOVES;

const VERBS: Record<HireDeskMove, string> = {
  approve: "approved",
  decline: "declined",
  propose: "given other dates",
  hand_over: "handed over",
  off_hire: "off-hired",
  return: "returned",
  charge: "charged",
  settle: "settled",
  complete: "completed",
};

export function mayMove(status: string, move: HireDeskMove): boolean {
  return (HIRE_DESK_MOVES[move] as readonly string[]).includes(status);
}

/** Refuses a move the request's state does not allow, in plain words (409). */
export function checkMove(number: string, status: string, move: HireDeskMove): void {
  if (mayMove(status, move)) return;
  const label = hireStatusLabel(status).toLowerCase();
  throw new HttpError(409, `Hire request ${number} is ${label}, so it cannot be ${VERBS[move]}.`);
}

/** Where a unit stands on its hire. */
export type UnitState = "booked" | "out" | "off_hired" | "returned";

/**
 * The request's state from its units once one has gone out: any unit still
 * on hire keeps it out; all those out off-hired, it is off-hired; all back,
 * returned. Units never handed over do not hold it open: the last return
 * releases their bookings.
 */
export function statusFromUnits(units: UnitState[]): "out" | "off_hired" | "returned" {
  const handed = units.filter((u) => u !== "booked");
  if (handed.some((u) => u === "out")) return "out";
  if (handed.some((u) => u === "off_hired")) return "off_hired";
  return "returned";
}

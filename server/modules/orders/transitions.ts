import { HttpError, ValidationError, type FieldErrors } from "../../http-errors.ts";
import { type Permission, type StaffRole, can } from "../staff/permissions.ts";
import { CANCELLABLE, type OrderStatus, STATUS_LABELS } from "./statuses.ts";

/**
 * The order's state machine, in one place (design: "rules with states are a
 * transition table"). Every legal move is a row below; any other move is a 409.
 * The orders desk, the API and the CLI all go through `checkTransition`.
 */

export { STATUS_LABELS } from "./statuses.ts";

/** Delivered to an address, or collected from the branch (a delivery method of kind `collect`, "Click & collect" in the demo). */
export type Fulfilment = "delivery" | "collection";

/** What the machine needs to know of an order. */
export interface TransitionOrder {
  number: string;
  status: OrderStatus;
  payment_method: string;
  fulfilment: Fulfilment;
  /** A collection made ready with a code (orders/collection.ts): it is handed over only for that code. Orders made ready before codes have none. */
  has_collection_code?: boolean;
}

/** What a member may have to give with a move. */
export type TransitionField = "carrier" | "tracking_number" | "note" | "collection_code";

export interface TransitionInput {
  carrier?: string | null;
  tracking_number?: string | null;
  note?: string | null;
  collection_code?: string | null;
}

export interface Transition {
  from: OrderStatus;
  to: OrderStatus;
  permission: Permission;
  /** The button on the order's page. */
  label: string;
  requires: readonly TransitionField[];
  /** Whether the customer is emailed about the move (through the outbox). */
  emailsCustomer: boolean;
  /** Only orders that pass this may make the move; `refusal` says why another may not. */
  when?: { test: (order: TransitionOrder) => boolean; refusal: (order: TransitionOrder) => string };
}

const forDelivery: Transition["when"] = {
  test: (o) => o.fulfilment === "delivery",
  refusal: (o) => `Order ${o.number} is for collection from the branch; it cannot be dispatched.`,
};
const forCollection: Transition["when"] = {
  test: (o) => o.fulfilment === "collection",
  refusal: (o) => `Order ${o.number} is for delivery; it cannot be made ready for collection.`,
};
// Pay on collection is paid at the counter, so picking starts before payment.
const payOnCollection: Transition["when"] = {
  test: (o) => o.payment_method === "pay_on_collection",
  refusal: (o) => `Order ${o.number} is awaiting payment; it cannot move to processing until it is paid.`,
};

// A card order is paid by the gateway's word alone (payments/service.ts), never by hand.
const notCard: Transition["when"] = {
  test: (o) => o.payment_method !== "card",
  refusal: (o) => `Order ${o.number} is paid by card; it is marked paid when the card payment arrives.`,
};

// An order on account may be cancelled as any other: the orders desk credits
// its invoice in full in the same transaction (admin.ts `creditCancelledOrder`).

export { CANCELLABLE } from "./statuses.ts";

export const TRANSITIONS: readonly Transition[] = [
  // Bank transfer received.
  { from: "awaiting_payment", to: "paid", permission: "orders.mark_paid", label: "Mark as paid", requires: [], emailsCustomer: true, when: notCard },
  { from: "paid", to: "processing", permission: "orders.fulfil", label: "Start picking", requires: [], emailsCustomer: false },
  { from: "awaiting_payment", to: "processing", permission: "orders.fulfil", label: "Start picking", requires: [], emailsCustomer: false, when: payOnCollection },
  { from: "processing", to: "dispatched", permission: "orders.fulfil", label: "Dispatch", requires: ["carrier", "tracking_number"], emailsCustomer: true, when: forDelivery },
  { from: "dispatched", to: "completed", permission: "orders.fulfil", label: "Mark as delivered", requires: [], emailsCustomer: false },
  { from: "processing", to: "ready_for_collection", permission: "orders.fulfil", label: "Ready for collection", requires: [], emailsCustomer: true, when: forCollection },
  { from: "ready_for_collection", to: "completed", permission: "orders.fulfil", label: "Mark as collected", requires: ["collection_code"], emailsCustomer: false },
  ...CANCELLABLE.map((from): Transition => ({ from, to: "cancelled", permission: "orders.cancel", label: "Cancel order", requires: ["note"], emailsCustomer: true })),
];

const lower = (status: OrderStatus) => STATUS_LABELS[status].toLowerCase();

/** An action the order's page offers, as the screens and the API show it. */
export interface OrderAction {
  to: OrderStatus;
  label: string;
  requires: TransitionField[];
  emails_customer: boolean;
}

/** What this order's move needs given: a collection code only where the order has one. */
const requiredOf = (move: Transition, order: TransitionOrder) => move.requires.filter((f) => f !== "collection_code" || order.has_collection_code);

/** The moves this order's status allows for this role (and only those its fulfilment and payment allow). */
export function allowedTransitions(order: TransitionOrder, role: StaffRole): OrderAction[] {
  return TRANSITIONS.filter((t) => t.from === order.status && (!t.when || t.when.test(order)) && can(role, t.permission)).map((t) => ({
    to: t.to,
    label: t.label,
    requires: requiredOf(t, order),
    emails_customer: t.emailsCustomer,
  }));
}

const MISSING: Record<TransitionField, string> = {
  carrier: "Enter the carrier.",
  tracking_number: "Enter the tracking number.",
  note: "Give the reason.",
  collection_code: "Enter the collection code the customer shows you (or scan its QR code).",
};

/**
 * The move from the order's status to `to`, or why not: 409 for a move the
 * table does not list (or this order cannot make), 403 for a role without the
 * permission, 422 for a missing carrier, tracking number or reason.
 */
export function checkTransition(order: TransitionOrder, to: OrderStatus, role: StaffRole, input: TransitionInput = {}): Transition {
  if (order.status === to) throw new HttpError(409, `Order ${order.number} is already ${lower(to)}.`);
  const move = TRANSITIONS.find((t) => t.from === order.status && t.to === to);
  if (!move) throw new HttpError(409, `Order ${order.number} is ${lower(order.status)}; it cannot move to ${lower(to)}.`);
  if (move.when && !move.when.test(order)) throw new HttpError(409, move.when.refusal(order));
  if (!can(role, move.permission)) throw new HttpError(403, "Your role does not allow this.");
  const errors: FieldErrors = {};
  for (const field of requiredOf(move, order)) if (!input[field]?.trim()) errors[field] = [field === "note" && to === "cancelled" ? "Give the reason for cancelling." : MISSING[field]];
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return move;
}

// A return's statuses, reasons and ways back, with their names: plain data,
// so the storefront's and the back office's screens import them without the
// database schema.
import { labelledList } from "../../lib/labelled.ts";

/**
 * A return's life (the table is in returns/transitions.ts): asked for by the
 * customer, approved (with instructions) or rejected (with a reason), its
 * goods received, then refunded or exchanged, then closed.
 */
export const { values: RETURN_STATUSES, labels: RETURN_STATUS_LABELS, label: returnStatusLabel } = labelledList({
  requested: "Requested",
  approved: "Approved",
  rejected: "Rejected",
  received: "Received",
  refunded: "Refunded",
  exchanged: "Exchanged",
  closed: "Closed",
});
export type ReturnStatus = (typeof RETURN_STATUSES)[number];

/** Why a customer sends something back: the merchant's list. */
export const { values: RETURN_REASONS, labels: RETURN_REASON_LABELS, label: returnReasonLabel } = labelledList({
  changed_mind: "Changed my mind",
  faulty: "Faulty",
  damaged: "Damaged in transit",
  wrong_item: "Wrong item sent",
  other: "Other",
});
export type ReturnReason = (typeof RETURN_REASONS)[number];

/** The shop's fault: it bears the cost of the goods' return (Consumer Rights Act 2015), so no collection charge. */
export const SHOPS_FAULT: readonly ReturnReason[] = ["faulty", "damaged", "wrong_item"];

/** How the goods come back. */
export const { values: RETURN_METHODS, labels: RETURN_METHOD_LABELS } = labelledList({
  branch: "Bring it to a branch",
  post: "Send it by post",
  collection: "We collect it (heavy goods)",
});
export type ReturnMethod = (typeof RETURN_METHODS)[number];

/** How a return's money went back. */
export const REFUND_METHODS = ["card", "credit_note", "manual"] as const;
export type RefundMethod = (typeof REFUND_METHODS)[number];

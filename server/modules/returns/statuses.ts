// A return's statuses, reasons and ways back, with their names: plain data,
// so the storefront's and the back office's screens import them without the
// database schema.

/**
 * A return's life (the table is in returns/transitions.ts): asked for by the
 * customer, approved (with instructions) or rejected (with a reason), its
 * goods received, then refunded or exchanged, then closed.
 */
export const RETURN_STATUSES = ["requested", "approved", "rejected", "received", "refunded", "exchanged", "closed"] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];

export const RETURN_STATUS_LABELS: Record<ReturnStatus, string> = {
  requested: "Requested",
  approved: "Approved",
  rejected: "Rejected",
  received: "Received",
  refunded: "Refunded",
  exchanged: "Exchanged",
  closed: "Closed",
};

/** Why a customer sends something back: the merchant's list. */
export const RETURN_REASONS = ["changed_mind", "faulty", "damaged", "wrong_item", "other"] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];

export const RETURN_REASON_LABELS: Record<ReturnReason, string> = {
  changed_mind: "Changed my mind",
  faulty: "Faulty",
  damaged: "Damaged in transit",
  wrong_item: "Wrong item sent",
  other: "Other",
};

/** The shop's fault: it bears the cost of the goods' return (Consumer Rights Act 2015), so no collection charge. */
export const SHOPS_FAULT: readonly ReturnReason[] = ["faulty", "damaged", "wrong_item"];

/** How the goods come back. */
export const RETURN_METHODS = ["branch", "post", "collection"] as const;
export type ReturnMethod = (typeof RETURN_METHODS)[number];

export const RETURN_METHOD_LABELS: Record<ReturnMethod, string> = {
  branch: "Bring it to a branch",
  post: "Send it by post",
  collection: "We collect it (heavy goods)",
};

/** How a return's money went back. */
export const REFUND_METHODS = ["card", "credit_note", "manual"] as const;
export type RefundMethod = (typeof REFUND_METHODS)[number];

// An order's statuses and their names: plain data, so the back office's
// screens import them without the database schema.
export const ORDER_STATUSES = ["awaiting_payment", "paid", "processing", "dispatched", "ready_for_collection", "completed", "cancelled"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const STATUS_LABELS: Record<OrderStatus, string> = {
  awaiting_payment: "Awaiting payment",
  paid: "Paid",
  processing: "Processing",
  dispatched: "Dispatched",
  ready_for_collection: "Ready for collection",
  completed: "Completed",
  cancelled: "Cancelled",
};

/** The states from which an order may still be cancelled: anything before it leaves the building. */
export const CANCELLABLE: readonly OrderStatus[] = ["awaiting_payment", "paid", "processing", "ready_for_collection"];

/** An order's number from its id: `TC-000123`. */
export const orderNumberOf = (id: number) => `TC-${String(id).padStart(6, "0")}`;

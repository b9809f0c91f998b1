// An order's statuses and their names: plain data, so the back office's
// screens import them without the database schema.
import { labelledList } from "../../lib/labelled.ts";

export const { values: ORDER_STATUSES, labels: STATUS_LABELS, label: orderStatusLabel } = labelledList({
  awaiting_payment: "Awaiting payment",
  paid: "Paid",
  processing: "Processing",
  dispatched: "Dispatched",
  ready_for_collection: "Ready for collection",
  completed: "Completed",
  cancelled: "Cancelled",
});
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** The states from which an order may still be cancelled: anything before it leaves the building. */
export const CANCELLABLE: readonly OrderStatus[] = ["awaiting_payment", "paid", "processing", "ready_for_collection"];

/** An order's number from its id: `TC-000123`. */
export const orderNumberOf = (id: number) => `TC-${String(id).padStart(6, "0")}`;

// Plain values the back office's screens share with the server (no database code).
import { labelledList } from "../../lib/labelled.ts";

/**
 * Why stock moved. Opening: the stock a product had when the ledger began (or
 * was created with). Counted: a stock count's difference. Adjusted: a
 * correction with a reason (damage, loss). Sold and cancelled: checkout and an
 * unpaid or cancelled order giving it back. Returned: goods a customer sent back.
 * Transfer out and in: stock sent from one branch and received at another.
 * Written off: returned goods that came back damaged (returns/receive.ts).
 */
export const { values: MOVEMENT_KINDS, labels: KIND_LABELS } = labelledList({
  opening: "Opening stock",
  received: "Received",
  counted: "Counted",
  adjusted: "Adjusted",
  sold: "Sold",
  returned: "Returned",
  cancelled: "Order cancelled",
  transfer_out: "Sent to a branch",
  transfer_in: "Received from a branch",
  written_off: "Written off",
});
export type MovementKind = (typeof MOVEMENT_KINDS)[number];

/** What staff may record by hand; sold and cancelled come from orders, opening from the ledger's start. */
export const MANUAL_KINDS = ["received", "adjusted", "returned"] as const satisfies readonly MovementKind[];
export type ManualKind = (typeof MANUAL_KINDS)[number];

/** A transfer's life: asked for, sent (the stock has left the sender), received (arrived, any shortfall recorded), or cancelled before it was sent. */
export const { values: TRANSFER_STATES, labels: TRANSFER_STATE_LABELS } = labelledList({ requested: "Requested", in_transit: "In transit", received: "Received", cancelled: "Cancelled" });
export type TransferState = (typeof TRANSFER_STATES)[number];

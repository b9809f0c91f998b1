import { describe, expect, it } from "vitest";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { STAFF_ROLES, type StaffRole, can } from "../staff/permissions.ts";
import { ORDER_STATUSES, type OrderStatus } from "./schema.ts";
import { type Fulfilment, type TransitionOrder, TRANSITIONS, allowedTransitions, checkTransition } from "./transitions.ts";

const order = (status: OrderStatus, fulfilment: Fulfilment = "delivery", payment_method = "bank_transfer"): TransitionOrder => ({ number: "TC-000123", status, payment_method, fulfilment });
const full = { carrier: "Royal Mail", tracking_number: "AB123456789GB", note: "Customer asked to cancel." };

/** Every legal move, written out by hand from the issue: the table must say exactly this. */
const LEGAL: [from: OrderStatus, to: OrderStatus, fulfilment: Fulfilment, payment: string][] = [
  ["awaiting_payment", "paid", "delivery", "bank_transfer"],
  ["paid", "processing", "delivery", "bank_transfer"],
  ["awaiting_payment", "processing", "collection", "pay_on_collection"],
  ["processing", "dispatched", "delivery", "bank_transfer"],
  ["dispatched", "completed", "delivery", "bank_transfer"],
  ["processing", "ready_for_collection", "collection", "bank_transfer"],
  ["ready_for_collection", "completed", "collection", "bank_transfer"],
  ["awaiting_payment", "cancelled", "delivery", "bank_transfer"],
  ["paid", "cancelled", "delivery", "bank_transfer"],
  ["processing", "cancelled", "delivery", "bank_transfer"],
  ["ready_for_collection", "cancelled", "collection", "bank_transfer"],
];

describe("the order state machine", () => {
  it("lists exactly the legal moves", () => {
    expect(TRANSITIONS.map((t) => `${t.from}>${t.to}`).sort()).toEqual(LEGAL.map(([f, t]) => `${f}>${t}`).sort());
  });

  it.each(LEGAL)("allows %s → %s for an owner", (from, to, fulfilment, payment) => {
    const move = checkTransition(order(from, fulfilment, payment), to, "owner", full);
    expect(move.to).toBe(to);
    expect(allowedTransitions(order(from, fulfilment, payment), "owner").map((a) => a.to)).toContain(to);
  });

  it("refuses every other pair with 409 and a clear message", () => {
    const legal = new Set(LEGAL.map(([f, t]) => `${f}>${t}`));
    let refused = 0;
    for (const from of ORDER_STATUSES) {
      for (const to of ORDER_STATUSES) {
        if (legal.has(`${from}>${to}`)) continue;
        for (const fulfilment of ["delivery", "collection"] as const) {
          for (const payment of ["bank_transfer", "pay_on_collection", "pay_on_account"]) {
            const attempt = () => checkTransition(order(from, fulfilment, payment), to, "owner", full);
            expect(attempt, `${from} → ${to}`).toThrow(HttpError);
            try {
              attempt();
            } catch (error) {
              expect((error as HttpError).statusCode).toBe(409);
            }
          }
        }
        refused++;
      }
    }
    expect(refused).toBe(ORDER_STATUSES.length ** 2 - LEGAL.length);
    expect(() => checkTransition(order("dispatched"), "paid", "owner")).toThrow("Order TC-000123 is dispatched; it cannot move to paid.");
    expect(() => checkTransition(order("paid"), "paid", "owner")).toThrow("Order TC-000123 is already paid.");
    expect(() => checkTransition(order("cancelled"), "processing", "owner")).toThrow("Order TC-000123 is cancelled; it cannot move to processing.");
  });

  it("dispatches only deliveries, makes only collections ready, and starts picking unpaid only for pay on collection", () => {
    expect(() => checkTransition(order("processing", "collection"), "dispatched", "owner", full)).toThrow(/is for collection from the branch; it cannot be dispatched/);
    expect(() => checkTransition(order("processing", "delivery"), "ready_for_collection", "owner", full)).toThrow(/is for delivery; it cannot be made ready for collection/);
    expect(() => checkTransition(order("awaiting_payment", "collection", "bank_transfer"), "processing", "owner")).toThrow(/cannot move to processing until it is paid/);
    expect(allowedTransitions(order("processing", "collection"), "owner").map((a) => a.to)).toEqual(["ready_for_collection", "cancelled"]);
    expect(allowedTransitions(order("processing", "delivery"), "owner").map((a) => a.to)).toEqual(["dispatched", "cancelled"]);
    expect(allowedTransitions(order("awaiting_payment", "collection", "pay_on_collection"), "owner").map((a) => a.to)).toEqual(["paid", "processing", "cancelled"]);
    expect(allowedTransitions(order("awaiting_payment", "delivery", "bank_transfer"), "owner").map((a) => a.to)).toEqual(["paid", "cancelled"]);
    expect(allowedTransitions(order("completed"), "owner")).toEqual([]);
    expect(allowedTransitions(order("cancelled"), "owner")).toEqual([]);
  });

  it("cancels an order on account before dispatch as any other (admin.ts credits its invoice), never after", () => {
    for (const status of ["processing", "ready_for_collection"] as const) {
      const onAccount = order(status, status === "processing" ? "delivery" : "collection", "pay_on_account");
      expect(checkTransition(onAccount, "cancelled", "sales", full).to).toBe("cancelled");
      expect(allowedTransitions(onAccount, "owner").map((a) => a.to)).toContain("cancelled");
      expect(() => checkTransition(onAccount, "cancelled", "accounts", full)).toThrow(new HttpError(403, "Your role does not allow this."));
    }
    expect(() => checkTransition(order("dispatched", "delivery", "pay_on_account"), "cancelled", "owner", full)).toThrow(/is dispatched; it cannot move to cancelled/);
  });

  it("asks for the carrier and tracking number to dispatch, and the reason to cancel (422)", () => {
    const missing = (o: TransitionOrder, to: OrderStatus, input = {}) => {
      try {
        checkTransition(o, to, "owner", input);
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationError);
        return (error as ValidationError).errors;
      }
      throw new Error("not refused");
    };
    expect(missing(order("processing"), "dispatched")).toEqual({ carrier: ["Enter the carrier."], tracking_number: ["Enter the tracking number."] });
    expect(missing(order("processing"), "dispatched", { carrier: "DPD", tracking_number: "  " })).toEqual({ tracking_number: ["Enter the tracking number."] });
    expect(missing(order("paid"), "cancelled", { note: "" })).toEqual({ note: ["Give the reason for cancelling."] });
  });

  it("needs each move's permission (403), and offers each role only what it may do", () => {
    for (const role of STAFF_ROLES) {
      for (const [from, to, fulfilment, payment] of LEGAL) {
        const move = TRANSITIONS.find((t) => t.from === from && t.to === to)!;
        const attempt = () => checkTransition(order(from, fulfilment, payment), to, role, full);
        const offered = allowedTransitions(order(from, fulfilment, payment), role).some((a) => a.to === to);
        if (can(role, move.permission)) {
          expect(attempt, `${role}: ${from} → ${to}`).not.toThrow();
          expect(offered).toBe(true);
        } else {
          expect(attempt, `${role}: ${from} → ${to}`).toThrow("Your role does not allow this.");
          try {
            attempt();
          } catch (error) {
            expect((error as HttpError).statusCode).toBe(403);
          }
          expect(offered).toBe(false);
        }
      }
    }
    // What the issue asks of each role, spelt out.
    const moves = (role: StaffRole, o: TransitionOrder) => allowedTransitions(o, role).map((a) => a.to);
    expect(moves("warehouse", order("processing"))).toEqual(["dispatched"]);
    expect(moves("warehouse", order("awaiting_payment"))).toEqual([]);
    expect(moves("warehouse", order("processing", "collection"))).toEqual(["ready_for_collection"]);
    expect(moves("warehouse", order("ready_for_collection", "collection"))).toEqual(["completed"]);
    expect(moves("accounts", order("awaiting_payment"))).toEqual(["paid"]);
    expect(moves("accounts", order("paid"))).toEqual([]);
    expect(moves("hire", order("awaiting_payment"))).toEqual([]);
    expect(moves("sales", order("processing"))).toEqual(["dispatched", "cancelled"]);
  });

  it("names each move's button, its fields and whether the customer hears", () => {
    const action = (o: TransitionOrder, to: OrderStatus) => allowedTransitions(o, "owner").find((a) => a.to === to);
    expect(action(order("awaiting_payment"), "paid")).toEqual({ to: "paid", label: "Mark as paid", requires: [], emails_customer: true });
    expect(action(order("processing"), "dispatched")).toEqual({ to: "dispatched", label: "Dispatch", requires: ["carrier", "tracking_number"], emails_customer: true });
    expect(action(order("ready_for_collection", "collection"), "completed")).toMatchObject({ label: "Mark as collected", emails_customer: false });
    expect(action(order("processing", "collection"), "ready_for_collection")).toMatchObject({ emails_customer: true });
    expect(action(order("paid"), "cancelled")).toMatchObject({ requires: ["note"], emails_customer: true });
    expect(action(order("paid"), "processing")).toMatchObject({ emails_customer: false });
  });
});

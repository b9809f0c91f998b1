// What checkout takes and answers, shared by the basket's checkout and a quote's acceptance.
import { HttpError } from "../../http-errors.ts";

export interface CheckoutAddress {
  /** The recipient: required for a delivery at checkout (issue 34). */
  name?: string;
  company?: string;
  line_1: string;
  line_2?: string;
  line_3?: string;
  town: string;
  county?: string;
  postcode: string;
}

export interface CheckoutInput {
  email: string;
  phone: string;
  delivery_method: string;
  delivery_address?: CheckoutAddress;
  billing_address?: CheckoutAddress;
  /** Who collects a click & collect order: required for a collection at checkout (issue 34). */
  collector_name?: string;
  /** The last two only for orders taken by staff (orders/counter). */
  payment_method: "bank_transfer" | "pay_on_collection" | "pay_on_account" | "card" | "card_link" | "paid_at_counter";
  notes: string;
  po_reference: string;
  /** The total the customer saw (pounds); a different total now answers 409. */
  expected_total?: number;
  /** Click & collect: the branch collected from (the default one when not given). */
  branch_id?: number;
  /** The buyer's company's site the order is for (trade/accounts/sites.ts); required on account when the company keeps sites. */
  site_id?: number;
}

export interface PlacedOrder {
  order_id: number;
  order_number: string;
  total: number;
  redirect: string;
}

/** A price that moved since the basket was shown: the customer confirms the new totals. */
export class PriceChangedError extends HttpError {
  readonly totals: { subtotal: number; vat: number; delivery: number; total: number };
  constructor(totals: PriceChangedError["totals"]) {
    super(409, "Prices have changed since you last saw your basket. Please check the new total and confirm.");
    this.totals = totals;
  }
}


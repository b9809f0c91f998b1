import type { Db } from "../../db/client.ts";
import type { SiteJson } from "../trade/sites-contract.ts";

/** The order a payment is taken for, as checkout has just written it (pence). */
export interface PaymentRequest {
  userId: number | null;
  orderId: number;
  orderNumber: string;
  subtotal: number;
  vat: number;
  delivery: number;
  total: number;
  poReference: string;
  /** The company's site the order is for (trade/accounts/sites.ts), carried onto its invoice. */
  siteId?: number | null;
}

/**
 * A way of paying that does work at checkout: inside its transaction (pay on
 * account: the credit check and the invoice; it throws an HttpError or a
 * ValidationError to refuse, and the whole order is rolled back), or after it
 * (card: the hosted payment page). Bank transfer and pay on collection take
 * nothing at checkout and need no provider.
 */
export interface PaymentProvider {
  id: string;
  /** The order's status once this provider has accepted it. */
  orderStatus: "awaiting_payment" | "processing";
  /** The option checkout offers this user (with anything it needs to show), or null when it is not for them. */
  offer(db: Db, userId: number | null): Promise<PaymentOffer | null>;
  /** Runs with the transaction handle: on PGlite the outer db would deadlock. */
  take(tx: Db, request: PaymentRequest): Promise<void>;
  /** The line about payment in the customer's email. */
  note(orderNumber: string): string;
  /** The provider sends the order's confirmation itself, once the money has arrived (card). */
  confirmsLater?: boolean;
  /**
   * After the order is committed: opens the payment page and answers where
   * the browser goes. Called again for a retried checkout of the same order,
   * it answers the same page. When it throws, checkout calls `withdraw`.
   */
  begin?(order: PaymentStart): Promise<{ redirect_url: string }>;
  /** Takes back an order whose payment could not be started: no order is left, its stock and basket are as they were. */
  withdraw?(orderId: number): Promise<void>;
}

export interface PaymentStart {
  orderId: number;
  orderNumber: string;
  total: number;
  email: string;
}

/** A payment method as the delivery-options answer lists it; a provider may add what its screen needs. */
export interface PaymentOffer {
  id: string;
  name: string;
  description: string;
  available_credit?: number;
  credit_limit?: number;
  po_required?: boolean;
  /** Pay on account: the company's sites, one of which an order on account names when there are any. */
  sites?: SiteJson[];
}

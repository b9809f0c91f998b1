import type { Db } from "../../db/client.ts";

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
}

/**
 * A way of paying that does work inside the checkout's transaction (pay on
 * account: the credit check and the invoice). It throws an HttpError or a
 * ValidationError to refuse, and the whole order is rolled back. Bank transfer
 * and pay on collection take nothing at checkout and need no provider.
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
}

/** A payment method as the delivery-options answer lists it; a provider may add what its screen needs. */
export interface PaymentOffer {
  id: string;
  name: string;
  description: string;
  available_credit?: number;
  credit_limit?: number;
  po_required?: boolean;
}

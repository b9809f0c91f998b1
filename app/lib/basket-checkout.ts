// What checkout, the thank-you page and the order screens read from the API.
import type { DeliveryOption } from "../../server/modules/delivery/service.ts";
import type { LookupAddress } from "../../server/modules/postcode/service.ts";

/** A way to deliver or collect, priced for this basket and postcode. */
export type { DeliveryOption };

export interface PaymentOption {
  id: "bank_transfer" | "pay_on_collection" | "pay_on_account";
  name: string;
  description: string;
  /** Pay on account only: pounds left to spend (limit − unpaid invoices), the limit, and whether a PO reference is required. */
  available_credit?: number;
  credit_limit?: number;
  po_required?: boolean;
  /** Pay on account only: the company's sites; an order on account names one when there are any. */
  sites?: TradeSiteView[];
}

/** A trade company's site as checkout and the sites page show it. */
export interface TradeSiteView {
  id: number;
  name: string;
  line1: string;
  line2: string;
  town: string;
  county: string;
  postcode: string;
  contact_name: string;
  contact_phone: string;
  po_required: boolean;
  po_prefix: string;
  archived: boolean;
}

/** What a site asks of an order's PO reference on account, in words; null when nothing. */
export function sitePoRule(site: Pick<TradeSiteView, "po_required" | "po_prefix"> | undefined): string | null {
  if (!site) return null;
  if (site.po_prefix) return `Orders for this site need a purchase-order reference starting ${site.po_prefix}.`;
  return site.po_required ? "Orders for this site need a purchase-order reference." : null;
}

/** When the basket could be collected at a branch (`ready_label` null: it cannot supply it). */
export interface CollectionChoice {
  id: number;
  ready_label: string | null;
  by_transfer: boolean;
}

export interface DeliveryOptions {
  delivery: DeliveryOption[];
  payment: PaymentOption[];
  zone: { name: string; served: boolean } | null;
  collect_at?: CollectionChoice[];
}

/** An address's lines, as the postcode lookup answers them and checkout's fields hold them. */
export type Address = LookupAddress;

export const EMPTY_ADDRESS: Address = { line_1: "", line_2: "", line_3: "", town: "", county: "", postcode: "" };

/** A site's address as checkout's delivery address. */
export function siteAddress(site: TradeSiteView): Address {
  return { line_1: site.line1, line_2: site.line2, line_3: "", town: site.town, county: site.county, postcode: site.postcode };
}

export interface PlacedOrder {
  order_id: number;
  order_number: string;
  total: number;
  redirect: string;
}

/** A card order's answer: the order, and the payment page to go to. */
export interface CardOrder {
  order: PlacedOrder;
  payment: { redirect_url: string };
}

export interface ChangedTotals {
  subtotal: number;
  vat: number;
  delivery: number;
  total: number;
}

export interface OrderView {
  id: number;
  number: string;
  status: string;
  status_label: string;
  created_at: string;
  email: string;
  /** Who it is for: the recipient, or who collects it; empty on orders from before names were asked. */
  customer_name: string;
  phone: string;
  delivery_method: string;
  delivery_name: string;
  payment_method: string;
  po_reference: string;
  /** The trade company's site it is for. */
  site?: { id: number; name: string } | null;
  notes: string;
  subtotal: number;
  vat: number;
  delivery: number;
  total: number;
  /** Refunded to the card it was paid with (pounds). */
  refunded: number;
  /** `id`: the order line (a return or a cancel names it); `cancelled_quantity`: units the customer cancelled before dispatch. */
  lines: { id: number; cancelled_quantity?: number; product_id: number; sku: string; name: string; slug: string; quantity: number; unit_price: number; unit_price_ex_vat: number; line_total: number; line_total_ex_vat: number }[];
  addresses: ({ kind: string; name: string; company?: string } & Address)[];
  history: { status: string; label: string; note: string; at: string }[];
}

export const PAYMENT_LABELS: Record<string, string> = { bank_transfer: "Bank transfer", pay_on_collection: "Pay on collection", pay_on_account: "Pay on account", card: "Card" };

/** A key for one checkout page: a retried submission returns the same order. */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

/** `12 March 2026, 14:05` in London. */
export function formatOrderDate(iso: string): string {
  return new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit" }).format(new Date(iso));
}

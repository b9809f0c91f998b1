// Plain data and functions only (no database): the admin screens import this in the browser too.
import { labelledList } from "../../lib/labelled.ts";

const paymentMethods = labelledList({
  bank_transfer: "Bank transfer",
  pay_on_collection: "Pay on collection",
  pay_on_account: "Pay on account",
  card: "Card",
  // Orders taken by staff (orders/counter).
  card_link: "Card payment link",
  paid_at_counter: "Paid at the counter",
});
export const PAYMENT_METHODS = paymentMethods.values;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
/** By any method stored on an order, as a string: undefined for one not in the list. */
export const PAYMENT_LABELS: Record<string, string> = paymentMethods.labels;
/** An order's payment method by name (the stored value itself when not in the list). */
export const paymentLabel = paymentMethods.label;

/**
 * The branch's opening hours for collections. The shop has no opening hours
 * anywhere else yet (no setting, no content page); when it does, read them
 * from there.
 */
export const COLLECTION_HOURS = ["Monday to Friday: 7:00am to 5:00pm", "Saturday: 8:00am to 12:00 noon", "Sunday and bank holidays: closed"] as const;

/** The carriers the desk offers, and where a customer tracks a parcel with each; the shop's own van has no link. */
export const CARRIERS: readonly { name: string; tracking: ((number: string) => string) | null }[] = [
  { name: "Royal Mail", tracking: (n) => `https://www.royalmail.com/track-your-item#/tracking-results/${n}` },
  { name: "Parcelforce", tracking: (n) => `https://www.parcelforce.com/track-trace?trackNumber=${n}` },
  { name: "DPD", tracking: (n) => `https://track.dpd.co.uk/parcels/${n}` },
  { name: "DHL", tracking: (n) => `https://www.dhl.com/gb-en/home/tracking/tracking-parcel.html?submit=1&tracking-id=${n}` },
  { name: "Evri", tracking: (n) => `https://www.evri.com/track/parcel/${n}` },
  { name: "UPS", tracking: (n) => `https://www.ups.com/track?tracknum=${n}` },
  { name: "Own van", tracking: null },
];

/** The tracking link for a carrier the desk knows (any case), or null. */
export function trackingUrl(carrier: string | null | undefined, trackingNumber: string | null | undefined): string | null {
  if (!carrier || !trackingNumber) return null;
  const known = CARRIERS.find((c) => c.name.toLowerCase() === carrier.trim().toLowerCase());
  return known?.tracking ? known.tracking(encodeURIComponent(trackingNumber.trim())) : null;
}

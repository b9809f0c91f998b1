// Plain data and functions only (no database): the admin screens import this in the browser too.

export const PAYMENT_METHODS = ["bank_transfer", "pay_on_collection", "pay_on_account", "card", "card_link", "paid_at_counter"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const PAYMENT_LABELS: Record<string, string> = {
  bank_transfer: "Bank transfer",
  pay_on_collection: "Pay on collection",
  pay_on_account: "Pay on account",
  card: "Card",
  // Orders taken by staff (orders/counter).
  card_link: "Card payment link",
  paid_at_counter: "Paid at the counter",
};

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

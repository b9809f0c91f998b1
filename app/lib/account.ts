/** The account API's shapes, as the browser and the account screens see them. */

export interface AccountUser {
  id: number;
  firstname: string;
  lastname: string;
  name: string;
  email: string;
  phone: string | null;
  is_trade: boolean;
  trade_account_id: number | null;
}

export interface Address {
  id: number;
  firstname: string;
  lastname: string;
  company: string;
  line1: string;
  line2: string;
  town: string;
  county: string;
  postcode: string;
  phone: string;
  is_default_delivery: boolean;
  is_default_billing: boolean;
}

export interface NewsletterSettings {
  subscribed: boolean;
  topics: string[];
}

export const NEWSLETTER_TOPICS = [
  { value: "offers", label: "Offers and discounts" },
  { value: "new-products", label: "New products" },
  { value: "hire", label: "Equipment hire" },
  { value: "trade", label: "Trade news" },
] as const;

/** The address fields a form edits, in the order the form shows them. */
export const ADDRESS_FIELDS = ["firstname", "lastname", "company", "line1", "line2", "town", "county", "postcode", "phone"] as const;

/** One line for lists and confirmations: "1 High Street, Leeds, LS1 4AP". */
export function addressSummary(a: Pick<Address, "line1" | "town" | "postcode">): string {
  return [a.line1, a.town, a.postcode].filter(Boolean).join(", ");
}

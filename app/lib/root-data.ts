import type { AppContext } from "../context.ts";
import type { SessionUser } from "./session.ts";

/** A category in the header's menu: the top two levels of the tree. */
export interface HeaderCategory {
  name: string;
  path: string;
  children: { name: string; path: string }[];
}

/**
 * What the root route's loader gives every page (app/root.tsx). Written out here
 * rather than inferred from the loader, so the header, the footer and the hooks
 * that read it never import root.tsx, which imports them (no import circle).
 */
export interface RootData {
  config: AppContext["config"];
  /** Per-request nonce for the Content-Security-Policy. */
  nonce: string;
  buildId: string;
  /** A shared page (ADR 0043) is the same for everyone with its price view: the browser fills in who is signed in. */
  shared: boolean;
  /** A personal page's frame (ADR 0061) is for a signed-in customer it does not name. */
  signedIn: boolean;
  /** Only what the header and greetings need: the page stays lean. */
  user: SessionUser | null;
  /** Trade members see trade prices, ex VAT unless they chose inc VAT. */
  priceDisplay: AppContext["priceDisplay"];
  categories: HeaderCategory[];
  /** The back office has no storefront header. */
  admin: boolean;
}

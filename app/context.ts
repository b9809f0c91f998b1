import { createContext } from "react-router";
import type { PublicConfig } from "../server/config.ts";
import type { PriceContext, PriceDisplay } from "../server/modules/trade/pricing.ts";
import type { CategoryNode } from "../server/modules/catalog/contract.ts";
import type { Services } from "../server/services.ts";
import type { StaffActor } from "../server/modules/staff/actor.ts";
import type { SessionUser } from "./lib/session.ts";

/**
 * What the Fastify server hands every loader and action: the shop's services
 * (the same ones the JSON API uses), the public configuration and the CSP nonce.
 * Imported as `#app-context` so the server and the SSR build share one token.
 */
export interface AppContext {
  config: PublicConfig;
  services: Services;
  /** Per-request nonce for the Content-Security-Policy. */
  nonce: string;
  /** Identifies the build; the browser compares it to spot a new release. */
  buildId: string;
  requestId: string;
  /** The signed-in user, or null for a guest and on a shared page. */
  user: SessionUser | null;
  /**
   * Rendered once for everyone with this request's price view and kept in the
   * page cache (ADR 0043): nothing personal may be rendered, and `user` is null.
   */
  sharedPage: boolean;
  /**
   * A signed-in customer, named or not: true with `user`, and on a personal
   * page's frame (ADR 0061), rendered for every signed-in customer with this
   * price view, where `user` is null.
   */
  signedIn: boolean;
  /** The member of staff signed in to the back office (`tc_admin`), acting through the screens; null elsewhere (ADR 0029). */
  staff: StaffActor | null;
  /** The client's address: the back office's sign-in limits count by it. */
  clientIp: string;
  /** Whether cookies a screen sets are marked Secure (production). */
  secureCookies: boolean;
  /** The prices this visitor sees (a trade member's discount); pass it to the catalogue and basket services. */
  prices: PriceContext;
  /** How the storefront shows prices: trade members choose ex VAT (default) or inc VAT. */
  priceDisplay: PriceDisplay;
  /**
   * The category tree, read at most once per request: the root loader (the
   * header) and the page's loader share it. Never kept between requests.
   */
  categoryTree: () => Promise<CategoryNode[]>;
  /** A category with its children and ancestors, from that same tree; null when there is none. */
  categoryByPath: (path: string) => Promise<{ category: CategoryNode; ancestors: CategoryNode[] } | null>;
}

// The user a request names is the one the page keeps: one shape for both.
export type { SessionUser } from "./lib/session.ts";

export const appContext = createContext<AppContext>();

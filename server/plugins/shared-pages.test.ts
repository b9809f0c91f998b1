import { describe, expect, it } from "vitest";
import { priceViewOf, RETAIL_VIEW, type TradeMembership } from "../modules/trade/pricing.ts";
import { isPersonalFrame, isSharedPage } from "./shared-pages.ts";

describe("the pages a signed-in customer shares with their price view", () => {
  it("are the catalogue's pages and their client navigations' data", () => {
    for (const url of ["/", "/_.data", "/_root.data", "/category/power-tools/saws", "/category/power-tools.data", "/product/a-drill", "/product/a-drill.data?_routes=routes/product", "/products?page=2", "/search?q=drill", "/hire", "/hire/mini-digger", "/manufacturer", "/manufacturer/7", "/about", "/contact", "/delivery", "/showcase", "/kitchens-and-bathrooms"]) {
      expect(isSharedPage(url), url).toBe(true);
    }
  });

  it("never the personal ones, nor anything not listed", () => {
    for (const url of ["/basket", "/basket.data", "/hire-basket", "/checkout", "/checkout/thank-you", "/compare", "/account", "/account/wishlist", "/account/orders/1", "/trade/dashboard", "/trade/invoices", "/auth/login", "/admin", "/admin/products", "/payments/test/1", "/product", "/producta/b", "/hire-basket.data", "/some-new-page"]) {
      expect(isSharedPage(url), url).toBe(false);
    }
  });
});

describe("the personal pages whose frame signed-in customers share (ADR 0061)", () => {
  it("are the basket, the account, the order history and the trade dashboard, with their navigations' data", () => {
    for (const url of ["/basket", "/basket.data", "/account", "/account.data", "/account/orders/history", "/account/orders/history?page=2&site=3", "/account/orders/history.data?page=2", "/trade/dashboard", "/trade/dashboard.data"]) {
      expect(isPersonalFrame(url), url).toBe(true);
      expect(isSharedPage(url), url).toBe(false);
    }
  });

  it("never another personal page", () => {
    for (const url of ["/account/orders/1", "/account/wishlist", "/account/addresses", "/account/quotes", "/trade/invoices", "/trade/manage", "/checkout", "/hire-basket", "/accounts", "/account/orders/history/x", "/basket/x", "/trade/dashboard?noscript", "/account/orders/history?page=2&noscript"]) {
      expect(isPersonalFrame(url), url).toBe(false);
    }
  });
});

describe("a price view", () => {
  const member = (over: Partial<TradeMembership>): TradeMembership => ({ accountId: 1, role: "buyer", state: "approved", discountBasisPoints: 1000, pricesIncVat: false, ...over });

  it("is the shop's own for visitors, consumers and accounts not approved", () => {
    expect(priceViewOf(null)).toBe(RETAIL_VIEW);
    for (const state of ["pending", "declined", "suspended"] as const) expect(priceViewOf(member({ state }))).toBe(RETAIL_VIEW);
  });

  it("names the discount and VAT view, and nothing of the account or the member", () => {
    expect(priceViewOf(member({ accountId: 1, role: "owner" }))).toBe(priceViewOf(member({ accountId: 2, role: "buyer" })));
    expect(priceViewOf(member({}))).toBe("trade-1000-ex-vat");
    expect(priceViewOf(member({ pricesIncVat: true }))).toBe("trade-1000-inc-vat");
    expect(priceViewOf(member({ discountBasisPoints: 0 }))).toBe("trade-0-ex-vat");
    expect(priceViewOf(member({ discountBasisPoints: 1500 }))).not.toBe(priceViewOf(member({})));
  });
});

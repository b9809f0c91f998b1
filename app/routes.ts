import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";

// Section 2 of the specification: every screen, grouped by its access rule.
export default [
  // The storefront's pages, in its frame (routes/storefront.tsx, ADR 0066): a layout adds no URL.
  layout("routes/storefront.tsx", [
    // Public (anyone)
    index("routes/home.tsx"),
    route("compare", "routes/compare.tsx"),
    route("hire", "routes/hire/index.tsx"),
    route("hire/:slug", "routes/hire/item.tsx"),
    route("about", "routes/content/about.tsx"),
    route("basket", "routes/basket.tsx"),
    route("search", "routes/search.tsx"),
    route("contact", "routes/content/contact.tsx"),
    route("category", "routes/category/index.tsx"),
    // A category's slug spans several path segments: /category/power-tools/cordless-drills
    route("category/*", "routes/category/category.tsx"),
    route("checkout", "routes/checkout/index.tsx"),
    route("checkout/thank-you", "routes/checkout/thank-you.tsx"),
    route("delivery", "routes/content/delivery.tsx"),
    route("product/:slug", "routes/product.tsx"),
    route("products", "routes/products.tsx"),
    route("showcase", "routes/content/showcase.tsx"),
    route("branches", "routes/branches/index.tsx"),
    route("branches/:slug", "routes/branches/branch.tsx"),
    route("manufacturer", "routes/manufacturer/index.tsx"),
    route("manufacturer/:id", "routes/manufacturer/item.tsx"),
    route("hire-basket", "routes/hire-basket.tsx"),
    route("kitchens-and-bathrooms", "routes/content/kitchens-and-bathrooms.tsx"),
    // An order behind the signed link in its emails: a guest returns or cancels items there (issue 31).
    route("orders/:number", "routes/orders/order.tsx"),
    // A showroom appointment, by the token in its email's link (issue 30).
    route("appointments/:token", "routes/appointments/manage.tsx"),

    // Guest-only: a signed-in user is sent to ?redirect or /.
    layout("routes/guest-only.tsx", [
      route("auth/login", "routes/auth/login.tsx", { id: "auth-login" }),
      route("auth/register", "routes/auth/register.tsx"),
      route("auth/recovery", "routes/auth/recovery.tsx"),
      route("account/login", "routes/auth/login.tsx", { id: "account-login" }),
    ]),

    // Signed-in only: guests are sent to /auth/login?redirect={path}.
    layout("routes/signed-in.tsx", [
      route("trade/setup", "routes/trade/setup.tsx"),
      route("account", "routes/account/index.tsx"),
      route("account/manage", "routes/account/manage.tsx"),
      route("account/password", "routes/account/password.tsx"),
      route("account/addresses", "routes/account/addresses.tsx"),
      route("account/newsletter", "routes/account/newsletter.tsx"),
      route("account/wishlist", "routes/account/wishlist.tsx"),
      route("account/hire-requests", "routes/account/hire-requests.tsx"),
      route("account/orders/history", "routes/account/orders-history.tsx"),
      route("account/orders/:orderId", "routes/account/order.tsx"),
      // A customer's quotes, and their company's by their trade role (issue 32).
      route("account/quotes", "routes/account/quotes.tsx"),
      route("account/quotes/:number", "routes/account/quote.tsx"),
      route("trade/dashboard", "routes/trade/dashboard.tsx"),
      // Every signed-in customer's, not only trade members' (issue 32).
      route("trade/quick-order", "routes/trade/quick-order.tsx"),
      route("trade/invoices", "routes/trade/invoices.tsx"),
      route("trade/invoices/pay", "routes/trade/invoices-pay.tsx"),
      route("trade/invoices/view/:id", "routes/trade/invoice.tsx"),
      route("trade/manage", "routes/trade/manage.tsx"),
      // The company's sites (issue 32): every member reads them, owners and admins keep them.
      route("trade/sites", "routes/trade/sites.tsx"),
      route("trade/manage/invite", "routes/trade/manage-invite.tsx"),
      route("trade/manage/user/:id", "routes/trade/manage-user.tsx"),
      route("trade/invitation", "routes/trade/invitation.tsx"),
    ]),

    // Anything else is the 404 page, in the storefront's frame.
    route("*", "routes/not-found.tsx"),
  ]),

  // The built-in test payment page (outside production, without Stripe keys; ADR 0033).
  route("payments/test/:id", "routes/payments/test.tsx"),

  // The back office (ADR 0029): staff only, behind their own sign-in; each
  // screen checks its role's permission again in its loader and action.
  route("admin/login", "routes/admin/login.tsx"),
  route("admin/logout", "routes/admin/logout.tsx"),
  route("admin/setup/:token", "routes/admin/setup.tsx"),
  layout("routes/admin/layout.tsx", [
    route("admin", "routes/admin/index.tsx"),
    route("admin/account", "routes/admin/account.tsx"),
    route("admin/orders", "routes/admin/orders/index.tsx"),
    route("admin/orders/new", "routes/admin/orders/new.tsx"),
    route("admin/orders/drafts", "routes/admin/orders/drafts.tsx"),
    route("admin/orders/:number", "routes/admin/orders/order.tsx"),
    route("admin/returns", "routes/admin/returns/index.tsx"),
    route("admin/returns/:number", "routes/admin/returns/return.tsx"),
    route("admin/promotions", "routes/admin/promotions/index.tsx"),
    route("admin/promotions/new", "routes/admin/promotions/new.tsx"),
    route("admin/promotions/:id", "routes/admin/promotions/promotion.tsx"),
    route("admin/quotes", "routes/admin/quotes/index.tsx"),
    route("admin/quotes/new", "routes/admin/quotes/new.tsx"),
    route("admin/quotes/:number", "routes/admin/quotes/quote.tsx"),
    route("admin/customers", "routes/admin/customers/index.tsx"),
    route("admin/customers/guest", "routes/admin/customers/guest.tsx"),
    route("admin/customers/:id", "routes/admin/customers/customer.tsx"),
    route("admin/products", "routes/admin/products/index.tsx"),
    route("admin/products/new", "routes/admin/products/new.tsx"),
    route("admin/products/import", "routes/admin/products/import.tsx"),
    route("admin/products/:sku", "routes/admin/products/product.tsx"),
    route("admin/products/:sku/photos", "routes/admin/products/photos.tsx"),
    route("admin/products/:sku/variants", "routes/admin/products/variants.tsx"),
    route("admin/variants/:sku/photos", "routes/admin/products/variant-photos.tsx"),
    route("admin/hire", "routes/admin/hire/desk.tsx"),
    route("admin/hire/planner", "routes/admin/hire/planner.tsx"),
    route("admin/hire/bookings/new", "routes/admin/hire/book.tsx"),
    route("admin/hire/requests", "routes/admin/hire/requests.tsx"),
    route("admin/hire/requests/:number", "routes/admin/hire/request.tsx"),
    route("admin/hire/items", "routes/admin/hire/index.tsx"),
    route("admin/hire/items/new", "routes/admin/hire/new.tsx"),
    route("admin/hire/items/:slug", "routes/admin/hire/item.tsx"),
    route("admin/hire/items/:slug/photos", "routes/admin/hire/photos.tsx"),
    route("admin/trade", "routes/admin/trade/index.tsx"),
    route("admin/trade/accounts/:id", "routes/admin/trade/account.tsx"),
    route("admin/trade/aged-debt", "routes/admin/trade/aged-debt.tsx"),
    route("admin/trade/accounts/:id/statement", "routes/admin/trade/statement.tsx"),
    route("admin/stock", "routes/admin/stock.tsx"),
    route("admin/stock/transfers", "routes/admin/stock-transfers.tsx"),
    route("admin/stock/transfers/:id", "routes/admin/stock-transfer.tsx"),
    route("admin/branches", "routes/admin/branches/index.tsx"),
    route("admin/branches/new", "routes/admin/branches/new.tsx"),
    route("admin/branches/:slug", "routes/admin/branches/branch.tsx"),
    route("admin/appointments", "routes/admin/appointments.tsx"),
    route("admin/categories", "routes/admin/categories.tsx"),
    route("admin/brands", "routes/admin/brands.tsx"),
    route("admin/redirects", "routes/admin/redirects.tsx"),
    route("admin/audit", "routes/admin/audit.tsx"),
    route("admin/backups", "routes/admin/backups.tsx"),
    route("admin/staff", "routes/admin/staff/index.tsx"),
    route("admin/staff/tokens", "routes/admin/staff/tokens.tsx"),
  ]),

  // An unknown back-office path is the 404 page in the back office's plain frame.
  route("admin/*", "routes/not-found.tsx", { id: "admin-not-found" }),
] satisfies RouteConfig;

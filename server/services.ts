import type { Config } from "./config.ts";
import { createAdminProductService } from "./modules/catalog/products/admin.ts";
import { createAdminVariantService } from "./modules/catalog/variants/admin-variants.ts";
import { createRedirectMatcher, createRedirectService } from "./modules/redirects/service.ts";
import { createAdminTreeService } from "./modules/catalog/categories/admin-tree.ts";
import { createTransferService } from "./modules/stock/transfers.ts";
import { createBranchAdmin } from "./modules/branches/admin.ts";
import { createAppointmentAdmin } from "./modules/appointments/admin.ts";
import { createAppointmentService } from "./modules/appointments/service.ts";
import { createStockService } from "./modules/stock/service.ts";
import type { Db } from "./db/client.ts";
import { createAdminCustomerService } from "./modules/account/admin.ts";
import { createAccountService } from "./modules/account/service.ts";
import { createAuthService } from "./modules/auth/service.ts";
import { createBasketService } from "./modules/basket/service.ts";
import { createProductService } from "./modules/catalog/products/products.ts";
import { createSearchService } from "./modules/catalog/search/search.ts";
import { createCatalogService } from "./modules/catalog/service.ts";
import { createCheckoutLinks, createCheckoutService } from "./modules/checkout/service.ts";
import type { PaymentGateway } from "./modules/payments/gateway.ts";
import { createPaymentService } from "./modules/payments/service.ts";
import { stripeGatewayFromConfig, usesTestPayments } from "./modules/payments/setup.ts";
import type { TestProcessor } from "./modules/payments/test-processor.ts";
import type { JobFailures } from "./modules/dashboard/service.ts";
import { createContentService } from "./modules/content/service.ts";
import { createDeliveryService } from "./modules/delivery/service.ts";
import { createDashboardService } from "./modules/dashboard/service.ts";
import { createAdminOrderService } from "./modules/orders/admin.ts";
import { createReorderService } from "./modules/orders/reorder.ts";
import { createBasketCodes } from "./modules/promotions/basket-codes.ts";
import { createPromotionAdmin } from "./modules/promotions/admin.ts";
import { createQuoteService } from "./modules/quotes/service.ts";
import { createQuoteAcceptance } from "./modules/quotes/accept.ts";
import { createCounterOrders } from "./modules/orders/counter/service.ts";
import { createCounterLookup } from "./modules/orders/counter/lookup.ts";
import { createOrderDrafts } from "./modules/orders/counter/drafts.ts";
import { createQuoteDesk } from "./modules/quotes/desk.ts";
import { createBackupDesk } from "./modules/backups/desk.ts";
import { lastBackupAt } from "./modules/backups/files.ts";
import { sweepQuotes } from "./modules/quotes/jobs.ts";
import { createOrderService } from "./modules/orders/service.ts";
import { createPostcodeProvider } from "./modules/postcode/service.ts";
import { createBranchService } from "./modules/branches/service.ts";
import { createHireBasketService } from "./modules/hire/basket.ts";
import { createHireRequestService } from "./modules/hire/requests.ts";
import { createHireService } from "./modules/hire/service.ts";
import { createDepotService } from "./modules/hire/depots/service.ts";
import { createUnitTransfers } from "./modules/hire/depots/transfers.ts";
import { createAdminHireService } from "./modules/hire/admin.ts";
import { createHireOperations } from "./modules/hire/desk/service.ts";
import { createHireDesk } from "./modules/hire/desk-overview.ts";
import { createHirePlanner } from "./modules/hire/planner.ts";
import { createMailService } from "./modules/mail/service.ts";
import { sweepUncollected } from "./modules/orders/uncollected.ts";
import { createOrderLinks, createOrderPayLinks } from "./modules/orders/links.ts";
import { createReturnsService } from "./modules/returns/service.ts";
import { createReturnsDesk } from "./modules/returns/desk.ts";
import { createReturnPhotos } from "./modules/returns/photos/service.ts";
import { createOrderCancelling } from "./modules/returns/cancel.ts";
import { type MailLog, createMailTransport } from "./modules/mail/transport.ts";
import { payOnAccount } from "./modules/trade/credit/credit.ts";
import { createTradeService } from "./modules/trade/service.ts";
import { createTradeDashboardService } from "./modules/trade/dashboard.ts";
import { createTradeUsersService } from "./modules/trade/accounts/users.ts";
import { createTradeSitesService } from "./modules/trade/accounts/sites.ts";
import { createTradeInvoicesService, shopDetails } from "./modules/trade/invoices/invoices.ts";
import { bankTransfer, createTradePaymentsService } from "./modules/trade/credit/remittances.ts";
import { createTradeStaffService } from "./modules/trade/credit/receipts.ts";
import { createTradeDesk } from "./modules/trade/desk/desk.ts";
import { createWishlistService } from "./modules/wishlist/service.ts";
import { createPageVersion } from "./modules/system/page-version.ts";
import { createTradeStatementsService } from "./modules/trade/invoices/statements.ts";
import { createTradeReminders } from "./modules/trade/invoices/reminders.ts";
import { createOrderDocuments } from "./modules/orders/admin-documents.ts";
import { createAuditService } from "./modules/audit/service.ts";
import { createStaffService } from "./modules/staff/service.ts";
import { createStaffSignIn } from "./modules/staff/sign-in.ts";
import { createFilterPresets } from "./modules/staff/presets.ts";
import { createAdminPhotoService } from "./modules/catalog/photos/admin-photos.ts";
import { fileStoreFromConfig } from "./modules/media/setup.ts";
import { type LimiterStore, memoryLimiterStore } from "./plugins/rate-limit.ts";

/** One service layer, two doors: the JSON API and the storefront's loaders both call these. */
/** `limits`: where the sign-in limits count (the app passes Redis when REDIS_URL is set); this process's memory otherwise. */
/** `gateway`: card payments' gateway; by default Stripe when its keys are set, none otherwise (the app passes the built-in test page's). */
export function createServices(db: Db, config: Config, log: MailLog, limits: LimiterStore = memoryLimiterStore(), extras: { gateway?: PaymentGateway | null; testProcessor?: TestProcessor | null; jobs?: JobFailures } = {}) {
  const mail = createMailService(db, { transport: createMailTransport(config, log), from: config.mailFrom, log });
  const products = createProductService(db);
  const redirectMatcher = createRedirectMatcher(db);
  const hire = createHireService(db);
  // Hire depots (issue 30): where units are based, and delivery priced by distance bands from them.
  const hireDepots = createDepotService(db);
  const delivery = createDeliveryService(db);
  const basket = createBasketService(db);
  // Two-factor sign-in is required of every member of staff in production only, so the demo stays easy to try.
  const staff = createStaffService(db, { appName: config.appName, publicUrl: config.publicUrl, requireTotp: config.isProduction });
  // The order's own page behind a signed link: in its emails, so a guest can return or cancel items.
  const orderLinks = createOrderLinks(config.cookieSecret);
  const shop = { appName: config.appName, publicUrl: config.publicUrl, shopEmail: config.shopEmail, orderLink: (number: string) => `${config.publicUrl}${orderLinks.orderLink(number)}` };
  const orders = createOrderService(db);
  // Product photos' files (ADR 0034): DATA_DIR/media, or the S3 bucket.
  const media = fileStoreFromConfig(config);
  const checkoutLinks = createCheckoutLinks(config.cookieSecret);
  const payments = createPaymentService(db, {
    gateway: extras.gateway === undefined ? stripeGatewayFromConfig(config) : extras.gateway,
    mail,
    shop,
    basket,
    thankYouLink: checkoutLinks.thankYouLink,
    log,
  });
  const hireCardPayments = payments.gateway !== null || (extras.gateway === undefined && usesTestPayments(config));
  const hireRequests = createHireRequestService(db, { mail, ...shop, cardPayments: hireCardPayments, depots: hireDepots });
  const postcodes = createPostcodeProvider(db, config);
  const adminOrders = createAdminOrderService(db, { mail, ...shop, branchAddress: config.shopAddress, shop: shopDetails(config) });
  // Returns (issue 31): what the shop's returns emails and rules need.
  // How an order is written, by checkout and by a quote's acceptance: the same delivery, payments and stock rules.
  const orderWriting = { delivery, mail, links: checkoutLinks, ...shop, payments: [payOnAccount, payments.provider], fulfilment: config.fulfilment };
  // The card payment link emailed for an order taken by staff (issue 34).
  const orderPayLinks = createOrderPayLinks(config.cookieSecret);
  const returnsMail = { mail, ...shop, returnsAddress: config.returnsAddress, collectionCharge: config.returnsCollectionCharge };
  return {
    catalog: createCatalogService(db),
    products,
    search: createSearchService(db, products),
    wishlist: createWishlistService(db, products),
    mail,
    auth: createAuthService(db, { mail, appName: config.appName, publicUrl: config.publicUrl }),
    account: createAccountService(db),
    basket,
    delivery,
    postcodes,
    branches: createBranchService(db, { postcodes }),
    branchAdmin: createBranchAdmin(db, { postcodes }),
    // Showroom design consultations (issue 30): free slots, bookings with a calendar invite, and the day's list for staff.
    appointments: createAppointmentService(db, { mail, ...shop }),
    adminAppointments: createAppointmentAdmin(db, { mail, ...shop }),
    checkout: createCheckoutService(db, orderWriting),
    // Quotes (issue 32): the customer's side, acceptance into an order through checkout's guards, the desk, and the daily reminders and expiry.
    quotes: createQuoteService(db, { mail, ...shop, shop: shopDetails(config) }),
    quoteAcceptance: createQuoteAcceptance(db, orderWriting),
    quoteDesk: createQuoteDesk(db, { mail, ...shop, shop: shopDetails(config) }),
    quoteSweep: { run: (today: string) => sweepQuotes(db, { mail, ...shop }, today) },
    // Card payments (ADR 0033): the hosted page, its webhook, and refunds.
    payments,
    // The built-in test payment page's processor (outside production without Stripe keys), or null.
    testPayments: extras.testProcessor ?? null,
    orders,
    reorder: createReorderService({ orders, basket }),
    // Discount codes in baskets (issue 32).
    basketCodes: createBasketCodes(db, basket),
    adminPromotions: createPromotionAdmin(db),
    // The orders desk (back office): staff actions, each authorised and audited.
    adminOrders,
    // Orders taken by staff for phone and walk-in customers (issue 34): through checkout's order writing, with its pickers and drafts.
    counterOrders: createCounterOrders(db, { ...orderWriting, payLink: orderPayLinks.payLink, cardPayments: payments.gateway !== null }),
    counterLookup: createCounterLookup(db),
    orderDrafts: createOrderDrafts(db),
    orderPayLinks,
    // An order's own page for whoever holds the link in its emails (guests returning or cancelling items).
    orderLinks,
    // Returns and the right to cancel (issue 31): the customer's side, the returns desk, and cancelling before dispatch.
    returns: createReturnsService(db, { ...returnsMail, returnsDays: config.returnsDays }),
    returnsDesk: createReturnsDesk(db, { ...returnsMail, shop: shopDetails(config), payments }),
    // The photos a customer attaches to a return, through the same image pipeline and store as the catalogue's, never served publicly.
    returnPhotos: createReturnPhotos(db, { store: media, log }),
    orderCancelling: createOrderCancelling(db, { orders: adminOrders, payments, systemActor: staff.systemActor, mail, ...shop, shop: shopDetails(config) }),
    uncollected: { sweep: (now?: Date) => sweepUncollected(db, { orders: adminOrders, refundCard: (actor, number, reason) => payments.refundOrder(actor, number, { reason }), systemActor: staff.systemActor, mail, ...shop }, now) },
    // The back office's dashboard: figures across orders, hire, trade and the catalogue, each block by permission.
    dashboard: createDashboardService(db, { jobs: extras.jobs, lastBackupAt: () => lastBackupAt(config) }),
    // The customers desk: search, a customer's page, reset links, block and unblock; each authorised and audited.
    adminCustomers: createAdminCustomerService(db, { mail, appName: config.appName, publicUrl: config.publicUrl }),
    // The catalogue desk: products, their fields, bulk changes; and the stock desk over the stock ledger.
    adminProducts: createAdminProductService(db),
    adminVariants: createAdminVariantService(db),
    redirectMatcher,
    redirects: createRedirectService(db, redirectMatcher),
    adminTree: createAdminTreeService(db),
    stock: createStockService(db),
    transfers: createTransferService(db),
    orderDocuments: createOrderDocuments(db, { shop: { name: config.appName, address: config.shopAddress, email: config.shopEmail } }),
    hire,
    hireDepots,
    // A unit's move between depots (issue 30): its depot changes, with a history row and the audit log.
    hireUnitTransfers: createUnitTransfers(db, hireDepots),
    hireBasket: createHireBasketService(db, hire, hireDepots),
    // The hire catalogue desk: hire items, rate cards and units; each authorised and audited.
    adminHire: createAdminHireService(db),
    // The hire desk's reading (issue 21): the planner over hire_allocations, the day's overview and the requests list.
    hirePlanner: createHirePlanner(db),
    hireDesk: createHireDesk(db),
    // A hire confirmation's payment link is the app's: offered whenever the app takes cards, also from the
    // command line (`npm run shop -- hire:confirm`), which starts no built-in test page of its own.
    hireRequests,
    // The hire desk's operations (issue 21): approve, hand over, off-hire, return, charge, settle; each authorised and audited.
    hireOperations: createHireOperations(db, { mail, ...shop, shop: shopDetails(config), requests: hireRequests, cardPayments: hireCardPayments, refundHire: payments.refundHire }),
    trade: createTradeService(db, { mail, ...shop }),
    tradeUsers: createTradeUsersService(db, { mail, appName: config.appName, publicUrl: config.publicUrl }),
    tradeSites: createTradeSitesService(db),
    tradeInvoices: createTradeInvoicesService(db, { shop: shopDetails(config) }),
    tradeDashboard: createTradeDashboardService(db),
    // Card beside bank transfer only when there is a gateway.
    tradePayments: createTradePaymentsService(db, { providers: [bankTransfer(config.shopBank, config.shopEmail), ...(payments.invoiceProvider ? [payments.invoiceProvider] : [])] }),
    tradeStaff: createTradeStaffService(db, { mail, appName: config.appName, publicUrl: config.publicUrl }),
    // The trade desk (issue 21): applications, accounts, payments, credit notes, holds; each authorised and audited.
    tradeDesk: createTradeDesk(db, { mail, ...shop, shop: shopDetails(config), trade: createTradeService(db, { mail, ...shop }), audit: createAuditService(db) }),
    content: createContentService(db, { mail, appName: config.appName, publicUrl: config.publicUrl, shopEmail: config.shopEmail }),
    staff,
    staffSignIn: createStaffSignIn(staff, limits, { secret: config.cookieSecret, mail: { service: mail, db, appName: config.appName, publicUrl: config.publicUrl } }),
    filterPresets: createFilterPresets(db),
    audit: createAuditService(db),
    backups: createBackupDesk(db, config),
    media,
    // Monthly statements (PDF, email) and the aged-debt report of the trade desk (issue 21).
    tradeStatements: createTradeStatementsService(db, { mail, appName: config.appName, publicUrl: config.publicUrl, shop: shopDetails(config) }),
    // Payment reminders on the due date, 7 and 14 days after, then the automatic hold (a daily job).
    tradeReminders: createTradeReminders(db, { mail, appName: config.appName, publicUrl: config.publicUrl }),
    // Photos of products and hire items: upload, order, alt text, delete; each authorised and audited.
    adminPhotos: createAdminPhotoService(db, { store: media, log }),
    // The one invalidation point of the visitor page cache: bumped by the database in every write a page shows.
    pageVersion: createPageVersion(db),
  };
}

export type Services = ReturnType<typeof createServices>;

import { adminBranchRoutes } from "./modules/branches/admin-routes.ts";
import { branchRoutes } from "./modules/branches/routes.ts";
import { adminAppointmentRoutes } from "./modules/appointments/admin-routes.ts";
import { adminPromotionRoutes } from "./modules/promotions/admin-routes.ts";
import { adminQuoteRoutes } from "./modules/quotes/admin-routes.ts";
import { quoteRoutes } from "./modules/quotes/routes.ts";
import { appointmentRoutes } from "./modules/appointments/routes.ts";
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import fastifyCookie from "@fastify/cookie";
import fastifySwagger from "@fastify/swagger";
import { fastifyReactRouter } from "@mcansh/react-router-fastify";
import Fastify, { type FastifyInstance } from "fastify";
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { RouterContextProvider, type ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { appContext } from "#app-context";
import { type Config, publicConfig } from "./config.ts";
import type { Database } from "./db/client.ts";
import { accountRoutes } from "./modules/account/routes.ts";
import { authRoutes } from "./modules/auth/routes.ts";
import { basketRoutes } from "./modules/basket/routes.ts";
import { checkoutRoutes, orderRoutes } from "./modules/checkout/routes.ts";
import { findCategory } from "./modules/catalog/categories/category-tree.ts";
import type { CategoryNode } from "./modules/catalog/contract.ts";
import { catalogRoutes, imageRoutes } from "./modules/catalog/routes.ts";
import { contentRoutes } from "./modules/content/routes.ts";
import { hireBasketRoutes, hireRequestRoutes } from "./modules/hire/basket-routes.ts";
import { hireRoutes } from "./modules/hire/routes.ts";
import { tradeRoutes } from "./modules/trade/routes.ts";
import { tradeUsersRoutes } from "./modules/trade/accounts/users-routes.ts";
import { tradeSitesRoutes } from "./modules/trade/accounts/sites-routes.ts";
import { tradeMemberStatementRoutes, tradeStatementRoutes } from "./modules/trade/invoices/statement-routes.ts";
import { tradeDeskRoutes } from "./modules/trade/desk/routes.ts";
import { tradeInvoicesRoutes } from "./modules/trade/invoices/invoices-routes.ts";
import { systemRoutes } from "./modules/system/routes.ts";
import { wishlistRoutes } from "./modules/wishlist/routes.ts";
import { type RedisClient, connectRedis } from "./lib/redis.ts";
import { registerAuth } from "./plugins/auth.ts";
import { registerStaffAuth } from "./plugins/staff-auth.ts";
import { staffRoutes } from "./modules/staff/routes.ts";
import { auditRoutes } from "./modules/audit/routes.ts";
import { adminOrderRoutes } from "./modules/orders/admin-routes.ts";
import { counterOrderRoutes } from "./modules/orders/counter/routes.ts";
import { returnRoutes } from "./modules/returns/routes.ts";
import { adminReturnRoutes } from "./modules/returns/admin-routes.ts";
import { dashboardRoutes } from "./modules/dashboard/routes.ts";
import { adminCustomerRoutes } from "./modules/account/admin-routes.ts";
import { adminPhotoRoutes } from "./modules/catalog/photos/admin-photos-routes.ts";
import { mediaRoutes } from "./modules/media/routes.ts";
import { actorOf } from "./modules/staff/sessions.ts";
import { registerCompression } from "./plugins/compression.ts";
import { withOutageResponses } from "./lib/database-outage.ts";
import { registerErrorHandler } from "./plugins/errors.ts";
import { registerNulGuard } from "./plugins/nul-characters.ts";
import { loadRedirectRules, registerRedirects } from "./plugins/redirects.ts";
import { redirectRoutes } from "./modules/redirects/routes.ts";
import { seedRedirectRules } from "./modules/redirects/service.ts";

import { registerPageCache } from "./plugins/page-cache.ts";
import { isPersonalFrame, signedInView } from "./plugins/shared-pages.ts";
import { type LimiterStore, memoryLimiterStore, redisLimiterStore } from "./plugins/rate-limit.ts";
import { registerSecurityHeaders } from "./plugins/security-headers.ts";
import { loadStaticFiles, registerStaticFiles } from "./plugins/static-files.ts";
import { createServices } from "./services.ts";
import { type PaymentGateway, WebhookSignatureError } from "./modules/payments/gateway.ts";
import { paymentRoutes } from "./modules/payments/routes.ts";
import { adminProductRoutes } from "./modules/catalog/products/admin-routes.ts";
import { stockRoutes } from "./modules/stock/routes.ts";
import { adminTreeRoutes } from "./modules/catalog/categories/admin-tree-routes.ts";
import { adminHireRoutes } from "./modules/hire/admin-routes.ts";
import { hireAgreementRoutes, hireOperationRoutes } from "./modules/hire/desk/routes.ts";
import { hireDeskRoutes } from "./modules/hire/desk-routes.ts";
import { hireDepotAdminRoutes } from "./modules/hire/depots/routes.ts";
import { startTestPayments, stripeGatewayFromConfig, usesTestPayments } from "./modules/payments/setup.ts";
import type { TestEvent } from "./modules/payments/test-processor.ts";
import { priceDisplayFor } from "./modules/trade/pricing.ts";
import { catalogueCsvRoutes } from "./modules/catalog/csv/routes.ts";
import { createCatalogueCsv } from "./modules/catalog/csv/jobs.ts";
import { createJobRunner } from "./modules/jobs/setup.ts";
import { lastBackupAt } from "./modules/backups/files.ts";
import { createNightlyBackup } from "./modules/backups/nightly.ts";
import { backupRoutes } from "./modules/backups/routes.ts";
import { poolOf } from "./modules/jobs/pg-boss.ts";
import { createShopMetrics } from "./modules/metrics/registry.ts";
import { traceLogMixin } from "./tracing.ts";
import { metricsRoutes, registerRequestMetrics } from "./modules/metrics/routes.ts";
import { SCHEDULED_JOBS, scheduleJobs } from "./modules/jobs/schedule.ts";

/** How often a process looks for route rules another process changed. */
const REDIRECTS_WATCH_MS = 3_000;

export const projectRoot = fileURLToPath(new URL("..", import.meta.url));

export interface BuildAppOptions {
  config: Config;
  database: Database;
  /** `build`: the production build in build/; `vite`: hot reload; `none`: API only (tests). */
  storefront: { mode: "build" } | { mode: "vite"; vite: ViteDevServer } | { mode: "none" };
  redirectsFile?: string;
  /** Passed to pino; tests pass false. */
  logger?: boolean;
  /** The clock of the rate limits; tests move it. */
  now?: () => number;
  /** Prefix of the rate limits' Redis keys when REDIS_URL is set; tests give each run its own. */
  rateLimitPrefix?: string;
  /** Bounds of the visitor page cache (ADR 0025); false turns it off. On by default with the production build. */
  pageCache?: { maxEntries?: number; maxBytes?: number; ttlMs?: number } | false;
  /** Card payments' gateway: tests pass the real Stripe SDK pointed at their fake; by default Stripe with keys, else the built-in test page outside production. */
  paymentGateway?: PaymentGateway | null;
  /** Run the scheduled jobs in this process (ADR 0038). Default: on, except with NODE_ENV=test, so tests that build the app start no pollers. */
  jobs?: boolean;
}

/** The build id is the hash of the server bundle: it changes exactly when the code does. */
export function readBuildId(root = projectRoot): string {
  const bundle = path.join(root, "build/server/index.js");
  if (!existsSync(bundle)) return "dev";
  return createHash("sha256").update(readFileSync(bundle)).digest("hex").slice(0, 12);
}

/**
 * Rate limits in Redis when REDIS_URL is set, shared by every process; else in
 * this process's memory (ADR 0026). With Redis, its client too: /readyz asks it.
 */
async function openLimiterStore(app: FastifyInstance, options: BuildAppOptions): Promise<{ limits: LimiterStore; redis: RedisClient | null }> {
  const { config } = options;
  if (!config.redisUrl) return { limits: memoryLimiterStore({ now: options.now }), redis: null };
  const client = await connectRedis(config.redisUrl, app.log);
  app.addHook("onClose", async () => {
    await client.close();
  });
  app.log.info("rate limits are shared through Redis");
  return { limits: redisLimiterStore(client, { prefix: options.rateLimitPrefix, secret: config.cookieSecret, now: options.now, log: app.log }), redis: client };
}

/** The catalogue's reads whose answers depend only on the address for a visitor (no trade prices, no cookies read). */
const CACHED_API_ROUTES = new Set(["/api/categories", "/api/categories/*", "/api/products", "/api/products/:slug", "/api/products/:slug/availability", "/api/manufacturers", "/api/manufacturers/:id", "/api/search", "/api/search/suggest"]);

function pageCacheLimits(given: BuildAppOptions["pageCache"]) {
  const limits = given === false ? undefined : given;
  return { maxEntries: limits?.maxEntries ?? 2_000, maxBytes: limits?.maxBytes ?? 64 * 1024 * 1024, ttlMs: limits?.ttlMs ?? 60_000 };
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    // With tracing on (server/tracing.ts), each line logged within a request names its trace.
    logger: options.logger === false ? false : { level: config.logLevel, mixin: traceLogMixin() },
    // Trust an incoming request id only in the shape we make ourselves.
    genReqId: (req) => {
      const incoming = req.headers["x-request-id"];
      return typeof incoming === "string" && /^[A-Za-z0-9-]{8,64}$/.test(incoming) ? incoming : randomUUID();
    },
    requestIdHeader: false,
    bodyLimit: 1024 * 1024,
    // Whose X-Forwarded-* to believe: in production by default a proxy on loopback or a private network (TRUST_PROXY, server/config.ts).
    trustProxy: config.trustProxy,
    routerOptions: { maxParamLength: 500 },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Prometheus metrics (ADR 0056): this app's own registry; the request hook first, so it sees every route.
  const metrics = createShopMetrics({ lastBackupAt: () => lastBackupAt(config) });
  registerRequestMetrics(app, metrics);
  // Draining on shutdown: an answer still in flight closes its connection, or a
  // keep-alive client (a load balancer, a browser) would hold the server open
  // for the keep-alive timeout and the shutdown would end forced.
  let draining = false;
  app.addHook("preClose", async () => {
    draining = true;
  });
  app.addHook("onSend", async (request, reply) => {
    reply.header("x-request-id", request.id);
    if (draining) reply.header("connection", "close");
  });

  const opened = await openLimiterStore(app, options);
  const { redis } = opened;
  const limits = metrics.countedLimits(opened.limits);
  // Without Stripe keys outside production, cards are taken on the built-in test page (ADR 0033):
  // its events reach the same webhook handler as Stripe's.
  let deliver: ((event: TestEvent) => Promise<void>) | null = null;
  const testPayments = options.paymentGateway === undefined && usesTestPayments(config) ? await startTestPayments(config, (event) => deliver!(event)) : null;
  // Background work (ADR 0038): pg-boss on PostgreSQL, the in-process runner on PGlite; the dashboard reads its failures.
  const jobs = metrics.countedJobs(createJobRunner(database, app.log));
  const services = createServices(database.db, config, app.log, limits, {
    gateway: options.paymentGateway !== undefined ? options.paymentGateway : (testPayments?.gateway ?? stripeGatewayFromConfig(config)),
    testProcessor: testPayments?.processor ?? null,
    jobs,
  });
  metrics.countedCheckout(services.checkout);
  metrics.countedWebhook(services.payments, (error) => error instanceof WebhookSignatureError);
  metrics.watch({ db: database.db, kind: database.kind, pool: database.kind === "postgres" ? poolOf(database.db) : null, jobs });
  deliver = async (event) => void (await services.payments.webhook(Buffer.from(event.payload), event.signature));
  if (testPayments) app.addHook("onClose", async () => testPayments.processor.close());
  const buildId = options.storefront.mode === "vite" ? "dev" : readBuildId();

  registerSecurityHeaders(app, {
    isProduction: config.isProduction,
    isDevServer: options.storefront.mode === "vite",
    connectOrigins: config.apiBaseUrl ? [new URL(config.apiBaseUrl).origin] : [],
  });
  registerErrorHandler(app, config.appName);
  registerNulGuard(app);
  await registerCompression(app);
  // Route rules from the database, the file seeding any path it has no rule for; other processes' edits arrive within seconds.
  await seedRedirectRules(database.db, loadRedirectRules(options.redirectsFile ?? path.join(projectRoot, "config/redirects.json")));
  await services.redirectMatcher.reload();
  services.redirectMatcher.watch(REDIRECTS_WATCH_MS);
  app.addHook("onClose", async () => services.redirectMatcher.close());
  registerRedirects(app, services.redirectMatcher);
  // The built storefront's files from memory (ADR 0042), answered before the session hooks run; Vite serves its own in development.
  if (options.storefront.mode === "build") registerStaticFiles(app, loadStaticFiles(path.join(projectRoot, "build/client")));
  await app.register(fastifyCookie, { secret: config.cookieSecret });
  const csrf = registerAuth(app, { db: database.db, secureCookies: config.isProduction, secret: config.cookieSecret, publicOrigin: new URL(config.publicUrl).origin });
  registerStaffAuth(app, { db: database.db, secureCookies: config.isProduction, publicOrigin: new URL(config.publicUrl).origin });

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: `${config.appName} API`, version: "1.0.0", description: "The shop's JSON API." },
      servers: [],
    },
    transform: jsonSchemaTransform,
  });

  await app.register(systemRoutes, { database, redis, buildId, appName: config.appName });
  await app.register(metricsRoutes, { metrics, token: config.metricsToken });
  // Visitors' catalogue reads are the same for every visitor, as their pages
  // are: kept under the same page version (ADR 0025), in a store of their own.
  if (options.storefront.mode !== "vite" && options.pageCache !== false) {
    registerPageCache(app, {
      ...pageCacheLimits(options.pageCache),
      buildId,
      versions: services.pageVersion,
      now: options.now,
      isCached: (request) => CACHED_API_ROUTES.has(request.routeOptions.url ?? ""),
    });
  }
  await app.register(catalogRoutes, { services, prefix: "/api" });
  await app.register(imageRoutes);
  await app.register(mediaRoutes, { store: services.media });
  await app.register(contentRoutes, { content: services.content, limits });
  await app.register(wishlistRoutes, { wishlist: services.wishlist, prefix: "/api" });
  await app.register(basketRoutes, { basket: services.basket, reorder: services.reorder, codes: services.basketCodes, enabled: config.basketEnabled, secureCookies: config.isProduction, prefix: "/api" });
  await app.register(checkoutRoutes, {
    checkout: services.checkout,
    basket: services.basket,
    delivery: services.delivery,
    postcodes: services.postcodes,
    orders: services.orders,
    payments: services.payments,
    basketEnabled: config.basketEnabled,
    prefix: "/api",
  });
  await app.register(quoteRoutes, { quotes: services.quotes, acceptance: services.quoteAcceptance, prefix: "/api" });
  await app.register(orderRoutes, { orders: services.orders, returns: services.returns, prefix: "/api" });
  await app.register(returnRoutes, { returns: services.returns, photos: services.returnPhotos, cancelling: services.orderCancelling, orders: services.orders, links: services.orderLinks, prefix: "/api" });
  await app.register(hireRoutes, { hire: services.hire, depots: services.hireDepots, prefix: "/api" });
  await app.register(hireBasketRoutes, {
    basket: services.hireBasket,
    enabled: config.hireBasketEnabled,
    secureCookies: config.isProduction,
    prefix: "/api",
  });
  await app.register(hireRequestRoutes, { requests: services.hireRequests, depots: services.hireDepots, enabled: config.hireBasketEnabled, prefix: "/api" });
  await app.register(authRoutes, {
    auth: services.auth,
    secureCookies: config.isProduction,
    csrf,
    limits,
    // A guest's baskets follow them into their account, and so do the orders
    // this browser placed with the account's email (ADR 0017).
    onSignedIn: [
      async (userId, guestHash) => {
        if (!guestHash) return;
        await services.basket.merge(guestHash, userId);
        await services.hireBasket.merge(guestHash, userId);
        const claimed = await services.orders.claimGuestOrders(userId, guestHash);
        if (claimed.length) app.log.info({ userId, orders: claimed.map((o) => o.number) }, "guest orders claimed");
      },
    ],
  });
  await app.register(accountRoutes, { account: services.account, auth: services.auth, prefix: "/api" });
  await app.register(tradeRoutes, { trade: services.trade, dashboard: services.tradeDashboard, prefix: "/api" });
  await app.register(tradeUsersRoutes, { users: services.tradeUsers, prefix: "/api" });
  await app.register(tradeSitesRoutes, { sites: services.tradeSites, prefix: "/api" });
  await app.register(tradeInvoicesRoutes, { invoices: services.tradeInvoices, payments: services.tradePayments, prefix: "/api" });
  await app.register(tradeMemberStatementRoutes, { statements: services.tradeStatements, prefix: "/api" });
  // The back office's API (ADR 0029): the same services as its screens.
  await app.register(staffRoutes, { staff: services.staff, presets: services.filterPresets, signIn: services.staffSignIn, secureCookies: config.isProduction, prefix: "/api" });
  await app.register(auditRoutes, { audit: services.audit, prefix: "/api" });
  await app.register(backupRoutes, { desk: services.backups, prefix: "/api" });
  await app.register(adminOrderRoutes, { orders: services.adminOrders, documents: services.orderDocuments, prefix: "/api" });
  await app.register(counterOrderRoutes, { counter: services.counterOrders, lookup: services.counterLookup, drafts: services.orderDrafts, prefix: "/api" });
  await app.register(adminReturnRoutes, { desk: services.returnsDesk, photos: services.returnPhotos, prefix: "/api" });
  await app.register(dashboardRoutes, { dashboard: services.dashboard, prefix: "/api" });
  await app.register(adminCustomerRoutes, { customers: services.adminCustomers, prefix: "/api" });
  await app.register(paymentRoutes, { payments: services.payments, payLinks: services.orderPayLinks, prefix: "/api" });
  await app.register(tradeStatementRoutes, { statements: services.tradeStatements, prefix: "/api" });
  await app.register(tradeDeskRoutes, { desk: services.tradeDesk, prefix: "/api" });
  await app.register(adminProductRoutes, { products: services.adminProducts, variants: services.adminVariants, prefix: "/api" });
  await app.register(stockRoutes, { stock: services.stock, transfers: services.transfers, prefix: "/api" });
  await app.register(adminBranchRoutes, { admin: services.branchAdmin, prefix: "/api" });
  await app.register(adminAppointmentRoutes, { admin: services.adminAppointments, prefix: "/api" });
  await app.register(adminPromotionRoutes, { admin: services.adminPromotions, prefix: "/api" });
  await app.register(adminQuoteRoutes, { desk: services.quoteDesk, prefix: "/api" });
  await app.register(adminTreeRoutes, { tree: services.adminTree, prefix: "/api" });
  await app.register(adminPhotoRoutes, { photos: services.adminPhotos, prefix: "/api" });
  await app.register(adminHireRoutes, { hire: services.adminHire, prefix: "/api" });
  await app.register(hireOperationRoutes, { operations: services.hireOperations, prefix: "/api" });
  await app.register(hireAgreementRoutes, { operations: services.hireOperations, prefix: "/api" });
  await app.register(hireDeskRoutes, { planner: services.hirePlanner, desk: services.hireDesk, prefix: "/api" });
  await app.register(hireDepotAdminRoutes, { depots: services.hireDepots, transfers: services.hireUnitTransfers, prefix: "/api" });
  // The catalogue's CSV export and import (ADR 0036): imports run in the background, their progress kept in product_imports.
  const csv = createCatalogueCsv(database.db, { dataDir: config.dataDir, sharedProgress: database.kind === "postgres", log: app.log });
  await app.register(catalogueCsvRoutes, { csv, prefix: "/api" });
  await app.register(redirectRoutes, { redirects: services.redirects, prefix: "/api" });
  await app.register(branchRoutes, { branches: services.branches, secureCookies: config.isProduction, prefix: "/api" });
  await app.register(appointmentRoutes, { appointments: services.appointments, limits, prefix: "/api" });

  // The outbox worker delivers mail in the background while the app runs.
  services.mail.start();
  // The sweeps, hire holds' lapse and the rest (server/modules/jobs/schedule.ts): each runs once however many processes run.
  const backups = createNightlyBackup({ config, database, mail: services.mail });
  scheduleJobs(jobs, SCHEDULED_JOBS, { services, db: database.db, csv, backups });
  if (options.jobs ?? config.nodeEnv !== "test") app.addHook("onReady", async () => jobs.start());
  app.addHook("onClose", async () => {
    await jobs.stop();
    await services.mail.stop();
  });

  // Unknown API paths answer JSON, never the storefront's HTML 404 page.
  for (const prefix of ["/api", "/sanctum"]) {
    app.all(`${prefix}/*`, { schema: { hide: true } }, async (_request, reply) => reply.code(404).send({ message: "Not Found" }));
  }

  if (options.storefront.mode !== "none") {
    const devServer = options.storefront.mode === "vite" ? options.storefront.vite : undefined;
    const browserConfig = publicConfig(config);
    // A database outage in a loader is a 503 page with Retry-After, as it is in the API.
    const pageServices = withOutageResponses(services);
    const serverBuildPath = path.join(projectRoot, "build/server/index.js");
    // The production build is imported once, here. Left to the adapter, it is a
    // function that React Router calls on every request, and then derives its
    // routes and request handler anew each time (import() and derive() per page).
    const build = devServer ? undefined : ((await import(pathToFileURL(serverBuildPath).href)) as ServerBuild);
    // Registered in its own scope: the adapter replaces the body parsers there only.
    await app.register(async (scope) => {
      // Visitors' pages are kept while nothing they show has changed; hot reload keeps none.
      if (!devServer && options.pageCache !== false) {
        // Signed-in customers' catalogue pages are kept per price view (ADR 0043).
        registerPageCache(scope, { ...pageCacheLimits(options.pageCache), buildId, versions: services.pageVersion, now: options.now, signedInView });
      }
      await scope.register(fastifyReactRouter, {
        devServer,
        serverBuildPath,
        build,
        clientBuildDirectory: path.join(projectRoot, "build/client"),
        // The build writes .br and .gz beside each file (scripts/lib/precompress.ts).
        staticOptions: { preCompressed: true },
        routeOptions: { schema: { hide: true } },
        // Production mode hides error details from the page, whatever NODE_ENV says.
        mode: devServer ? "development" : "production",
        getLoadContext(request) {
          const context = new RouterContextProvider();
          let categoryTree: Promise<CategoryNode[]> | undefined;
          // A page rendered to be kept is anyone's with its price view: the browser fills in who is signed in (ADR 0043).
          const sharedPage = request.pageCache?.kind === "render";
          context.set(appContext, {
            categoryTree: () => (categoryTree ??= pageServices.catalog.categoryTree()),
            categoryByPath: async (path) => findCategory(await (categoryTree ??= pageServices.catalog.categoryTree()), path),
            config: browserConfig,
            services: pageServices,
            nonce: request.renderNonce || request.cspNonce,
            buildId,
            requestId: request.id,
            prices: request.prices,
            priceDisplay: priceDisplayFor(request.trade),
            staff: request.staffPrincipal?.kind === "session" ? actorOf(request.staffPrincipal, "screen") : null,
            clientIp: request.ip,
            secureCookies: config.isProduction,
            sharedPage,
            signedIn: request.user !== null && (!sharedPage || isPersonalFrame(request.url)),
            user: request.user && !sharedPage
              ? {
                  id: request.user.id,
                  firstname: request.user.firstname,
                  lastname: request.user.lastname,
                  name: `${request.user.firstname} ${request.user.lastname}`.trim(),
                  email: request.user.email,
                }
              : null,
          });
          return context;
        },
      });
    });
  }

  return app;
}

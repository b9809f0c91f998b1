import { fastifyReactRouterDev } from "@mcansh/react-router-fastify/vite";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { precompress } from "./scripts/lib/precompress.ts";

export default defineConfig({
  plugins: [
    tailwindcss(),
    reactRouter(),
    // `react-router dev` serves through the same Fastify app as production.
    // `#app-context` stays external so the server and the SSR build share one
    // context token instance.
    fastifyReactRouterDev({ entry: "./server/dev.ts", externalizeServerEntryImports: ["#app-context"] }),
    // Brotli and gzip copies of the client build, served as they are.
    precompress(),
  ],
  build: {
    sourcemap: false,
    rolldownOptions: {
      output: {
        // Fewer, larger shared chunks: each page's first load was some thirty
        // files, and over HTTP/1.1's six connections per host they queue.
        // React and React Router in one chunk; the storefront's modules that
        // most pages share (the shell: header, prices, baskets, sessions) in another.
        codeSplitting: {
          groups: [
            // Which orders may still be cancelled, and the statuses' names: plain data the customer's order
            // pages and the back office's audit words share, in a chunk of its own so that neither takes the other's.
            { name: "order-statuses", test: /[\\/]server[\\/]modules[\\/]orders[\\/]statuses\.ts$/, priority: 19 },
            // What the root and the back office's frame need, and the few storefront modules its screens use
            // (money, forms, the session): a small chunk of its own, so that a back-office page never loads the
            // storefront's shell with its header, basket and search (ADR 0066). Every storefront page loads it too.
            {
              name: "core",
              test: /[\\/]app[\\/](lib[\\/](access|api-client|back-office|browser-api|cookie-header|form-result|listeners|meta|money|new-build|safe-redirect|session|use-session)\.ts|components[\\/](address-lines|error-page|form|head-row|page|route-focus)\.tsx)$/,
              priority: 19,
            },
            { name: "framework", test: /node_modules[\\/](react|react-dom|scheduler|react-router|@react-router|cookie|set-cookie-parser|turbo-stream)[\\/]/, priority: 20 },
            // The back office's own modules never join the storefront's shell: its JavaScript loads only under
            // /admin (ADR 0029). The catalogue desk's forms are left to the groups below, and the hire and trade desks'
            // own helpers to chunks of their screens, so that no back-office page carries another desk's code;
            // likewise the returns desk's (issue 31), and the kit's parts only a few screens use (tabs, timeline, table-or-cards),
            // and one desk's own sections (a trade account's money forms, a hire's unit forms, a staff member's row, issue 35);
            // the kit's lists (its keyset list and columns too), panels and confirmations go with the screens that use them, so a screen without a list loads none;
            // so do the kit's select options, header rows, facts, move buttons and create screens' frame (issue 35): in the shared chunk each would add to every screen.
            // orders/statuses.ts is plain data the customer's order page shares (which orders may still be cancelled).
            // The quotes desk's form and words (issue 32) stay with its screens too. quotes/statuses.ts is plain data the
            // customer's quote pages share: only route modules import it, so no module of this group takes it in as a dependency.
            { name: "admin", test: /[\\/]app[\\/](lib|components)[\\/]admin[\\/](?!(product-form|hire-item-form|hire-units|photo-manager|photo-action|search-filter|hold-badge|trade-desk|hire-planner|crumbs|stock-lines|branch-form|returns|refund-due|return-actions|order-returns|table-or-cards|timeline|status-tabs|promotion-form|promotion-preview|promotions|quote-form|quotes|category-picker|description-field|new-photos|stock-desk|counter-order|filter-disclosure|audit-entries|audit-words|trade-account-money|terms-fields|hire-request-forms|staff-member-row|role-select|name-address-fields|customer-orders|cells|filter-form|panel|confirm-with-reason|empty-state|keyset-list|list-columns|options|head-row|facts|move-buttons|new-screen)\.tsx?$)|[\\/]server[\\/]modules[\\/](staff[\\/]|orders[\\/](?!statuses\.ts$))|[\\/]server[\\/]modules[\\/]catalog[\\/]products[\\/]prices\.ts$|[\\/]server[\\/]modules[\\/]hire[\\/]calendar\.ts$/, minShareCount: 2, priority: 17 },
            // The move up/down forms the photos screens and the category tree share: in a chunk of their own, or the photos
            // group would take them in with the photo manager and the category tree would load the uploader with them.
            { name: "admin-move", test: /[\\/]app[\\/]components[\\/]admin[\\/]move-buttons\.tsx$/, priority: 17 },
            // The catalogue desk's forms each in a chunk of its own, loaded by their screens and not by every
            // back-office page: products; photos; hire items with the hire price engine their rate card runs.
            {
              name: "admin-catalogue",
              test: /[\\/]app[\\/](components|lib)[\\/]admin[\\/]product-form\.tsx?$/,
              minShareCount: 2,
              priority: 16,
            },
            // The promotions desk's form, preview and words (issue 32): loaded by its new and edit screens only.
            {
              name: "admin-promotions",
              test: /[\\/]app[\\/](components|lib)[\\/]admin[\\/](promotion-form|promotion-preview|promotions)\.tsx?$/,
              minShareCount: 2,
              priority: 16,
            },
            // The photos screens' uploader, which the product and hire item forms never load.
            {
              name: "admin-photos",
              test: /[\\/]app[\\/](components|lib)[\\/]admin[\\/](photo-manager|photo-action)\.tsx?$/,
              minShareCount: 2,
              priority: 16,
            },
            {
              name: "admin-hire",
              test: /[\\/]app[\\/](components|lib)[\\/]admin[\\/](hire-item-form|hire-units)\.tsx?$|[\\/]server[\\/]modules[\\/]hire[\\/](rate-card|pricing)\.ts$/,
              minShareCount: 2,
              priority: 16,
            },
            // Checkout's address fields, address-book picker and delivery and payment choices, which a quote's acceptance (issue 32) shares: one chunk for the two pages.
            { name: "checkout-forms", test: /[\\/]app[\\/]components[\\/]checkout[\\/](address-fields|saved-addresses|choices)\.tsx$/, minShareCount: 2, priority: 16 },
            // Before the back office's groups: the modules the storefront shares (money, sessions) stay in
            // its shell even when a back-office form imports them too, so a back-office chunk, which takes
            // its modules' dependencies with it, never holds one the storefront needs.
            // The branch pages' own components stay with them, and so do an order's returns forms (issue 31): every page loads the shell.
            // Likewise the quote screens' (issue 32), and the parts of checkout's form a quote's acceptance shares with it;
            // and the account and sign-in pages' form card, the costs' facts rows and the listings' category chips (issue 35),
            // so that pages without them load none of them; and the bar chart the trade dashboard and the back office's draw.
            { name: "shell", test: /[\\/]app[\\/](lib|components)[\\/](?!admin[\\/]|branches[\\/]|returns[\\/.]|quotes[\\/.]|checkout[\\/](address-fields|saved-addresses|choices)\.tsx$|form-card\.tsx$|facts-row\.tsx$|catalog[\\/]category-chips\.tsx$|bar-chart\.tsx$|chart-scale\.ts$)/, minShareCount: 2, priority: 18 },
          ],
        },
      },
    },
  },
  // `npm run dev` listens where `npm start` would.
  server: { port: Number(process.env.PORT) || 3000, host: process.env.HOST || "localhost" },
});

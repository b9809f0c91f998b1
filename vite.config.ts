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
            { name: "framework", test: /node_modules[\\/](react|react-dom|scheduler|react-router|@react-router|cookie|set-cookie-parser|turbo-stream)[\\/]/, priority: 20 },
            // The back office's own modules never join the storefront's shell: its JavaScript loads only under /admin (ADR 0029).
            { name: "admin", test: /[\\/]app[\\/](lib|components)[\\/]admin[\\/]|[\\/]server[\\/]modules[\\/](staff|orders)[\\/]/, minShareCount: 2, priority: 15 },
            { name: "shell", test: /[\\/]app[\\/](lib|components)[\\/](?!admin[\\/])/, minShareCount: 2, priority: 10 },
          ],
        },
      },
    },
  },
  // `npm run dev` listens where `npm start` would.
  server: { port: Number(process.env.PORT) || 3000, host: process.env.HOST || "localhost" },
});

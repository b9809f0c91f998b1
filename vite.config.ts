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
  build: { sourcemap: false },
  // `npm run dev` listens where `npm start` would.
  server: { port: Number(process.env.PORT) || 3000, host: process.env.HOST || "localhost" },
});

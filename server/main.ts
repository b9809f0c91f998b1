// The shop's entry (`npm start`). Tracing starts before anything it patches
// (http, pg, fastify) is imported, so the shop itself is loaded after it.
import { loadDotEnv } from "./lib/dotenv.ts";
import { startTracing } from "./tracing.ts";

loadDotEnv();
await startTracing(process.env);
await import("./serve.ts");

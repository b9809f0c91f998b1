/**
 * OpenTelemetry traces (ADR 0056), on only when OTEL_EXPORTER_OTLP_ENDPOINT is
 * set. Nothing here imports the SDK statically: with the variable unset the
 * shop loads none of it. The instrumentations patch http, pg and fastify as
 * they load, so server/main.ts starts this before it imports the shop.
 */

type TraceFields = () => Record<string, string>;

let traceFields: TraceFields | null = null;
let stop: (() => Promise<void>) | null = null;

/** Sends the spans still buffered and stops the SDK; nothing when tracing is off. */
export async function stopTracing(): Promise<void> {
  const stopping = stop;
  stop = null;
  await stopping?.().catch(() => {});
}

/**
 * For pino's mixin: the active span's trace id on every log line written
 * within a request; undefined while tracing is off, so logs cost nothing more.
 */
export function traceLogMixin(): TraceFields | undefined {
  return traceFields ?? undefined;
}

/** Starts the SDK when OTEL_EXPORTER_OTLP_ENDPOINT is set; answers whether it did. */
export async function startTracing(env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()) return false;
  // ESM imports of the patched packages go through import-in-the-middle's hook;
  // told which modules to wrap (the instrumentations' own), it leaves the rest alone.
  const { register } = await import("node:module");
  const { createAddHookMessageChannel } = await import("import-in-the-middle");
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register("import-in-the-middle/hook.mjs", import.meta.url, registerOptions);

  const [{ NodeSDK }, { HttpInstrumentation }, { FastifyInstrumentation }, { PgInstrumentation }, api] = await Promise.all([
    import("@opentelemetry/sdk-node"),
    import("@opentelemetry/instrumentation-http"),
    import("@opentelemetry/instrumentation-fastify"),
    import("@opentelemetry/instrumentation-pg"),
    import("@opentelemetry/api"),
  ]);
  // Traces only: the shop's metrics are Prometheus's (/metrics), its logs pino's.
  env.OTEL_METRICS_EXPORTER ??= "none";
  env.OTEL_LOGS_EXPORTER ??= "none";
  env.OTEL_SERVICE_NAME ??= "tradecounter";
  const sdk = new NodeSDK({
    instrumentations: [
      // Health checks and the scraper's visits would be most of the traces and say nothing.
      new HttpInstrumentation({ ignoreIncomingRequestHook: (request) => /^\/(healthz|readyz|metrics)(\?|$)/.test(request.url ?? "") }),
      new FastifyInstrumentation(),
      // Queries within a request only: the job queue's polling would otherwise be a trace every few seconds.
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  await waitForAllMessagesAcknowledged();
  traceFields = (): Record<string, string> => {
    const context = api.trace.getActiveSpan()?.spanContext();
    return context ? { trace_id: context.traceId, span_id: context.spanId } : {};
  };
  stop = () => sdk.shutdown();
  return true;
}

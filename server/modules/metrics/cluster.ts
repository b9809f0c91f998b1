import cluster from "node:cluster";
import { randomUUID } from "node:crypto";
import { AggregatorRegistry, type Registry } from "prom-client";

/**
 * `/metrics` when `npm start` runs several shop processes (ADR 0044): each
 * keeps its own counters, and the one a scrape reaches asks the primary, which
 * gathers every process's and adds them up (prom-client's AggregatorRegistry:
 * counters and histograms summed, the database-read gauges taken once). So a
 * scrape counts the whole machine, whichever process answers it.
 */
const ASK = "tradecounter:metrics:ask";
const ANSWER = "tradecounter:metrics:answer";
const ANSWER_WITHIN_MS = 5_000;

interface Answer {
  type: typeof ANSWER;
  id: string;
  body?: string;
  error?: string;
}

/** In a worker: this process's registry is the one the primary gathers. */
export function shareWithPrimary(registry: Registry): void {
  if (!cluster.isWorker) return;
  AggregatorRegistry.setRegistries([registry]);
  // Constructing one is what makes prom-client answer the primary's requests in this process.
  new AggregatorRegistry();
}

/** True in a shop process under a primary: its scrapes go through the primary. */
export const underPrimary = () => cluster.isWorker && typeof process.send === "function";

/** In a worker: the machine's metrics, gathered by the primary. */
export function askPrimary(): Promise<{ contentType: string; body: string }> {
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      process.off("message", onMessage);
    };
    const onMessage = (message: unknown) => {
      const answer = message as Answer | null;
      if (answer?.type !== ANSWER || answer.id !== id) return;
      done();
      if (answer.body === undefined) reject(new Error(answer.error ?? "the primary gathered no metrics"));
      else resolve({ contentType: AggregatorRegistry.PROMETHEUS_CONTENT_TYPE, body: answer.body });
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`the primary did not gather the metrics within ${ANSWER_WITHIN_MS} ms`));
    }, ANSWER_WITHIN_MS);
    process.on("message", onMessage);
    process.send!({ type: ASK, id });
  });
}

/** In the primary: answers its workers' requests for the machine's metrics. */
export function gatherForWorkers(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on("message", (worker, message: unknown) => {
    const ask = message as { type?: string; id?: string } | null;
    if (ask?.type !== ASK || typeof ask.id !== "string") return;
    const id = ask.id;
    aggregator.clusterMetrics().then(
      (body) => worker.send({ type: ANSWER, id, body } satisfies Answer),
      (error: unknown) => worker.send({ type: ANSWER, id, error: error instanceof Error ? error.message : String(error) } satisfies Answer),
    );
  });
}

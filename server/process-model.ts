import cluster, { type Worker } from "node:cluster";
import { availableParallelism } from "node:os";
import type { Logger } from "pino";

/**
 * How many shop processes `npm start` runs (ADR 0044): one per core on
 * PostgreSQL, `WEB_CONCURRENCY` when set; always one on the embedded PGlite,
 * which admits a single process to its data folder.
 */
export function shopProcessCount(env: NodeJS.ProcessEnv, cores = availableParallelism()): number {
  if (!env.DATABASE_URL) return 1;
  const asked = env.WEB_CONCURRENCY?.trim();
  if (asked) {
    const n = Number(asked);
    if (!Number.isInteger(n) || n < 1 || n > 256) throw new RangeError(`WEB_CONCURRENCY must be a whole number from 1 to 256, not ${JSON.stringify(asked)}`);
    return n;
  }
  return Math.max(1, cores);
}

/** A worker that dies this soon after starting counts towards a crash loop. */
const EARLY_DEATH_MS = 10_000;
const MAX_RESTART_DELAY_MS = 30_000;
/** Early deaths in a row after which the primary stops and exits 1. */
const GIVE_UP_AFTER = 10;

export interface Supervisor {
  /** Stops every worker (SIGTERM, then SIGKILL after the grace period) and resolves when all have exited. */
  stop(graceMs?: number): Promise<void>;
  /** The live workers' process ids. */
  pids(): number[];
}

/**
 * The primary process: forks `count` workers that share the listening port
 * (the cluster module hands each connection to one of them), and forks a new
 * one whenever one dies, however it died, unless the shop is stopping. A
 * worker that dies within seconds of starting delays the next fork, doubling
 * up to 30 s, so a shop that cannot start does not spin the machine; after ten
 * such deaths in a row the primary gives up (`onGiveUp`: it exits 1).
 */
export function superviseWorkers(count: number, log: Pick<Logger, "info" | "warn" | "error">, onGiveUp: () => void): Supervisor {
  let stopping = false;
  let delay = 0;
  let earlyDeaths = 0;
  const startedAt = new Map<number, number>();

  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker.id, Date.now());
    return worker;
  };

  cluster.on("exit", (worker: Worker, code: number | null, signal: string | null) => {
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    startedAt.delete(worker.id);
    if (stopping) return;
    earlyDeaths = lived < EARLY_DEATH_MS ? earlyDeaths + 1 : 0;
    if (earlyDeaths >= GIVE_UP_AFTER) {
      // A shop that cannot start: say so and fail, for the service manager to see, rather than spin.
      log.error({ pid: worker.process.pid, code, signal }, `${earlyDeaths} shop processes in a row died within seconds of starting; giving up`);
      stopping = true;
      onGiveUp();
      return;
    }
    delay = earlyDeaths > 0 ? Math.min(MAX_RESTART_DELAY_MS, Math.max(1000, delay * 2)) : 0;
    log.error({ pid: worker.process.pid, code, signal, restartInMs: delay }, "a shop process died; starting another");
    // Not unref'd: while every worker is down, this timer is what keeps the primary alive.
    setTimeout(() => {
      if (!stopping) fork();
    }, delay);
  });

  for (let i = 0; i < count; i++) fork();
  log.info({ processes: count }, "started the shop processes");

  return {
    pids: () => Object.values(cluster.workers ?? {}).flatMap((w) => (w?.process.pid ? [w.process.pid] : [])),
    async stop(graceMs = 10_000) {
      stopping = true;
      const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => Boolean(w));
      await Promise.all(
        workers.map(
          (worker) =>
            new Promise<void>((resolve) => {
              if (worker.isDead()) return resolve();
              const kill = setTimeout(() => worker.process.kill("SIGKILL"), graceMs);
              worker.once("exit", () => {
                clearTimeout(kill);
                resolve();
              });
              worker.process.kill("SIGTERM");
            }),
        ),
      );
    },
  };
}

import { createClient } from "redis";

export type RedisClient = ReturnType<typeof newClient>;

/** Start-up could not reach REDIS_URL; the message is for the operator. */
export class RedisUnavailableError extends Error {
  constructor(url: string, cause: unknown) {
    super(`Could not connect to Redis at REDIS_URL (${redact(url)}): ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "RedisUnavailableError";
  }
}

/** The URL without its password, for messages. */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(not a URL)";
  }
}

/**
 * One client for the app. Start-up fails at once if Redis does not answer;
 * once connected, a lost connection is retried in the background and commands
 * fail at once meanwhile (no offline queue), so callers can fall back instead
 * of waiting.
 */
export async function connectRedis(url: string, log: { warn(obj: object, msg: string): void; info(msg: string): void }): Promise<RedisClient> {
  let connected = false;
  let lost = false;
  const client = newClient(url, () => connected);
  // Without a listener an error event would end the process; one warning per outage is enough.
  client.on("error", (err: unknown) => {
    if (!connected || lost) return;
    lost = true;
    log.warn({ err }, "lost the connection to Redis; reconnecting");
  });
  client.on("ready", () => {
    if (lost) log.info("reconnected to Redis");
    lost = false;
  });
  try {
    await client.connect();
  } catch (error) {
    throw new RedisUnavailableError(url, error);
  }
  connected = true;
  return client;
}

function newClient(url: string, connected: () => boolean) {
  return createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 5_000,
      // Before the first connection the cause ends connect(): start-up fails instead of retrying forever.
      reconnectStrategy: (retries: number, cause: Error) => (connected() ? Math.min(100 * 2 ** retries, 2_000) : cause),
    },
  });
}

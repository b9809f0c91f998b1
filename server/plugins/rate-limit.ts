import { createHmac, randomBytes } from "node:crypto";

/** One limit: at most `max` attempts per key in any `windowMs`. */
export interface LimitRule {
  /** Names the limit in Redis keys and logs, e.g. `login`. */
  name: string;
  max: number;
  windowMs: number;
}

/**
 * Counts attempts per key in a sliding window. A lock ends by itself when the
 * window slides on, so it never keeps the real owner out for long.
 */
export interface AttemptLimiter extends LimitRule {
  /** Seconds until another attempt is allowed; 0 when it is allowed now. */
  retryAfter(key: string): Promise<number>;
  /** Records an attempt, allowed or not. */
  hit(key: string): Promise<void>;
  /**
   * Check and record in one step: records the attempt and answers 0 when it is
   * allowed, else records nothing and answers the seconds to wait. One step, so
   * concurrent requests (in any process) cannot all pass the check first.
   */
  attempt(key: string): Promise<number>;
  reset(key: string): Promise<void>;
}

/** Where the limiters keep their counts: this process's memory, or Redis shared by all (ADR 0026). */
export interface LimiterStore {
  readonly kind: "memory" | "redis";
  limiter(rule: LimitRule): AttemptLimiter;
}

const toSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** Today's sliding window in memory; also what the Redis store falls back on while Redis is away. */
class MemoryLimiter implements AttemptLimiter {
  readonly name: string;
  readonly max: number;
  readonly windowMs: number;
  readonly #now: () => number;
  readonly #attempts = new Map<string, number[]>();

  constructor(rule: LimitRule, now: () => number) {
    this.name = rule.name;
    this.max = rule.max;
    this.windowMs = rule.windowMs;
    this.#now = now;
  }

  #recent(key: string): number[] {
    const cutoff = this.#now() - this.windowMs;
    const list = (this.#attempts.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length) this.#attempts.set(key, list);
    else this.#attempts.delete(key);
    return list;
  }

  #wait(list: number[]): number {
    if (list.length < this.max) return 0;
    const oldest = list[list.length - this.max]!;
    return toSeconds(oldest + this.windowMs - this.#now());
  }

  #record(key: string, list: number[]): void {
    list.push(this.#now());
    // Only the newest `max` attempts decide the wait.
    if (list.length > this.max) list.splice(0, list.length - this.max);
    this.#attempts.set(key, list);
    // Keep memory bounded under a flood of distinct keys.
    if (this.#attempts.size > 50_000) this.#sweep();
  }

  async retryAfter(key: string): Promise<number> {
    return this.#wait(this.#recent(key));
  }

  async hit(key: string): Promise<void> {
    this.#record(key, this.#recent(key));
  }

  async attempt(key: string): Promise<number> {
    const list = this.#recent(key);
    const wait = this.#wait(list);
    if (wait === 0) this.#record(key, list);
    return wait;
  }

  async reset(key: string): Promise<void> {
    this.#attempts.delete(key);
  }

  #sweep(): void {
    for (const key of [...this.#attempts.keys()]) this.#recent(key);
  }
}

export function memoryLimiterStore(options: { now?: () => number } = {}): LimiterStore {
  const now = options.now ?? Date.now;
  return { kind: "memory", limiter: (rule) => new MemoryLimiter(rule, now) };
}

/**
 * The sliding window as a sorted set per key (score and member: the attempt's
 * time), changed only inside this script, so every step is atomic across
 * processes. Only the newest `max` attempts are kept, and the key expires one
 * window after the last attempt, so Redis memory stays bounded.
 * KEYS[1] the key; ARGV: now (ms), window (ms), max, op (check | hit | attempt), member.
 * Answers the milliseconds to wait, 0 when allowed.
 */
const WINDOW_SCRIPT = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local max = tonumber(ARGV[3])
local op = ARGV[4]
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
if op ~= 'hit' then
  local count = redis.call('ZCARD', key)
  if count >= max then
    local oldest = redis.call('ZRANGE', key, count - max, count - max, 'WITHSCORES')
    return math.max(1, tonumber(oldest[2]) + window - now)
  end
  if op == 'check' then return 0 end
end
redis.call('ZADD', key, now, ARGV[5])
redis.call('ZREMRANGEBYRANK', key, 0, -(max + 1))
redis.call('PEXPIRE', key, window)
return 0
`;

/**
 * A Redis that accepts the connection but does not answer would hold every
 * sign-in; node-redis's own command timeout stops only commands not yet sent.
 */
function answerWithin<T>(command: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Redis did not answer within ${ms} ms`)), ms);
    command.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** The part of a node-redis client the store uses. */
export interface RedisCommander {
  readonly isReady: boolean;
  sendCommand(args: string[]): Promise<unknown>;
}

export interface RedisLimiterOptions {
  /** Keys are `<prefix><limit name>:<hashed key>`. */
  prefix?: string;
  /** Keys are HMACs under this secret, so no email or address is stored in the clear. */
  secret: string;
  now?: () => number;
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  /** A command that takes longer counts as Redis being away. */
  timeoutMs?: number;
  /** How long to stay on the memory fallback after a failure before asking Redis again. */
  retryAfterFailureMs?: number;
}

/**
 * Limits shared through Redis. While Redis is unreachable each process falls
 * back to its own memory limits, with a warning, so sign-in keeps working and
 * is still limited (ADR 0026).
 */
export function redisLimiterStore(client: RedisCommander, options: RedisLimiterOptions): LimiterStore {
  const prefix = options.prefix ?? "tc:rl:";
  const now = options.now ?? Date.now;
  const timeout = options.timeoutMs ?? 500;
  const pause = options.retryAfterFailureMs ?? 5_000;
  const fallback = memoryLimiterStore({ now });
  // Real time, not the injected clock: the breaker is about Redis, not about the limits.
  let downUntil = 0;
  let degraded = false;

  // One warning per outage, with the error that began it when there is one.
  const degrade = (rule: LimitRule, failure?: { err: unknown }) => {
    if (degraded) return;
    degraded = true;
    options.log.warn({ ...failure, limit: rule.name }, "Redis is unreachable: rate limits fall back to this process's memory");
  };

  const run = async <T>(rule: LimitRule, shared: () => Promise<T>, local: () => Promise<T>): Promise<T> => {
    if (Date.now() < downUntil || !client.isReady) {
      degrade(rule);
      return local();
    }
    try {
      const result = await shared();
      if (degraded) {
        degraded = false;
        options.log.info({ limit: rule.name }, "Redis is back: rate limits are shared again");
      }
      return result;
    } catch (err) {
      downUntil = Date.now() + pause;
      degrade(rule, { err });
      return local();
    }
  };

  return {
    kind: "redis",
    limiter(rule) {
      const local = fallback.limiter(rule);
      const keyOf = (key: string) => `${prefix}${rule.name}:${createHmac("sha256", options.secret).update(key).digest("base64url")}`;
      const window = async (key: string, op: "check" | "hit" | "attempt"): Promise<number> => {
        const at = now();
        const member = `${at}:${randomBytes(6).toString("base64url")}`;
        const args = ["EVAL", WINDOW_SCRIPT, "1", keyOf(key), String(at), String(rule.windowMs), String(rule.max), op, member];
        const ms = Number(await answerWithin(client.sendCommand(args), timeout));
        return ms > 0 ? toSeconds(ms) : 0;
      };
      return {
        ...rule,
        retryAfter: (key) => run(rule, () => window(key, "check"), () => local.retryAfter(key)),
        hit: (key) => run(rule, async () => void (await window(key, "hit")), () => local.hit(key)),
        attempt: (key) => run(rule, () => window(key, "attempt"), () => local.attempt(key)),
        reset: (key) =>
          run(
            rule,
            async () => {
              await answerWithin(client.sendCommand(["DEL", keyOf(key)]), timeout);
              // A lock counted in memory during an outage is lifted too.
              await local.reset(key);
            },
            () => local.reset(key),
          ),
      };
    },
  };
}

/**
 * Counts attempts per key in a sliding window, in memory. One process serves
 * the shop, so memory is the right place; a lock ends by itself when the
 * window slides on, so it never keeps the real owner out for long.
 */
export class AttemptLimiter {
  readonly max: number;
  readonly windowMs: number;
  readonly #now: () => number;
  readonly #attempts = new Map<string, number[]>();

  constructor(options: { max: number; windowMs: number; now?: () => number }) {
    this.max = options.max;
    this.windowMs = options.windowMs;
    this.#now = options.now ?? Date.now;
  }

  #recent(key: string): number[] {
    const cutoff = this.#now() - this.windowMs;
    const list = (this.#attempts.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length) this.#attempts.set(key, list);
    else this.#attempts.delete(key);
    return list;
  }

  /** Seconds until another attempt is allowed; 0 when it is allowed now. */
  retryAfter(key: string): number {
    const list = this.#recent(key);
    if (list.length < this.max) return 0;
    const oldest = list[list.length - this.max]!;
    return Math.max(1, Math.ceil((oldest + this.windowMs - this.#now()) / 1000));
  }

  hit(key: string): void {
    const list = this.#recent(key);
    list.push(this.#now());
    this.#attempts.set(key, list);
    // Keep memory bounded under a flood of distinct keys.
    if (this.#attempts.size > 50_000) this.#sweep();
  }

  reset(key: string): void {
    this.#attempts.delete(key);
  }

  #sweep(): void {
    for (const key of [...this.#attempts.keys()]) this.#recent(key);
  }
}

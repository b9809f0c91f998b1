type Answer<T> = T | false | null | undefined;

/**
 * Polls `probe` until it answers something (anything but false, null or
 * undefined) and answers that; fails naming `what` after the deadline. For
 * waiting on another process or a background worker; no timing is asserted.
 */
export async function until<T>(probe: () => Answer<T> | Promise<Answer<T>>, options: { what?: string; timeoutMs?: number; intervalMs?: number } = {}): Promise<T> {
  const { what = "the condition", timeoutMs = 30_000, intervalMs = 100 } = options;
  const end = Date.now() + timeoutMs;
  for (;;) {
    const answer = await probe();
    if (answer !== false && answer !== null && answer !== undefined) return answer;
    if (Date.now() > end) throw new Error(`${what} not met before the deadline`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Loads the keys asked for in one turn of the event loop together, in that
 * turn's check phase (`setImmediate`), after every one of them was asked: so a
 * change committed before a caller asked is always seen, and under load a
 * caller pays a share of one read instead of a round trip of its own. The
 * loads of successive turns overlap rather than queue behind each other. Used
 * by the page version (ADR 0025) and the session reads (ADR 0045).
 */
export function turnBatch<K, V>(load: (keys: K[]) => Promise<Map<K, V>>): (key: K) => Promise<V | undefined> {
  type Waiter = { resolve: (value: V | undefined) => void; reject: (error: unknown) => void };
  let waiting: Map<K, Waiter[]> | undefined;

  async function flush(batch: Map<K, Waiter[]>): Promise<void> {
    try {
      const found = await load([...batch.keys()]);
      for (const [key, waiters] of batch) for (const w of waiters) w.resolve(found.get(key));
    } catch (error) {
      for (const waiters of batch.values()) for (const w of waiters) w.reject(error);
    }
  }

  return (key) =>
    new Promise((resolve, reject) => {
      if (!waiting) {
        const batch = (waiting = new Map());
        setImmediate(() => {
          waiting = undefined;
          void flush(batch);
        });
      }
      const waiters = waiting.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else waiting.set(key, [{ resolve, reject }]);
    });
}

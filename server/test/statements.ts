// Counting what one request sends to PostgreSQL (issue 35): every statement is
// a round trip, and on a busy machine each is dear (docs/performance.md). The
// pg driver's Client.query is wrapped while `statementsOf(fn)` runs (and put
// back after: the test workers share modules between files); the statements
// issued within fn's async context are recorded, whatever connection they go
// out on. Work fn starts that runs on by itself (the outbox worker's pass,
// which runs outside the request's context) is not counted.
import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";

type Query = (this: pg.Client, ...args: unknown[]) => unknown;
const recording = new AsyncLocalStorage<string[]>();
const prototype = pg.Client.prototype as unknown as { query: Query };
let running = 0;
let original: Query | null = null;

function recordingQuery(this: pg.Client, ...args: unknown[]): unknown {
  // The driver's overloads are many; the first argument is the text or a config holding it.
  const config = args[0];
  recording.getStore()?.push(typeof config === "string" ? config : String((config as { text?: string }).text));
  return original!.apply(this, args);
}

/** The statements `fn` sends over the pg driver (PostgreSQL only: PGlite has no sockets to count), in order. */
export async function statementsOf<T>(fn: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  if (running++ === 0) {
    original = prototype.query;
    prototype.query = recordingQuery;
  }
  const statements: string[] = [];
  try {
    const result = await recording.run(statements, fn);
    return { result, statements };
  } finally {
    if (--running === 0) {
      prototype.query = original!;
      original = null;
    }
  }
}

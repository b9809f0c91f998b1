// Counting what one request sends to PostgreSQL (issue 35): every statement is
// a round trip, and on a busy machine each is dear (docs/performance.md). The
// pg driver's Client.query is wrapped once per test file (Vitest runs each file
// in its own module graph); statements issued within `statementsOf(fn)`'s async
// context are recorded, whatever connection they go out on.
import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";

const recording = new AsyncLocalStorage<string[]>();
let wrapped = false;

function wrapQuery(): void {
  if (wrapped) return;
  wrapped = true;
  const query = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;
  // The driver's overloads are many; the first argument is the text or a config holding it.
  (pg.Client.prototype as unknown as { query: typeof query }).query = function (this: pg.Client, ...args: unknown[]) {
    const config = args[0];
    recording.getStore()?.push(typeof config === "string" ? config : String((config as { text?: string }).text));
    return query.apply(this, args);
  };
}

/** The statements `fn` sends over the pg driver (PostgreSQL only: PGlite has no sockets to count), in order. */
export async function statementsOf<T>(fn: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  wrapQuery();
  const statements: string[] = [];
  const result = await recording.run(statements, fn);
  return { result, statements };
}

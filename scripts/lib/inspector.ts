/**
 * A connection to a Node process's inspector (started with
 * `--inspect=127.0.0.1:PORT`), to read figures from inside it, such as its heap,
 * without adding a route to the process. Nothing is paused or profiled.
 */
export interface InspectorSession {
  /** The value of a JavaScript expression evaluated in the process's main context. */
  evaluate<T>(expression: string): Promise<T>;
  close(): void;
}

interface Reply {
  id: number;
  result?: { result: { value?: unknown }; exceptionDetails?: { text: string } };
  error?: { message: string };
}

export async function connectInspector(port: number): Promise<InspectorSession> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const socket = new WebSocket(targets[0]!.webSocketDebuggerUrl);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener("open", () => resolve(), { once: true });
    socket.addEventListener("error", () => reject(new Error(`No inspector on port ${port}.`)), { once: true });
  });
  let nextId = 1;
  const waiting = new Map<number, (reply: Reply) => void>();
  socket.addEventListener("message", (event) => {
    const reply = JSON.parse(String(event.data)) as Reply;
    waiting.get(reply.id)?.(reply);
    waiting.delete(reply.id);
  });
  return {
    async evaluate<T>(expression: string): Promise<T> {
      const id = nextId++;
      const reply = await new Promise<Reply>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new Error("Inspector: no answer within 10 s."));
        }, 10_000);
        waiting.set(id, (answer) => {
          clearTimeout(timer);
          resolve(answer);
        });
        socket.send(JSON.stringify({ id, method: "Runtime.evaluate", params: { expression, returnByValue: true } }));
      });
      const failure = reply.error?.message ?? reply.result?.exceptionDetails?.text;
      if (failure) throw new Error(`Inspector: ${failure}`);
      return reply.result!.result.value as T;
    },
    close() {
      for (const [id, answer] of waiting) answer({ id, error: { message: "the session was closed" } });
      waiting.clear();
      socket.close();
    },
  };
}

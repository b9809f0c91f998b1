import type { Readable } from "node:stream";

/** Hands each JSON line a child process writes (pino's log lines) to `line`, whole, as it arrives; anything else is skipped. */
export function onLogLines(stream: Readable, line: (record: Record<string, unknown>) => void): void {
  let pending = "";
  stream.on("data", (chunk: Buffer) => {
    pending += chunk.toString("utf8");
    const lines = pending.split("\n");
    pending = lines.pop()!;
    for (const text of lines) {
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(text) as Record<string, unknown>;
      } catch {
        continue; // not a log line
      }
      line(record);
    }
  });
}

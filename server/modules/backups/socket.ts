import { chmod, rm } from "node:fs/promises";
import { createConnection, createServer, type Server } from "node:net";
import path from "node:path";
import { createInterface } from "node:readline";
import type { Database } from "../../db/client.ts";
import { type BackupConfig, type TakenBackup, takeBackup } from "./backup.ts";

/**
 * Only one process may open an embedded (PGlite) database, so `npm run backup`
 * asks the running shop to take the backup, over a unix socket in DATA_DIR
 * (ADR 0055). The socket is the owner's alone (mode 0600), like the data
 * folder beside it: whoever may connect could read the database files anyway.
 * One request a connection, one JSON object a line: progress lines, then the
 * backup taken or the error.
 */
export const backupSocketPath = (dataDir: string) => path.join(dataDir, "backup.sock");

type Line = { progress: string } | { done: TakenBackup } | { error: string };

export async function serveBackupSocket(config: BackupConfig, database: Database, log: { error(obj: object, msg: string): void }): Promise<{ close(): Promise<void> }> {
  const file = backupSocketPath(config.dataDir);
  // A socket file left by a shop that died; the database lock already says no other shop runs here.
  await rm(file, { force: true });
  const server: Server = createServer((connection) => {
    const send = (line: Line) => connection.write(`${JSON.stringify(line)}\n`);
    const lines = createInterface({ input: connection });
    lines.once("line", (request) => {
      lines.close();
      if (request.trim() !== "backup") {
        connection.end(`${JSON.stringify({ error: "unknown request" })}\n`);
        return;
      }
      takeBackup(config, database, { progress: (step) => send({ progress: step }) }).then(
        (done) => connection.end(`${JSON.stringify({ done })}\n`),
        (error: unknown) => {
          log.error({ err: error }, "backup failed");
          connection.end(`${JSON.stringify({ error: error instanceof Error ? error.message : String(error) })}\n`);
        },
      );
    });
    connection.on("error", () => {});
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(file, () => resolve());
  });
  await chmod(file, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
      }),
  };
}

/** Asks the shop running on this data folder to take a backup; rejects with its error. */
export function requestBackup(dataDir: string, progress: (step: string) => void = () => {}): Promise<TakenBackup> {
  return new Promise((resolve, reject) => {
    const connection = createConnection(backupSocketPath(dataDir));
    let settled = false;
    connection.once("error", (error) => {
      settled = true;
      reject(new Error(`The shop running on ${dataDir} did not answer on ${backupSocketPath(dataDir)}: ${error.message}`));
    });
    connection.once("connect", () => connection.write("backup\n"));
    createInterface({ input: connection }).on("line", (text) => {
      const line = JSON.parse(text) as Line;
      if ("progress" in line) progress(line.progress);
      else if ("done" in line) {
        settled = true;
        resolve(line.done);
      } else {
        settled = true;
        reject(new Error(line.error));
      }
    });
    connection.once("close", () => {
      if (!settled) reject(new Error("The shop closed the connection before the backup finished"));
    });
  });
}

import type { Db } from "../db/client.ts";
import type { Outbox } from "../modules/auth/service.ts";
import { createMailService } from "../modules/mail/service.ts";

/** Nothing is delivered: the tests read the outbox's rows. */
const idle = { send: async () => {}, close: () => {} };
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const writer = (tx: Db) => createMailService(tx, { transport: idle, from: "shop@example.com", log: quiet });

/** The outbox as the shop's mail service writes it: rows (and files) in the caller's transaction; nothing here sends them. */
export const tableOutbox: Outbox = {
  enqueue: (tx, message) => writer(tx).enqueue(tx, message),
  enqueueAll: (tx, messages) => writer(tx).enqueueAll(tx, messages),
};

import { sql } from "drizzle-orm";
import { customType, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { createdAt, ref, serialId, timestampNow, timestamptz } from "../../db/columns.ts";

/**
 * Every email goes through the outbox first, in the same transaction as the
 * change that caused it; a worker delivers it and retries with backoff, so an
 * SMTP outage loses nothing.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: serialId(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    html: text("html").notNull(),
    text: text("text").notNull(),
    /** pending | sent | failed (gave up after the last attempt) */
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestampNow("next_attempt_at"),
    lastError: text("last_error"),
    createdAt: createdAt(),
    sentAt: timestamptz("sent_at"),
  },
  // The worker takes the oldest pending message first: an index of the pending ids alone, so a claim
  // never walks the sent history (it did, by the primary key: 6 ms a claim after a few thousand mails).
  (t) => [index("mail_outbox_pending_idx").on(t.id).where(sql`${t.status} = 'pending'`)],
);

export type OutboxMail = typeof mailOutbox.$inferSelect;

/** Raw bytes; node-postgres gives a Buffer, PGlite a Uint8Array. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "bytea" });

/**
 * Files sent with an outbox message (a credit note's or statement's PDF): the
 * document as it was when the mail was queued, written in the same transaction.
 */
export const mailOutboxAttachments = pgTable(
  "mail_outbox_attachments",
  {
    outboxId: ref("outbox_id", () => mailOutbox.id, { onDelete: "cascade" }),
    /** Order in the email, from 0. */
    position: integer("position").notNull(),
    filename: text("filename").notNull(),
    contentType: text("content_type").notNull(),
    content: bytea("content").notNull(),
  },
  (t) => [primaryKey({ columns: [t.outboxId, t.position] })],
);

export type OutboxAttachment = typeof mailOutboxAttachments.$inferSelect;

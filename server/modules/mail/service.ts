import { AsyncLocalStorage } from "node:async_hooks";
import { and, asc, eq, getTableColumns, inArray, lte, type Placeholder, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { mailOutbox, mailOutboxAttachments, type OutboxMail } from "./schema.ts";
import type { MailLog, MailTransport } from "./transport.ts";

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer | Uint8Array;
}

export interface OutboxMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Sent as they are now: the bytes are stored with the message. */
  attachments?: MailAttachment[];
}

/** Total size of one message's attachments; past this a link is the better way. */
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;

interface ClaimedMail extends OutboxMail {
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

export interface MailServiceOptions {
  transport: MailTransport;
  from: string;
  log: MailLog;
  now?: () => Date;
  /** Attempts before a message is marked failed; 8 spans about an hour of outage. */
  maxAttempts?: number;
}

export interface DeliveryReport {
  sent: number;
  retried: number;
  failed: number;
}

/**
 * How long a claimed message stays invisible to other workers while it is being
 * sent. Far above the transport's timeouts; if the process dies mid-send, the
 * message comes back after this.
 */
const LEASE_MS = 5 * 60_000;
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 60 * 60_000;

/** Wait after the n-th failed attempt: 30 s, 1 min, 2 min, … capped at 1 hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
}

/** One line, short, for the outbox and the logs (the transport already strips credentials). */
function shortError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, " ").trim().slice(0, 500);
}

/**
 * The oldest pending messages due by `at`, at most `limit`, locked, skipping those another worker holds:
 * read through the index of pending ids (mail_outbox_pending_idx), never the history of sent mail.
 */
export function oldestDueMail(db: Db, at: Date | Placeholder, limit: number | Placeholder) {
  return db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.status, "pending"), lte(mailOutbox.nextAttemptAt, at)))
    .orderBy(asc(mailOutbox.id))
    .limit(limit)
    .for("update", { skipLocked: true });
}

export function createMailService(db: Db, options: MailServiceOptions) {
  const { transport, from, log } = options;
  const now = options.now ?? (() => new Date());
  const maxAttempts = options.maxAttempts ?? 8;

  // The worker's two statements a batch, prepared once (named statements on PostgreSQL).
  const claimQuery = db
    .update(mailOutbox)
    .set({ attempts: sql`${mailOutbox.attempts} + 1`, nextAttemptAt: sql`${sql.placeholder("leaseUntil")}` })
    .where(sql`${mailOutbox.id} in ${oldestDueMail(db, sql.placeholder("at"), sql.placeholder("limit"))}`)
    .returning({ ...getTableColumns(mailOutbox), hasFiles: sql<boolean>`exists (select 1 from ${mailOutboxAttachments} where ${mailOutboxAttachments.outboxId} = ${mailOutbox.id})` })
    .prepare("mail_claim");
  const sentQuery = db
    .update(mailOutbox)
    .set({ status: "sent", sentAt: sql`${sql.placeholder("at")}`, lastError: null })
    .where(sql`${mailOutbox.id} = any(${sql.placeholder("ids")}::int[])`)
    .prepare("mail_sent");

  /**
   * Takes up to `limit` of the oldest due messages and leases them (next_attempt_at
   * moves past the sends) in one statement (issue 35: each statement a round trip and
   * a system call, and an order sends two emails): SKIP LOCKED lets a second worker
   * take the next ones instead of waiting, and the lease keeps them off this one once
   * the statement has committed; it outlasts a batch's sends. The attempt is counted
   * here, so a message that kills the process still runs out of attempts. The files of
   * those that have any are read after, in one query: a leased message's files do not change.
   */
  async function claim(limit: number): Promise<ClaimedMail[]> {
    const at = now();
    const claimed = (await claimQuery.execute({ at, leaseUntil: new Date(at.getTime() + LEASE_MS), limit })).sort((a, b) => a.id - b.id);
    // One query for the files of every claimed message that has any, in each one's position order.
    const withFiles = claimed.filter((m) => m.hasFiles).map((m) => m.id);
    const files = withFiles.length
      ? await db
          .select({ outboxId: mailOutboxAttachments.outboxId, filename: mailOutboxAttachments.filename, contentType: mailOutboxAttachments.contentType, content: mailOutboxAttachments.content })
          .from(mailOutboxAttachments)
          .where(inArray(mailOutboxAttachments.outboxId, withFiles))
          .orderBy(asc(mailOutboxAttachments.outboxId), asc(mailOutboxAttachments.position))
      : [];
    return claimed.map(({ hasFiles: _, ...mail }) => ({
      ...mail,
      attachments: files.filter((f) => f.outboxId === mail.id).map(({ filename, contentType, content }) => ({ filename, contentType, content: Buffer.from(content) })),
    }));
  }

  async function attempt(mail: ClaimedMail): Promise<keyof DeliveryReport> {
    try {
      await transport.send({ from, to: mail.to, subject: mail.subject, html: mail.html, text: mail.text, attachments: mail.attachments });
    } catch (error) {
      const lastError = shortError(error);
      if (mail.attempts >= maxAttempts) {
        await db.update(mailOutbox).set({ status: "failed", lastError }).where(eq(mailOutbox.id, mail.id));
        log.error({ mailId: mail.id, to: mail.to, attempts: mail.attempts, error: lastError }, "mail delivery failed; giving up");
        return "failed";
      }
      const nextAttemptAt = new Date(now().getTime() + retryDelayMs(mail.attempts));
      await db.update(mailOutbox).set({ lastError, nextAttemptAt }).where(eq(mailOutbox.id, mail.id));
      log.warn({ mailId: mail.id, attempts: mail.attempts, nextAttemptAt, error: lastError }, "mail delivery failed; will retry");
      return "retried";
    }
    return "sent";
  }

  let timer: NodeJS.Timeout | undefined;
  // The async context the service was made in (the process's, not a request's).
  const detached = AsyncLocalStorage.snapshot();
  let running: Promise<void> | undefined;
  let again = false;

  /** One pass of the worker; a kick during a pass asks for another pass right after it. */
  function run(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await service.deliverDue();
        } catch (error) {
          log.error({ error: shortError(error) }, "mail delivery run failed");
        }
      } while (again && timer);
      // Cleared in the same turn as the last check of `again`, so no kick falls between the two.
      running = undefined;
    })();
    return running;
  }

  const service = {
    /**
     * Queues a message. Pass the transaction of the change that causes the mail,
     * so both commit or neither does; call kick() once it has committed.
     */
    async enqueue(tx: Db, message: OutboxMessage): Promise<number> {
      const [id] = await service.enqueueAll(tx, [message]);
      return id!;
    },

    /** Queues several messages as enqueue does, in one insert (and one more for their files, if any): an order's two emails are one round trip (issue 35). Answers their ids in the same order. */
    async enqueueAll(tx: Db, messages: readonly OutboxMessage[]): Promise<number[]> {
      if (messages.length === 0) return [];
      for (const message of messages) {
        const total = (message.attachments ?? []).reduce((sum, a) => sum + a.content.byteLength, 0);
        if (total > MAX_ATTACHMENT_BYTES) {
          throw new Error(
            `The attachments to "${message.subject}" come to ${(total / 1024 / 1024).toFixed(1)} MB; an email may carry at most ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MB.`,
          );
        }
      }
      // Stamped with the service's clock, which deliverDue compares against.
      const at = now();
      const rows = await tx
        .insert(mailOutbox)
        .values(messages.map((m) => ({ to: m.to, subject: m.subject, html: m.html, text: m.text, nextAttemptAt: at })))
        .returning({ id: mailOutbox.id });
      // The ids are taken in the order the rows are given; sorted, whatever order RETURNING answers them in.
      const ids = rows.map((r) => r.id).sort((x, y) => x - y);
      const files = messages.flatMap((m, i) =>
        (m.attachments ?? []).map((a, position) => ({ outboxId: ids[i]!, position, filename: a.filename, contentType: a.contentType, content: a.content })),
      );
      if (files.length > 0) await tx.insert(mailOutboxAttachments).values(files);
      return ids;
    },

    /** Sends up to `limit` due messages, oldest first, one at a time; those sent are marked so together after. */
    async deliverDue(limit = 20): Promise<DeliveryReport> {
      const report: DeliveryReport = { sent: 0, retried: 0, failed: 0 };
      const sent: number[] = [];
      for (const mail of await claim(limit)) {
        const outcome = await attempt(mail);
        report[outcome]++;
        if (outcome === "sent") sent.push(mail.id);
      }
      // If this update is lost (database down, the process killed mid-batch), the lease runs out and
      // the mail is sent again: delivery is at least once, never at most once.
      if (sent.length) await sentQuery.execute({ at: now(), ids: sent });
      return report;
    },

    /** Delivers due mail now and every `intervalMs`, in the background. */
    start(intervalMs = 5000): void {
      if (timer) return;
      timer = setInterval(() => {
        if (!running) void run();
      }, intervalMs);
      // The worker alone must not keep the process alive.
      timer.unref();
      void run();
    },

    /** Delivers at once (after an enqueue has committed); does nothing unless started. */
    kick(): void {
      // The pass is not the kicking request's work: run outside its async context, so its statements are not counted in
      // the request's trace (ADR 0056) nor in its statement count (server/test/statements.ts).
      if (timer) detached(() => void run());
    },

    /** Stops the worker, waiting for a pass in progress. */
    async stop(): Promise<void> {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
  return service;
}

export type MailService = ReturnType<typeof createMailService>;

import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "../../db/client.ts";
import { createTestDatabase, type TestDatabase } from "../../test/database.ts";
import { mailOutbox, mailOutboxAttachments } from "./schema.ts";
import { createMailService, MAX_ATTACHMENT_BYTES, oldestDueMail, retryDelayMs } from "./service.ts";
import { parseMessage, startTestSmtpServer, type TestSmtpServer } from "./smtp-test-server.ts";
import { createMailTransport, type MailLog, type MailTransport } from "./transport.ts";

const FROM = "Tradecounter <shop@example.com>";
const T0 = new Date("2026-03-02T09:00:00Z");

function recorder() {
  return { info: vi.fn(), warn: vi.fn(), error: vi.fn() } satisfies MailLog;
}

const message = (n = 1) => ({
  to: `customer${n}@example.com`,
  subject: `Order ${n} confirmed`,
  html: `<p>Thank you for order <strong>${n}</strong>.</p>`,
  text: `Thank you for order ${n}.`,
});

let database: TestDatabase;
let db: Db;
let smtp: TestSmtpServer;
let transport: MailTransport;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  smtp = await startTestSmtpServer();
  transport = createMailTransport({ smtpUrl: smtp.url, dataDir: "/nonexistent" }, recorder());
});

afterAll(async () => {
  transport?.close();
  await smtp?.close();
  await database?.destroy();
});

beforeEach(async () => {
  await db.delete(mailOutbox);
  smtp.received.length = 0;
  smtp.refuse = undefined;
  smtp.delayMs = 0;
});

async function row(id: number) {
  const [found] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
  return found!;
}

describe("mail outbox over SMTP", () => {
  it("delivers a queued message with its recipient, subject, HTML and text", async () => {
    const mail = createMailService(db, { transport, from: FROM, log: recorder() });
    // Queued inside the caller's transaction, through its handle.
    const id = await db.transaction((tx) => mail.enqueue(tx, message()));

    expect(await mail.deliverDue()).toEqual({ sent: 1, retried: 0, failed: 0 });

    expect(smtp.received).toHaveLength(1);
    const received = smtp.received[0]!;
    expect(received.envelopeTo).toEqual(["customer1@example.com"]);
    expect(received.envelopeFrom).toBe("shop@example.com");
    expect(received.headers.get("to")).toBe("customer1@example.com");
    expect(received.subject).toBe("Order 1 confirmed");
    expect(received.html).toBe("<p>Thank you for order <strong>1</strong>.</p>");
    expect(received.text).toBe("Thank you for order 1.");
    expect(await row(id)).toMatchObject({ status: "sent", attempts: 1, lastError: null });
    expect((await row(id)).sentAt).toBeInstanceOf(Date);

    expect(await mail.deliverDue()).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(smtp.received).toHaveLength(1);
  });

  it("delivers attachments with their file names, content types and exact bytes", async () => {
    const mail = createMailService(db, { transport, from: FROM, log: recorder() });
    // Every byte value, so an encoding slip (text instead of binary) shows.
    const pdf = Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.from(Array.from({ length: 256 }, (_, i) => i))]);
    const csv = new TextEncoder().encode("sku,qty\nA1,2\n");
    const id = await db.transaction((tx) =>
      mail.enqueue(tx, {
        ...message(),
        attachments: [
          { filename: "CN-000001.pdf", contentType: "application/pdf", content: pdf },
          { filename: "lines.csv", contentType: "text/csv", content: csv },
        ],
      }),
    );
    expect(await db.select({ position: mailOutboxAttachments.position }).from(mailOutboxAttachments).where(eq(mailOutboxAttachments.outboxId, id))).toHaveLength(2);

    expect(await mail.deliverDue()).toEqual({ sent: 1, retried: 0, failed: 0 });

    const received = smtp.received[0]!;
    expect(received.text).toBe("Thank you for order 1.");
    expect(received.html).toBe("<p>Thank you for order <strong>1</strong>.</p>");
    expect(received.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ["CN-000001.pdf", "application/pdf"],
      ["lines.csv", "text/csv"],
    ]);
    expect(received.attachments[0]!.content.equals(pdf)).toBe(true);
    expect(received.attachments[1]!.content.equals(Buffer.from(csv))).toBe(true);

    // The files go with their message.
    await db.delete(mailOutbox);
    expect(await db.select().from(mailOutboxAttachments)).toHaveLength(0);
  });

  it("refuses at enqueue attachments over the size limit, and queues nothing", async () => {
    const mail = createMailService(db, { transport, from: FROM, log: recorder() });
    const half = Buffer.alloc(MAX_ATTACHMENT_BYTES / 2 + 1);
    await expect(
      db.transaction((tx) =>
        mail.enqueue(tx, {
          ...message(),
          attachments: [
            { filename: "a.pdf", contentType: "application/pdf", content: half },
            { filename: "b.pdf", contentType: "application/pdf", content: half },
          ],
        }),
      ),
    ).rejects.toThrow(/attachments to "Order 1 confirmed" come to 5\.0 MB; an email may carry at most 5 MB/);
    expect(await db.select().from(mailOutbox)).toHaveLength(0);
  });

  it("keeps a refused message pending, backs off, then delivers it exactly once", async () => {
    let clock = T0;
    const log = recorder();
    const mail = createMailService(db, { transport, from: FROM, log, now: () => clock });
    const id = await mail.enqueue(db, message());

    smtp.refuse = "Mailbox busy, try later";
    expect(await mail.deliverDue()).toEqual({ sent: 0, retried: 1, failed: 0 });
    let mailRow = await row(id);
    expect(mailRow).toMatchObject({ status: "pending", attempts: 1 });
    expect(mailRow.nextAttemptAt).toEqual(new Date(T0.getTime() + 30_000));
    expect(mailRow.lastError).toContain("450 Mailbox busy");
    expect(log.warn).toHaveBeenCalledTimes(1);

    // Not due yet: nothing is attempted.
    clock = new Date(T0.getTime() + 29_000);
    expect(await mail.deliverDue()).toEqual({ sent: 0, retried: 0, failed: 0 });

    clock = new Date(T0.getTime() + 30_000);
    expect(await mail.deliverDue()).toEqual({ sent: 0, retried: 1, failed: 0 });
    mailRow = await row(id);
    expect(mailRow.attempts).toBe(2);
    expect(mailRow.nextAttemptAt).toEqual(new Date(clock.getTime() + 60_000));

    // The server accepts again, but the message waits for its time.
    smtp.refuse = undefined;
    clock = new Date(clock.getTime() + 59_000);
    expect(await mail.deliverDue()).toEqual({ sent: 0, retried: 0, failed: 0 });
    clock = new Date(clock.getTime() + 1_000);
    expect(await mail.deliverDue()).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(await mail.deliverDue()).toEqual({ sent: 0, retried: 0, failed: 0 });

    expect(smtp.received).toHaveLength(1);
    expect(await row(id)).toMatchObject({ status: "sent", attempts: 3, lastError: null });
  });

  it("the test SMTP server outlives a sender killed in the middle of a message, and goes on receiving", async () => {
    // As a shop process killed mid-delivery does (server/scale-out.test.ts): the connection is reset inside DATA.
    const { port } = new URL(smtp.url);
    const socket = connect(Number(port), "127.0.0.1");
    const replies: string[] = [];
    socket.on("data", (chunk: Buffer) => replies.push(chunk.toString()));
    const said = (code: string) => vi.waitFor(() => expect(replies.join("")).toMatch(new RegExp(`^${code} `, "m")), { timeout: 10_000 });
    await said("220");
    for (const [line, code] of [["EHLO killed.example", "250"], ["MAIL FROM:<shop@example.com>", "250"], ["RCPT TO:<someone@example.com>", "250"], ["DATA", "354"]] as const) {
      replies.length = 0;
      socket.write(`${line}\r\n`);
      await said(code);
    }
    const [bytesBefore, errorsBefore] = [smtp.dataBytes, smtp.connectionErrors.length];
    socket.write("Subject: cut off\r\n\r\nhalf a mess");
    // Cut off once the message has begun to arrive, as a sender killed while it writes it.
    await vi.waitFor(() => expect(smtp.dataBytes).toBeGreaterThan(bytesBefore), { timeout: 10_000 });
    socket.resetAndDestroy();
    await vi.waitFor(() => expect(smtp.connectionErrors.length).toBe(errorsBefore + 1), { timeout: 10_000 });
    expect((smtp.connectionErrors.at(-1) as NodeJS.ErrnoException).code).toBe("ECONNRESET");

    const service = createMailService(db, { transport, from: FROM, log: recorder() });
    await service.enqueue(db, message(7));
    expect(await service.deliverDue()).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(smtp.received.map((m) => m.subject)).toEqual(["Order 7 confirmed"]);
  });

  it("retries while no SMTP server is listening", async () => {
    // A port that was free a moment ago: the connection is refused.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as { port: number };
    await new Promise((resolve) => probe.close(resolve));
    const smtpUrl = `smtp://user:s3cret-pass@127.0.0.1:${port}`;
    const down = createMailTransport({ smtpUrl, dataDir: "/nonexistent" }, recorder());
    const mail = createMailService(db, { transport: down, from: FROM, log: recorder(), now: () => T0 });
    const id = await mail.enqueue(db, message());

    expect(await mail.deliverDue()).toEqual({ sent: 0, retried: 1, failed: 0 });
    const mailRow = await row(id);
    expect(mailRow).toMatchObject({ status: "pending", attempts: 1 });
    expect(mailRow.lastError).toMatch(/ECONNREFUSED|ECONNECTION|ESOCKET/);
    expect(mailRow.lastError).not.toContain("s3cret-pass");
    down.close();
  });

  it("marks a message failed after the last attempt", async () => {
    let clock = T0;
    const log = recorder();
    const mail = createMailService(db, { transport, from: FROM, log, now: () => clock, maxAttempts: 3 });
    const id = await mail.enqueue(db, message());
    smtp.refuse = "Mailbox busy, try later";

    expect(await mail.deliverDue()).toEqual({ sent: 0, retried: 1, failed: 0 });
    clock = new Date(clock.getTime() + retryDelayMs(1));
    expect(await mail.deliverDue()).toEqual({ sent: 0, retried: 1, failed: 0 });
    clock = new Date(clock.getTime() + retryDelayMs(2));
    expect(await mail.deliverDue()).toEqual({ sent: 0, retried: 0, failed: 1 });

    expect(await row(id)).toMatchObject({ status: "failed", attempts: 3, sentAt: null });
    expect(log.error).toHaveBeenCalledTimes(1);
    expect(log.error.mock.calls[0]![0]).toMatchObject({ mailId: id, attempts: 3 });

    // A failed message is never tried again.
    smtp.refuse = undefined;
    clock = new Date(clock.getTime() + 24 * 3600_000);
    expect(await mail.deliverDue()).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(smtp.received).toHaveLength(0);
  });

  it("delivers each message once when two workers run at the same time", async () => {
    // Two services stand for two processes sharing the database.
    const first = createMailService(db, { transport, from: FROM, log: recorder() });
    const second = createMailService(db, { transport, from: FROM, log: recorder() });
    for (let n = 1; n <= 6; n++) await first.enqueue(db, message(n));
    // Keep each delivery in flight long enough for the workers to overlap.
    smtp.delayMs = 50;

    const reports = await Promise.all([first.deliverDue(), second.deliverDue(), first.deliverDue()]);

    expect(reports.reduce((sum, r) => sum + r.sent, 0)).toBe(6);
    expect(smtp.received.map((m) => m.subject).sort()).toEqual([1, 2, 3, 4, 5, 6].map((n) => `Order ${n} confirmed`));
    const rows = await db.select().from(mailOutbox);
    expect(rows.every((r) => r.status === "sent" && r.attempts === 1)).toBe(true);
  });

  it("respects the batch limit", async () => {
    const mail = createMailService(db, { transport, from: FROM, log: recorder() });
    for (let n = 1; n <= 3; n++) await mail.enqueue(db, message(n));
    expect(await mail.deliverDue(2)).toEqual({ sent: 2, retried: 0, failed: 0 });
    // Oldest first.
    expect(smtp.received.map((m) => m.subject)).toEqual(["Order 1 confirmed", "Order 2 confirmed"]);
    expect(await mail.deliverDue(2)).toEqual({ sent: 1, retried: 0, failed: 0 });
  });

  it("sends at once when kicked, and stops cleanly", async () => {
    const mail = createMailService(db, { transport, from: FROM, log: recorder() });
    // A long interval: only the kick can deliver within the test.
    mail.start(60_000);
    try {
      await db.transaction((tx) => mail.enqueue(tx, message()));
      mail.kick();
      await vi.waitFor(() => expect(smtp.received).toHaveLength(1), { timeout: 5000 });
    } finally {
      await mail.stop();
    }
    expect((await db.select().from(mailOutbox))[0]).toMatchObject({ status: "sent" });
  });

  it("reschedules a message whose sending throws, and keeps running", async () => {
    const log = recorder();
    const broken: MailTransport = { send: () => Promise.reject(new Error("boom")), close() {} };
    const mail = createMailService(db, { transport: broken, from: FROM, log });
    await mail.enqueue(db, message());
    mail.start(60_000);
    await vi.waitFor(() => expect(log.warn).toHaveBeenCalledTimes(1));
    await mail.stop();
    expect((await db.select().from(mailOutbox))[0]).toMatchObject({ status: "pending", attempts: 1, lastError: "boom" });
  });

  it("logs a run that fails (database unreachable) instead of throwing", async () => {
    const log = recorder();
    // Every query the worker builds, whatever its shape, fails when it is sent.
    const refused = (_ok: unknown, fail: (error: Error) => void) => fail(new Error("connection refused"));
    const down: Db = new Proxy(() => {}, { get: (_target, key) => (key === "then" ? refused : down), apply: () => down }) as unknown as Db;
    const mail = createMailService(down, { transport, from: FROM, log });
    mail.start(60_000);
    await vi.waitFor(() => expect(log.error).toHaveBeenCalledWith({ error: "connection refused" }, expect.any(String)));
    await mail.stop();
  });
});

describe("retryDelayMs", () => {
  it("doubles from 30 seconds and stops at an hour", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map(retryDelayMs)).toEqual([
      30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, 3_600_000, 3_600_000,
    ]);
  });
});

describe("mail without SMTP_URL", () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), "tc-mail-"));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it("writes each message as an .eml file in DATA_DIR/mail and logs where", async () => {
    const log = recorder();
    const files = createMailTransport({ smtpUrl: undefined, dataDir }, log);
    const mail = createMailService(db, { transport: files, from: FROM, log: recorder() });
    await mail.enqueue(db, { ...message(), subject: "Reset your password" });

    expect(await mail.deliverDue()).toEqual({ sent: 1, retried: 0, failed: 0 });

    const names = readdirSync(path.join(dataDir, "mail"));
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^\d{4}-\d{2}-\d{2}T[\d-]+Z-[0-9a-f]{8}\.eml$/);
    const file = path.join(dataDir, "mail", names[0]!);
    const eml = readFileSync(file, "utf8");
    expect(eml).toContain("Subject: Reset your password");
    expect(eml).toContain("To: customer1@example.com");
    expect(eml).toContain("multipart/alternative");
    expect(log.info).toHaveBeenCalledWith(
      { path: file, to: "customer1@example.com", subject: "Reset your password" },
      expect.any(String),
    );
    files.close();
  });

  it("gives each message of a batch its own attachments, in order, and none to a message without", async () => {
    const files = createMailTransport({ smtpUrl: undefined, dataDir }, recorder());
    const mail = createMailService(db, { transport: files, from: FROM, log: recorder() });
    const pdf = (n: number) => Buffer.from(`%PDF-${n}`);
    await mail.enqueueAll(db, [
      { ...message(1), attachments: [{ filename: "A-1.pdf", contentType: "application/pdf", content: pdf(1) }, { filename: "A-2.pdf", contentType: "application/pdf", content: pdf(2) }] },
      message(2),
      { ...message(3), attachments: [{ filename: "C-1.pdf", contentType: "application/pdf", content: pdf(3) }] },
    ]);

    expect(await mail.deliverDue()).toEqual({ sent: 3, retried: 0, failed: 0 });

    const sent = readdirSync(path.join(dataDir, "mail")).map((name) => parseMessage(readFileSync(path.join(dataDir, "mail", name), "utf8")));
    const byText = (n: number) => sent.find((m) => m.text === `Thank you for order ${n}.`)!;
    expect(byText(1).attachments.map((a) => a.filename)).toEqual(["A-1.pdf", "A-2.pdf"]);
    expect(byText(1).attachments[1]!.content.equals(pdf(2))).toBe(true);
    expect(byText(2).attachments).toEqual([]);
    expect(byText(3).attachments.map((a) => a.filename)).toEqual(["C-1.pdf"]);
    files.close();
  });

  it("makes the mail folder again when it is removed while the shop runs", async () => {
    const files = createMailTransport({ smtpUrl: undefined, dataDir }, recorder());
    const mail = createMailService(db, { transport: files, from: FROM, log: recorder() });
    await mail.enqueue(db, message(1));
    expect(await mail.deliverDue()).toEqual({ sent: 1, retried: 0, failed: 0 });
    rmSync(path.join(dataDir, "mail"), { recursive: true });

    await mail.enqueue(db, message(2));
    expect(await mail.deliverDue()).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(readdirSync(path.join(dataDir, "mail"))).toHaveLength(1);
    files.close();
  });

  it("writes attachments into the .eml file", async () => {
    const files = createMailTransport({ smtpUrl: undefined, dataDir }, recorder());
    const mail = createMailService(db, { transport: files, from: FROM, log: recorder() });
    const pdf = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x2d, 0x00, 0xff, 0x80, 0x0a]);
    await mail.enqueue(db, { ...message(), attachments: [{ filename: "HA-000001.pdf", contentType: "application/pdf", content: pdf }] });

    expect(await mail.deliverDue()).toEqual({ sent: 1, retried: 0, failed: 0 });

    const [name] = readdirSync(path.join(dataDir, "mail"));
    const eml = parseMessage(readFileSync(path.join(dataDir, "mail", name!), "utf8"));
    expect(eml.text).toBe("Thank you for order 1.");
    expect(eml.attachments).toHaveLength(1);
    expect(eml.attachments[0]).toMatchObject({ filename: "HA-000001.pdf", contentType: "application/pdf" });
    expect(eml.attachments[0]!.content.equals(pdf)).toBe(true);
    files.close();
  });
});

describe("the worker's claim", () => {
  /** The index names in a JSON plan, wherever they stand in its tree. */
  function indexesOf(plan: unknown): string[] {
    if (Array.isArray(plan)) return plan.flatMap(indexesOf);
    if (plan === null || typeof plan !== "object") return [];
    return Object.entries(plan).flatMap(([key, value]) => (key === "Index Name" ? [String(value)] : indexesOf(value)));
  }

  it("finds the oldest due messages through the pending mail alone, however much has been sent", async () => {
    // A shop's history: thousands sent (each order sends two), a handful pending. Walking the primary key
    // past every sent message cost each claim 6 ms after a few thousand, and grew with the shop.
    await db.execute(sql`insert into mail_outbox ("to", subject, html, text, status, sent_at)
      select 'sent' || g || '@example.com', 'Sent', '<p>Sent</p>', 'Sent', 'sent', now() from generate_series(1, 5000) g`);
    const mail = createMailService(db, { transport, from: FROM, log: recorder() });
    const [id] = await mail.enqueueAll(db, [message(1)]);
    await db.execute(sql`analyze mail_outbox`);
    const result = (await db.execute(sql`explain (format json) ${oldestDueMail(db, new Date(Date.now() + 60_000), 20)}`)) as unknown as { rows: { "QUERY PLAN": unknown }[] };
    const plan = result.rows[0]!["QUERY PLAN"];
    expect(indexesOf(typeof plan === "string" ? JSON.parse(plan) : plan)).toEqual(["mail_outbox_pending_idx"]);
    // And the claim answers that message.
    const [due] = await oldestDueMail(db, new Date(Date.now() + 60_000), 20);
    expect(due?.id).toBe(id);
  });
});

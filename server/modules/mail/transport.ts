import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type { Config } from "../../config.ts";

/** One email, ready to hand over to SMTP. */
export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  attachments?: { filename: string; contentType: string; content: Buffer }[];
}

export interface MailTransport {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** The part of a pino logger the mail module uses. */
export interface MailLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

const TIMEOUT_MS = 10_000;

/**
 * SMTP when `smtpUrl` is set; otherwise each message is rendered as RFC 822 and
 * written to `${dataDir}/mail/*.eml`, so a shop without SMTP still shows what it would send.
 */
export function createMailTransport(config: Pick<Config, "smtpUrl" | "dataDir">, log: MailLog): MailTransport {
  return config.smtpUrl ? smtpTransport(config.smtpUrl) : fileTransport(path.join(config.dataDir, "mail"), log);
}

function smtpTransport(url: string): MailTransport {
  // A new connection per message (no pool): the outbox sends few mails, and a
  // stale pooled connection would only turn into a retry.
  const transporter = nodemailer.createTransport({
    url,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  });
  const secrets = credentialsOf(url);
  return {
    async send(message) {
      try {
        await transporter.sendMail(message);
      } catch (error) {
        // The error ends up in the outbox and the logs: never let the SMTP credentials go with it.
        throw new Error(redact(describe(error), secrets), { cause: error });
      }
    },
    close: () => transporter.close(),
  };
}

function fileTransport(dir: string, log: MailLog): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    async send(message) {
      const info = await transporter.sendMail(message);
      if (!Buffer.isBuffer(info.message)) throw new Error("the stream transport did not return a buffer");
      const stamp = new Date().toISOString().replace(/[:.]/g, "-");
      const file = path.join(dir, `${stamp}-${randomBytes(4).toString("hex")}.eml`);
      // The folder is made only when a write finds it missing (the first message, or after it was removed),
      // not before every message: a system call each.
      await writeFile(file, info.message).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") throw error;
        await mkdir(dir, { recursive: true });
        await writeFile(file, info.message);
      });
      log.info({ path: file, to: message.to, subject: message.subject }, "mail written to a file (SMTP_URL is not set)");
    },
    close: () => transporter.close(),
  };
}

/** "CODE: message" on one line, e.g. "EENVELOPE: Can't send mail - all recipients were rejected: 450 …". */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code;
  return (code ? `${code}: ${error.message}` : error.message).replace(/\s+/g, " ").trim();
}

function credentialsOf(url: string): string[] {
  try {
    const { password } = new URL(url);
    // Both the raw (percent-encoded) and decoded forms could appear in a message.
    // Too short a password would blank out ordinary letters; such a password is no secret anyway.
    return [password, safeDecode(password)].filter((s) => s.length >= 3);
  } catch {
    return [];
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function redact(text: string, secrets: string[]): string {
  return secrets.reduce((out, secret) => out.split(secret).join("***"), text);
}

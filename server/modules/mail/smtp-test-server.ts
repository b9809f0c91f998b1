import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/** A message as the SMTP server received it, with its parts decoded. */
export interface ReceivedMail {
  envelopeFrom: string;
  envelopeTo: string[];
  headers: Map<string, string>;
  subject: string;
  html: string | undefined;
  text: string | undefined;
  /** Parts sent as attachments, in order, decoded to their bytes. */
  attachments: { filename: string; contentType: string; content: Buffer }[];
  raw: string;
}

export interface TestSmtpServer {
  url: string;
  received: ReceivedMail[];
  /** While set, every recipient is refused with this temporary error. */
  refuse: string | undefined;
  /** Holds each DATA this long before accepting it, to keep a delivery in flight. */
  delayMs: number;
  /** Connections that failed, e.g. a sender killed in the middle of a message. */
  connectionErrors: Error[];
  /** Bytes of message data read so far, whole or not: a test knows a message has begun to arrive. */
  dataBytes: number;
  close(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1 and a free port (or `port`), for tests (no TLS, no auth). */
export async function startTestSmtpServer(port = 0): Promise<TestSmtpServer> {
  const state: TestSmtpServer = {
    url: "",
    received: [],
    refuse: undefined,
    delayMs: 0,
    connectionErrors: [],
    dataBytes: 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (!state.refuse) return callback();
      callback(Object.assign(new Error(state.refuse), { responseCode: 450 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => {
        chunks.push(chunk);
        state.dataBytes += chunk.length;
      });
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        setTimeout(() => {
          state.received.push({
            ...parseMessage(raw),
            envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            envelopeTo: session.envelope.rcptTo.map((r) => r.address),
          });
          callback();
        }, state.delayMs);
      });
    },
  });
  // A sender that dies in the middle of a message (a shop process killed mid-delivery) resets its
  // connection, and smtp-server reports it as an 'error' event: unheard, that would end the test's
  // process. A real mail server logs it and goes on serving; so does this one.
  server.on("error", (error: Error) => state.connectionErrors.push(error));
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  state.url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  return state;
}

/** Just enough MIME for what nodemailer writes: headers, nested multiparts, QP/base64, attachments. */
export function parseMessage(raw: string): Omit<ReceivedMail, "envelopeFrom" | "envelopeTo"> {
  const { headers, body } = splitEntity(raw);
  const leaves = (entity: { headers: Map<string, string>; body: string }): { headers: Map<string, string>; body: string }[] => {
    const type = entity.headers.get("content-type") ?? "text/plain";
    return type.startsWith("multipart/") ? splitMultipart(entity.body, boundaryOf(type)).flatMap(leaves) : [entity];
  };
  const parts = leaves({ headers, body });
  const isAttachment = (p: { headers: Map<string, string> }) => /^attachment/i.test(p.headers.get("content-disposition") ?? "");
  const partOf = (mime: string) => {
    const part = parts.find((p) => !isAttachment(p) && (p.headers.get("content-type") ?? "text/plain").startsWith(mime));
    return part && decodeBody(part.body, part.headers.get("content-transfer-encoding"));
  };
  return {
    headers,
    subject: decodeWords(headers.get("subject") ?? ""),
    html: partOf("text/html"),
    text: partOf("text/plain"),
    attachments: parts.filter(isAttachment).map((p) => ({
      filename: decodeWords(/filename="?([^";]+)"?/i.exec(p.headers.get("content-disposition") ?? "")?.[1] ?? ""),
      contentType: (p.headers.get("content-type") ?? "").split(";")[0]!.trim(),
      content: decodeBytes(p.body, p.headers.get("content-transfer-encoding")),
    })),
    raw,
  };
}

function splitEntity(raw: string): { headers: Map<string, string>; body: string } {
  const match = /\r?\n\r?\n/.exec(raw);
  const head = match ? raw.slice(0, match.index) : raw;
  const body = match ? raw.slice(match.index + match[0].length) : "";
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function boundaryOf(contentType: string): string {
  const match = /boundary="?([^";]+)"?/i.exec(contentType);
  if (!match?.[1]) throw new Error(`no boundary in ${contentType}`);
  return match[1];
}

function splitMultipart(body: string, boundary: string) {
  const sections = body.split(`--${boundary}`);
  // sections[0] is the preamble; the last one starts with "--" (the closing delimiter).
  return sections.slice(1, -1).map((s) => splitEntity(s.replace(/^\r?\n/, "").replace(/\r?\n$/, "")));
}

function decodeBody(body: string, encoding = "7bit"): string {
  switch (encoding.toLowerCase()) {
    case "quoted-printable":
      return Buffer.from(
        body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        "latin1",
      ).toString("utf8");
    case "base64":
      return Buffer.from(body, "base64").toString("utf8");
    default:
      return body;
  }
}

function decodeBytes(body: string, encoding = "7bit"): Buffer {
  return encoding.toLowerCase() === "base64" ? Buffer.from(body, "base64") : Buffer.from(decodeBody(body, encoding), "utf8");
}

/** RFC 2047 encoded words, e.g. "=?UTF-8?Q?Caf=C3=A9?=". */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([BQ])\?([^?]*)\?=/gi, (_, _charset: string, kind: string, data: string) =>
      kind.toUpperCase() === "B"
        ? Buffer.from(data, "base64").toString("utf8")
        : decodeBody(data.replace(/_/g, " "), "quoted-printable"),
    );
}

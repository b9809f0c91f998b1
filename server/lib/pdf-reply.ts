import type { FastifyReply } from "fastify";

/** Answers with a PDF under this file name, for the browser to show (`inline`) or to save (`attachment`). */
export function sendPdf<R extends FastifyReply>(reply: R, pdf: Buffer, filename: string, disposition: "inline" | "attachment" = "inline"): R {
  return reply.type("application/pdf").header("content-disposition", `${disposition}; filename="${filename}"`).send(pdf) as R;
}

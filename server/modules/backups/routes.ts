import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { messageResponse } from "../auth/contract.ts";
import { staffApi } from "../staff/admin-api.ts";
import type { BackupDesk } from "./desk.ts";

const errors = { 401: messageResponse, 403: messageResponse };
const backupJson = z.object({ name: z.string(), taken_at: z.string(), bytes: z.number().int(), sha256: z.string().nullable() });

export async function backupRoutes(app: FastifyInstance, options: { desk: BackupDesk }): Promise<void> {
  const api = staffApi(app, { tags: ["admin: backups"], errors });
  api.get(
    "/admin/backups",
    {
      summary: "The complete backups in BACKUP_DIR, newest first, with each one's sha256; the owner's alone (backups.download)",
      response: { 200: z.object({ data: z.array(backupJson) }) },
    },
    async (actor) => ({ data: await options.desk.list(actor) }),
  );

  api.get(
    "/admin/backups/latest",
    {
      summary: "The newest backup as a download (a tar file, streamed; its sha256 in X-Checksum-Sha256), audited; the owner's alone, signed in, never with an API token",
      produces: ["application/x-tar"],
    },
    async (actor, _request, reply) => {
      const latest = await options.desk.downloadLatest(actor);
      if (latest.sha256) reply.header("x-checksum-sha256", latest.sha256);
      return reply
        .type("application/x-tar")
        .header("content-length", latest.bytes)
        .header("content-disposition", `attachment; filename="${latest.name}"`)
        .header("cache-control", "no-store")
        .send(latest.stream);
    },
  );
}

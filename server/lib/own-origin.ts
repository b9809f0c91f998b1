import type { FastifyRequest } from "fastify";

/**
 * Whether a browser's `Origin` names this shop: its public origin, or the
 * origin the request was addressed to, written as a browser writes it (no
 * default port: `http://localhost`, never `http://localhost:80`).
 */
export function isOwnOrigin(request: FastifyRequest, origin: string, publicOrigin: string): boolean {
  if (origin === publicOrigin) return true;
  try {
    return origin === new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    return false;
  }
}

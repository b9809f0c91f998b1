import { createHash, timingSafeEqual } from "node:crypto";
import { BlockList, isIPv4 } from "node:net";
import type { FastifyRequest } from "fastify";

/** Loopback and the private networks: where a scraper on the shop's own network connects from. */
const PRIVATE = new BlockList();
PRIVATE.addSubnet("127.0.0.0", 8, "ipv4");
PRIVATE.addSubnet("10.0.0.0", 8, "ipv4");
PRIVATE.addSubnet("172.16.0.0", 12, "ipv4");
PRIVATE.addSubnet("192.168.0.0", 16, "ipv4");
PRIVATE.addAddress("::1", "ipv6");
PRIVATE.addSubnet("fc00::", 7, "ipv6");

export function isPrivateAddress(address: string): boolean {
  // An IPv4 client on a dual-stack socket shows as ::ffff:a.b.c.d.
  const plain = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
  try {
    return PRIVATE.check(plain, isIPv4(plain) ? "ipv4" : "ipv6");
  } catch {
    return false;
  }
}

/**
 * Every address a request names: the connecting peer and each hop of
 * X-Forwarded-For. Behind nginx the peer is loopback and the visitor is in the
 * header (deploy/nginx/proxy.conf sets it to $remote_addr), so the header must
 * be private too. A visitor who adds the header can only make the answer a
 * refusal, never an admission.
 */
function addressesOf(request: FastifyRequest): string[] {
  const forwarded = request.headers["x-forwarded-for"];
  const hops = (Array.isArray(forwarded) ? forwarded.join(",") : (forwarded ?? "")).split(",").map((a) => a.trim()).filter(Boolean);
  return [request.socket.remoteAddress ?? "", ...hops];
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/** `Authorization: Bearer <token>` matching METRICS_TOKEN, compared in constant time. */
function hasToken(request: FastifyRequest, token: string | undefined): boolean {
  if (!token) return false;
  const given = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? "")?.[1];
  return given !== undefined && timingSafeEqual(digest(given), digest(token));
}

/** /metrics is for the operator: a private network (every hop of the request), or the bearer token. */
export function mayReadMetrics(request: FastifyRequest, token: string | undefined): boolean {
  return hasToken(request, token) || addressesOf(request).every(isPrivateAddress);
}

import { randomFillSync } from "node:crypto";
import type { FastifyInstance } from "fastify";

declare module "fastify" {
  interface FastifyRequest {
    /** Per-request nonce for inline scripts the storefront renders. */
    cspNonce: string;
    /**
     * The nonce the page is rendered with: the same, unless the page cache
     * renders with a placeholder it swaps for `cspNonce` on the way out.
     */
    renderNonce: string;
  }
}

export interface SecurityHeaderOptions {
  isProduction: boolean;
  /** Hot reload needs inline and eval'd scripts and a websocket; only in development. */
  isDevServer: boolean;
  /** Extra origins the browser may call (API_BASE_URL when the API lives apart). */
  connectOrigins: string[];
}

export function contentSecurityPolicy(nonce: string, options: SecurityHeaderOptions): string {
  const script = options.isDevServer ? "'self' 'unsafe-inline' 'unsafe-eval'" : `'self' 'nonce-${nonce}'`;
  const connect = ["'self'", ...options.connectOrigins, ...(options.isDevServer ? ["ws:", "wss:"] : [])].join(" ");
  return [
    "default-src 'self'",
    `script-src ${script}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src ${connect}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(options.isProduction ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

// Random bytes for 256 nonces at a time: drawing each request's 16 bytes on its own cost 2% of a
// shop process's CPU under load (issue 35). Each nonce's bytes are used once.
const nonceBytes = Buffer.alloc(16 * 256);
let nonceAt = nonceBytes.length;

/** 16 random bytes in base64 (24 characters, as the page cache's copies leave room for). */
export function freshNonce(): string {
  if (nonceAt === nonceBytes.length) {
    randomFillSync(nonceBytes);
    nonceAt = 0;
  }
  nonceAt += 16;
  return nonceBytes.toString("base64", nonceAt - 16, nonceAt);
}

export function registerSecurityHeaders(app: FastifyInstance, options: SecurityHeaderOptions): void {
  app.decorateRequest("cspNonce", "");
  app.decorateRequest("renderNonce", "");
  app.addHook("onRequest", async (request) => {
    request.cspNonce = freshNonce();
    request.renderNonce = request.cspNonce;
  });
  app.addHook("onSend", async (request, reply) => {
    reply.header("content-security-policy", contentSecurityPolicy(request.cspNonce, options));
    reply.header("x-content-type-options", "nosniff");
    reply.header("x-frame-options", "DENY");
    reply.header("referrer-policy", "strict-origin-when-cross-origin");
    reply.header("cross-origin-opener-policy", "same-origin");
    // The branch finder may ask for the visitor's position (only when they press "Use my location"); no frame or other site may.
    reply.header("permissions-policy", "camera=(), microphone=(), geolocation=(self), payment=()");
    if (options.isProduction) reply.header("strict-transport-security", "max-age=31536000; includeSubDomains");
  });
}

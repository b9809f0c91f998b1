/**
 * Only paths on this site may be redirect targets: `/account`, not
 * `//evil.example`, `/\evil.example` or `https://evil.example`.
 */
export function safeRedirect(target: string | null | undefined, fallback = "/"): string {
  if (!target || typeof target !== "string") return fallback;
  if (!target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) return fallback;
  // Control characters and backslashes can be read as a scheme or host by some browsers.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  if (/[\u0000-\u001f\\]/.test(target)) return fallback;
  return target;
}

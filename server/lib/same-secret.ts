import { timingSafeEqual } from "node:crypto";

/** Two secrets (tokens, signatures) compared in constant time, so the time taken tells nothing of where they differ. */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

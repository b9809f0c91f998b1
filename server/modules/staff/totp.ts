import { generate, generateSecret, generateURI, verify } from "otplib";
import QRCode from "qrcode";

/** One step either side of now: a phone's clock 30 s out still signs in. */
const TOLERANCE_SECONDS = 30;

/** A fresh secret (160 bits, base32), as authenticator apps expect. */
export function newTotpSecret(): string {
  return generateSecret();
}

/** The otpauth:// address an authenticator app reads from the QR code. */
export function totpUri(secret: string, email: string, issuer: string): string {
  return generateURI({ issuer, label: email, secret });
}

/** The QR code of that address as an SVG (inline on the page: nothing to load, nothing for the CSP to allow). */
export function totpQrSvg(uri: string): Promise<string> {
  return QRCode.toString(uri, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
}

/**
 * The time step of a valid code, or null. `afterStep` is the last step this
 * member used: a code seen once is never accepted again (a replayed code).
 */
export async function checkTotp(secret: string, code: string, afterStep: number | null, now = Date.now()): Promise<number | null> {
  const token = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(token)) return null;
  const result = await verify({
    secret,
    token,
    epoch: Math.floor(now / 1000),
    epochTolerance: TOLERANCE_SECONDS,
    ...(afterStep !== null ? { afterTimeStep: afterStep } : {}),
  });
  // A TOTP verification names its time step (HOTP's result type, in the same union, has none).
  return result.valid && "timeStep" in result ? result.timeStep : null;
}

/** Today's code for a secret: for tests and the demo's own journeys only. */
export function currentTotp(secret: string, now = Date.now()): Promise<string> {
  return generate({ secret, epoch: Math.floor(now / 1000) });
}

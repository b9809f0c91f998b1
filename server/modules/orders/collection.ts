import { randomInt, timingSafeEqual } from "node:crypto";
import QRCode from "qrcode";
import { addDays } from "../hire/pricing.ts";
import { londonClock } from "../branches/hours.ts";

/**
 * Collecting an order at the counter (issue 30): when the order is ready the
 * customer is emailed a six-digit collection code with a QR code of it, and
 * the order is handed over only when the code they show matches. A branch's
 * scanner types what the QR holds (`TC-000123/482913`) into the same box, so
 * either form is accepted.
 */

/** A fresh six-digit code (leading zeros kept). */
export const newCollectionCode = () => String(randomInt(0, 1_000_000)).padStart(6, "0");

/** What the QR code holds: the order and its code, so a scan names the order too. */
export const collectionQrText = (orderNumber: string, code: string) => `${orderNumber}/${code}`;

/** The code a member typed or scanned, for this order: the six digits, or null when it is neither form. */
export function givenCode(orderNumber: string, given: string): string | null {
  const text = given.trim().toUpperCase().replace(/\s+/g, "");
  const scanned = /^([A-Z]+-\d+)\/(\d{6})$/.exec(text);
  if (scanned) return scanned[1] === orderNumber.toUpperCase() ? scanned[2]! : null;
  return /^\d{6}$/.test(text) ? text : null;
}

/** Whether what was shown is this order's code, compared in constant time. */
export function codeMatches(orderNumber: string, code: string, given: string): boolean {
  const digits = givenCode(orderNumber, given);
  return digits !== null && timingSafeEqual(Buffer.from(digits), Buffer.from(code));
}

/** The QR code as a PNG for the ready email's attachment. */
export function collectionQrPng(orderNumber: string, code: string): Promise<Buffer> {
  return QRCode.toBuffer(collectionQrText(orderNumber, code), { type: "png", errorCorrectionLevel: "M", margin: 2, width: 240 });
}

/** Days a ready collection is kept when its branch does not say (branches.hold_days). */
export const DEFAULT_HOLD_DAYS = 7;

/** The last London day a collection made ready at `readyAt` is kept: "Friday 4 December". */
export function keptUntil(readyAt: Date, holdDays: number): string {
  const date = addDays(londonClock(readyAt).date, holdDays);
  return new Date(`${date}T12:00:00Z`).toLocaleDateString("en-GB", { weekday: "long", day: "numeric", month: "long", timeZone: "UTC" });
}

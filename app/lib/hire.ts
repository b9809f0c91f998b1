// Hire shapes as the API carries them (pounds ex VAT), and the calendar-date
// helpers the hire screens share. Dates of hire are Europe/London calendar dates.
import type { HireCart as ServedHireCart } from "../../server/modules/hire/basket.ts";

export interface HireRates {
  day: number;
  weekend: number;
  week: number;
}

export interface HireImage {
  src: string;
  alt: string;
  /** A photo's size and AVIF/WebP renditions (ADR 0034); none for the drawn picture. */
  width?: number;
  height?: number;
  sources?: { type: string; srcset: string }[];
}

export interface HireCard {
  id: number;
  slug: string;
  name: string;
  category: { slug: string; name: string };
  image: HireImage | null;
  rates: HireRates;
  deposit: number;
  vat_rate: number;
  units: number;
}

export interface HireQuote {
  days: number;
  weekend_rate: boolean;
  hire_cost: number;
  vat: number;
  deposit: number;
  total: number;
  available: number;
  /** Units at other depots that can be moved to the depot for the dates (issue 30). */
  by_transfer?: number;
  quantity: number;
  depot?: { slug: string; name: string; town: string };
}

/** A line of the hire request basket, as the service answers it. */
export type { HireBasketItem } from "../../server/modules/hire/basket.ts";

/** The hire request basket as the API carries it; an empty one (before the first answer) has no depot yet. */
export type HireCart = Omit<ServedHireCart, "depot"> & { depot?: ServedHireCart["depot"] };

export interface HireBasketAnswer {
  success: boolean;
  message: string;
  errors: Record<string, string[]>;
  cart: HireCart;
}

export const EMPTY_HIRE_CART: HireCart = { items: [], totals: { hire_cost: 0, deposit: 0, vat: 0, total: 0 }, itemCount: 0 };

/** The section 8 hire messages. */
export const HIRE_MESSAGES = {
  fetch: "Failed to fetch hire request cart data.",
  add: "Failed to add hire item to request.",
  update: "Failed to update hire item quantity.",
  remove: "Failed to remove hire item from request.",
  clear: "Failed to clear hire request.",
} as const;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** True for a real calendar date `YYYY-MM-DD`. */
export function isCalendarDate(value: string | null | undefined): value is string {
  const m = DATE.exec(value ?? "");
  if (!m) return false;
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))).toISOString().slice(0, 10) === value;
}

export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d) + days * DAY_MS).toISOString().slice(0, 10);
}

let londonDay: Intl.DateTimeFormat | undefined;

/** Today's date in Europe/London, wherever the browser or server is. */
export function londonToday(now: Date = new Date()): string {
  // Built on first use: a time-zone formatter costs the browser's main thread
  // a few milliseconds, and most pages never ask.
  londonDay ??= new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London", year: "numeric", month: "2-digit", day: "2-digit" });
  return londonDay.format(now);
}

function utcDate(date: string): Date {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d));
}

// Calendar dates are written by hand rather than with Intl.DateTimeFormat,
// whose first use loads locale data on the browser's main thread. These are
// the words en-GB uses (hire.test.ts checks them against Intl).
const WEEKDAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;
const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"] as const;
const SHORT_MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sept", "Oct", "Nov", "Dec"] as const;

/** "23 Nov" from `YYYY-MM-DD`. */
export function formatDayMonth(date: string): string {
  const [, m, d] = date.split("-").map(Number) as [number, number, number];
  return `${d} ${SHORT_MONTHS[m - 1]}`;
}

/** "Mon, 23 Nov 2026". */
export function formatHireDate(date: string): string {
  if (!isCalendarDate(date)) return date;
  return `${WEEKDAY_NAMES[weekdayOf(date)]!.slice(0, 3)}, ${formatDayMonth(date)} ${date.slice(0, 4)}`;
}

/** "23 November 2026": a calendar date in a sentence (a quote's last day, say). */
export function formatLongDate(date: string): string {
  if (!isCalendarDate(date)) return date;
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return `${d} ${MONTH_NAMES[m - 1]} ${y}`;
}

/** "Monday, 23 November 2026", for screen readers. */
export function formatHireDateLong(date: string): string {
  if (!isCalendarDate(date)) return date;
  return `${WEEKDAY_NAMES[weekdayOf(date)]}, ${formatLongDate(date)}`;
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOf(date: string): number {
  return utcDate(date).getUTCDay();
}

/** A price in pounds with VAT added, rounded half-up to the penny. */
export function withVat(pounds: number, rate = 20): number {
  const pence = Math.round(pounds * 100);
  return (pence + Math.floor((pence * rate + 50) / 100)) / 100;
}

export function daysLabel(days: number): string {
  return `${days} ${days === 1 ? "day" : "days"}`;
}

// The promotions desk's plain logic (no React, no database): what a
// promotion gives in a few words, London wall-clock times to and from ISO,
// the form's fields as typed to the API's input, and a sample basket typed as
// `SKU quantity` lines. Unit-tested in promotions.test.ts beside it.
import type { PromotionJson } from "../../../server/modules/promotions/contract.ts";
import { formatPounds } from "../money.ts";

export type PromotionState = PromotionJson["state"];
export type PromotionKind = PromotionJson["kind"];

/** The statuses a member sets (the API's PROMOTION_STATUSES, without its zod schemas in the browser's bundle). */
export const PROMOTION_STATUSES = ["active", "paused", "ended"] as const satisfies readonly PromotionJson["status"][];
export type PromotionStatus = (typeof PROMOTION_STATUSES)[number];

export const promotionHref = (id: number) => `/admin/promotions/${id}`;

export const STATE_LABELS: Record<PromotionState, string> = {
  running: "Running",
  scheduled: "Scheduled",
  expired: "Expired",
  used_up: "Used up",
  paused: "Paused",
  ended: "Ended",
};

export const KIND_LABELS: Record<PromotionKind, string> = {
  percent: "Percentage off",
  amount: "Amount off",
  free_delivery: "Free delivery",
  multi_buy: "Multi-buy",
};

export const AUDIENCE_LABELS: Record<PromotionJson["audience"], string> = {
  all: "Everyone",
  consumer: "Consumers only",
  trade: "Trade accounts only",
};

/** What it gives, as the list says it: "10% off", "£5.00 off (ex VAT)", "3 for 2". */
export function promotionGives(p: Pick<PromotionJson, "kind" | "value" | "buy" | "multi_buy">): string {
  switch (p.kind) {
    case "percent":
      return `${p.value}% off`;
    case "amount":
      return `${formatPounds(p.value)} off (ex VAT)`;
    case "free_delivery":
      return "Free delivery";
    case "multi_buy": {
      const buy = p.buy ?? 0;
      if (p.multi_buy === "free") return `${buy} for ${buy - p.value}`;
      if (p.multi_buy === "percent") return `Buy ${buy}, ${p.value}% off`;
      return `${buy} for ${formatPounds(p.value)} (ex VAT)`;
    }
  }
}

/** Its uses: "3 of 100", or "3" with no limit. */
export const usesOf = (p: Pick<PromotionJson, "uses" | "max_uses">) => (p.max_uses === null ? String(p.uses) : `${p.uses} of ${p.max_uses}`);

const LONDON_PARTS = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

/** An instant as a `datetime-local` input shows it in London: `2026-12-01T09:00`. */
export function londonLocalOf(iso: string | null): string {
  if (!iso) return "";
  const parts = Object.fromEntries(LONDON_PARTS.formatToParts(new Date(iso)).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/**
 * A London wall-clock time as typed (`2026-12-01T09:00`) to an ISO instant
 * (`2026-12-01T09:00:00.000Z`); null when blank, "invalid" when it is not a
 * date and time. London's offset is read at the instant itself, so a summer
 * time is an hour earlier in UTC; a time the clocks skip counts as the hour after.
 */
export function isoOfLondonLocal(typed: string): string | null | "invalid" {
  const text = typed.trim();
  if (text === "") return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})$/.exec(text);
  if (!m) return "invalid";
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  const asUtc = Date.UTC(y, mo - 1, d, h, mi);
  const check = new Date(asUtc);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59) return "invalid";
  // London is UTC or UTC+1: the offset at the guess, then at the corrected instant.
  const offsetAt = (t: number) => Date.parse(`${londonLocalOf(new Date(t).toISOString())}:00Z`) - t;
  let at = asUtc - offsetAt(asUtc);
  at = asUtc - offsetAt(at);
  return new Date(at).toISOString();
}

/** The form's fields, as typed: what comes back beside its errors after a refusal. */
export interface PromotionFormValues {
  kind: PromotionKind;
  code: string;
  name: string;
  value: string;
  buy: string;
  multi_buy: "free" | "percent" | "price";
  min_spend: string;
  starts_at: string;
  ends_at: string;
  max_uses: string;
  max_uses_per_customer: string;
  audience: PromotionJson["audience"];
  stackable: boolean;
  /** SKUs, one a line or separated by commas. */
  product_skus: string;
  category_ids: number[];
  brand_ids: number[];
}

export const EMPTY_PROMOTION: PromotionFormValues = {
  kind: "percent",
  code: "",
  name: "",
  value: "",
  buy: "3",
  multi_buy: "free",
  min_spend: "",
  starts_at: "",
  ends_at: "",
  max_uses: "",
  max_uses_per_customer: "",
  audience: "all",
  stackable: false,
  product_skus: "",
  category_ids: [],
  brand_ids: [],
};

const KINDS: readonly PromotionKind[] = ["percent", "amount", "free_delivery", "multi_buy"];
const oneOf = <T extends string>(options: readonly T[], value: unknown, fallback: T): T => (options.includes(value as T) ? (value as T) : fallback);
const ids = (form: FormData, name: string) => [...new Set(form.getAll(name).slice(0, 200).map(Number).filter((n) => Number.isInteger(n) && n > 0))];

/** A stored promotion as the form shows it (its products by SKU). */
export function valuesOfPromotion(p: PromotionJson, skus: string[]): PromotionFormValues {
  const opt = (n: number | null) => (n === null ? "" : String(n));
  return {
    kind: p.kind,
    code: p.code ?? "",
    name: p.name,
    value: p.kind === "free_delivery" ? "" : String(p.value),
    buy: p.buy === null ? EMPTY_PROMOTION.buy : String(p.buy),
    multi_buy: p.multi_buy ?? "free",
    min_spend: p.min_spend ? p.min_spend.toFixed(2) : "",
    starts_at: londonLocalOf(p.starts_at),
    ends_at: londonLocalOf(p.ends_at),
    max_uses: opt(p.max_uses),
    max_uses_per_customer: opt(p.max_uses_per_customer),
    audience: p.audience,
    stackable: p.stackable,
    product_skus: skus.join("\n"),
    category_ids: p.applies_to.category_ids,
    brand_ids: p.applies_to.brand_ids,
  };
}

/** The form as posted, each field as typed (cut to a sane length). */
export function valuesFromForm(form: FormData): PromotionFormValues {
  const text = (name: string, max = 100) => String(form.get(name) ?? "").slice(0, max);
  return {
    kind: oneOf(KINDS, text("kind"), "percent"),
    code: text("code"),
    name: text("name"),
    value: text("value"),
    buy: text("buy"),
    multi_buy: oneOf(["free", "percent", "price"] as const, text("multi_buy"), "free"),
    min_spend: text("min_spend"),
    starts_at: text("starts_at"),
    ends_at: text("ends_at"),
    max_uses: text("max_uses"),
    max_uses_per_customer: text("max_uses_per_customer"),
    audience: oneOf(["all", "consumer", "trade"] as const, text("audience"), "all"),
    stackable: form.get("stackable") === "on",
    product_skus: text("applies_to.product_ids", 10_000),
    category_ids: ids(form, "applies_to.category_ids"),
    brand_ids: ids(form, "applies_to.brand_ids"),
  };
}

/** The SKUs typed, one a line or separated by commas or spaces. */
export const skusOf = (typed: string) => [...new Set(typed.split(/[\s,]+/).filter(Boolean))].slice(0, 200);

/**
 * The API's input from the form's values (numbers from what was typed, times
 * from London's clock), with the errors of what is not a number or a time
 * found here, by the API's field names. The fields a kind does not use are
 * not sent, so they cannot refuse it. The service checks the rest.
 */
export function promotionInputOf(v: PromotionFormValues, productIds: number[]): { input: Record<string, unknown>; errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  const number = (field: keyof PromotionFormValues, typed: string, message: string) => {
    const clean = typed.replace(/[£%,\s]/g, "");
    if (clean === "") return null;
    const n = Number(clean);
    if (!Number.isFinite(n)) errors[field] = [message];
    return n;
  };
  const time = (field: "starts_at" | "ends_at") => {
    const iso = isoOfLondonLocal(v[field]);
    if (iso === "invalid") errors[field] = ["Give a date and a time, such as 01/12/2026 09:00."];
    return iso === "invalid" ? null : iso;
  };
  const multiBuy = v.kind === "multi_buy";
  const value = v.kind === "free_delivery" ? null : number("value", v.value, "Give a number, such as 10.");
  const input: Record<string, unknown> = {
    kind: v.kind,
    code: multiBuy ? null : v.code.trim() || null,
    ...(v.name.trim() ? { name: v.name } : {}),
    ...(value !== null ? { value } : {}),
    buy: multiBuy ? number("buy", v.buy, "Give a whole number, such as 3.") : null,
    multi_buy: multiBuy ? v.multi_buy : null,
    min_spend: number("min_spend", v.min_spend, "Give an amount in pounds, such as 50.00.") ?? 0,
    starts_at: time("starts_at"),
    ends_at: time("ends_at"),
    max_uses: number("max_uses", v.max_uses, "Give a whole number, or leave it blank for no limit."),
    max_uses_per_customer: number("max_uses_per_customer", v.max_uses_per_customer, "Give a whole number, or leave it blank for no limit."),
    audience: v.audience,
    stackable: v.stackable,
    applies_to: { product_ids: productIds, category_ids: v.category_ids, brand_ids: v.brand_ids },
  };
  return { input, errors };
}

/** An error's path as the API names its field: `value`, `applies_to.product_ids`. */
export function fieldOfPath(path: readonly PropertyKey[]): string {
  return path[0] === "applies_to" && path.length > 1 ? `applies_to.${String(path[1])}` : String(path[0] ?? "form");
}

export interface PreviewLine {
  sku: string;
  quantity: number;
}

/** A sample basket typed as `SKU quantity` lines (quantity 1 when left out); the errors name the line. */
export function previewLinesOf(typed: string): { lines: PreviewLine[]; errors: string[] } {
  const lines: PreviewLine[] = [];
  const errors: string[] = [];
  typed
    .split(/\r?\n/)
    .slice(0, 100)
    .forEach((row, i) => {
      const parts = row.trim().split(/[\s,;×]+/).filter(Boolean);
      if (!parts.length) return;
      const quantity = parts[1] === undefined ? 1 : Number(parts[1].replace(/^x/i, ""));
      if (parts.length > 2 || !Number.isInteger(quantity) || quantity < 1 || quantity > 999) errors.push(`Line ${i + 1}: write a SKU and a whole number from 1 to 999, such as “DR-1001 3”.`);
      else lines.push({ sku: parts[0]!.slice(0, 64), quantity });
    });
  if (!lines.length && !errors.length) errors.push("Add at least one line: a SKU and how many.");
  return { lines, errors };
}

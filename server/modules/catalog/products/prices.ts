// Prices' plain rules, in a module with no database or validation library, so
// the back office's forms show and read prices exactly as the server does.

/** Pounds with at most 2 decimals, from integer pence. */
export const pounds = (pence: number) => Math.round(pence) / 100;

/** VAT is worked on the line and rounded half-up to the penny. */
export function incVat(pence: number, vatRate: number): number {
  return Math.floor((pence * (100 + vatRate) + 50) / 100);
}

/** Pounds as typed ("12.5", "£1,299.00") to pence; NaN when it is not an amount with at most 2 decimals. */
export function penceFrom(value: string | number): number {
  if (typeof value === "number") return Number.isFinite(value) && Math.abs(Math.round(value * 100) - value * 100) < 1e-6 ? Math.round(value * 100) : Number.NaN;
  const text = value.trim().replace(/^£/, "").replaceAll(",", "");
  if (!/^-?\d+(\.\d{1,2})?$/.test(text)) return Number.NaN;
  const [whole, fraction = ""] = text.replace("-", "").split(".");
  const pence = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  return text.startsWith("-") ? -pence : pence;
}

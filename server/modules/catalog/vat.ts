// The VAT rule, in a module of its own with no database code, so the back
// office's forms show inc-VAT prices exactly as the server works them out.

/** VAT is worked on the line and rounded half-up to the penny. */
export function incVat(pence: number, vatRate: number): number {
  return Math.floor((pence * (100 + vatRate) + 50) / 100);
}

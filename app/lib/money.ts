const gbp = new Intl.NumberFormat("en-GB", { style: "currency", currency: "GBP", minimumFractionDigits: 2 });

/** `£1,234.50` from integer pence. */
export function formatPence(pence: number): string {
  return gbp.format(pence / 100);
}

/** `£1,234.50` from pounds as the API carries them. */
export function formatPounds(pounds: number): string {
  return gbp.format(pounds);
}

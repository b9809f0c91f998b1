// Prices are formatted by hand, not with Intl.NumberFormat: the first currency
// formatter a browser builds loads ICU's currency data, which took 50–120 ms of
// main thread on a mid-range machine, on every page's first load. The output is
// what Intl gives for en-GB pounds (money.test.ts holds the two together).

/** `£1,234.50` from integer pence; `-£3.00` below zero. */
export function formatPence(pence: number): string {
  const whole = Math.round(Math.abs(pence));
  const sign = pence < 0 && whole > 0 ? "-" : "";
  const pounds = String(Math.floor(whole / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${sign}£${pounds}.${String(whole % 100).padStart(2, "0")}`;
}

/** `£1,234.50` from pounds as the API carries them (at most two decimals). */
export function formatPounds(pounds: number): string {
  return formatPence(Math.sign(pounds) * Math.round(Math.abs(pounds) * 100));
}

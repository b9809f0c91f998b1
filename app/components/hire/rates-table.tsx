import { type HireRates, withVat } from "../../lib/hire.ts";
import { formatPounds } from "../../lib/money.ts";
import { HeadRow } from "../head-row.tsx";

/** Day, weekend and week rates ex VAT with the inc-VAT figure beside, and the deposit (no VAT). */
export function RatesTable({ rates, deposit, vatRate }: { rates: HireRates; deposit: number; vatRate: number }) {
  const rows = [
    { label: "Day", note: "per day", value: rates.day },
    { label: "Weekend", note: "out Friday or Saturday, back Monday", value: rates.weekend },
    { label: "Week", note: "7 days", value: rates.week },
  ];
  return (
    <table className="w-full border-collapse text-left">
      <caption className="sr-only">Hire rates per unit</caption>
      <thead>
        <HeadRow className="border-b border-stone-300 text-sm text-stone-600" cells={[["Rate", "py-2 pr-2 font-semibold"], ["ex VAT", "whitespace-nowrap py-2 px-2 text-right font-semibold"], ["inc VAT", "whitespace-nowrap py-2 pl-2 text-right font-semibold"]]} />
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.label} className="border-b border-stone-200">
            <th scope="row" className="py-2 pr-2 font-semibold">
              {r.label}
              <span className="block text-sm font-normal text-stone-600">{r.note}</span>
            </th>
            <td className="py-2 px-2 text-right text-lg font-bold text-brand-800">{formatPounds(r.value)}</td>
            <td className="py-2 pl-2 text-right text-stone-700">{formatPounds(withVat(r.value, vatRate))}</td>
          </tr>
        ))}
        <tr>
          <th scope="row" className="py-2 pr-2 font-semibold">
            Deposit
            <span className="block text-sm font-normal text-stone-600">per unit, refundable</span>
          </th>
          <td className="py-2 px-2 text-right text-lg font-bold">{formatPounds(deposit)}</td>
          <td className="py-2 pl-2 text-right text-stone-700">no VAT</td>
        </tr>
      </tbody>
    </table>
  );
}

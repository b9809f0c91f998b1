// The stock desk's forms of SKU rows (deliveries, counts, adjustments, transfers):
// the rows as a table of inputs, read back from the form, and the service's
// row errors put back beside the rows they are about.
import { FieldError } from "./field-error.tsx";
import { HeadRow } from "../head-row.tsx";

/** Rows the forms offer: enough for a delivery note; more by sending again. */
export const ROWS = 8;

/** Rows of a form as the API takes them, blank rows left out; `at` is each one's row on the form. */
export function rowsOf(form: FormData, names: string[]) {
  const columns = names.map((n) => form.getAll(n).map((v) => String(v).trim()));
  const rows = columns[0]!.map((_, i) => ({ at: i, values: names.map((_, c) => columns[c]![i] ?? "") })).filter((row) => row.values.some((v) => v !== ""));
  return { values: rows.map((r) => r.values), at: rows.map((r) => r.at) };
}

/** The service's row errors (`lines.1.sku`, "Row 2: …") put back on the form's own rows, blank ones counted. */
export function onFormRows(errors: Record<string, string[]> | undefined, at: number[]) {
  if (!errors) return undefined;
  return Object.fromEntries(
    Object.entries(errors).map(([key, messages]) => {
      const match = /^(\w+)\.(\d+)\.(\w+)$/.exec(key);
      if (!match) return [key, messages];
      const row = at[Number(match[2])] ?? Number(match[2]);
      return [`${match[1]}.${row}.${match[3]}`, messages.map((m) => m.replace(/^Row \d+:/, `Row ${row + 1}:`))];
    }),
  );
}

export const whole = (value: string) => (/^-?\d{1,7}$/.test(value) ? Number(value) : Number.NaN);

export const control = "min-h-10 w-full rounded-md border border-stone-400 bg-white px-2 font-normal";

/** Rows of SKU and a number; a refused row keeps its message beside it. */
export function LineRows({ list, number, label, errors }: { list: string; number: string; label: string; errors: Record<string, string[]> | undefined }) {
  return (
    <table className="w-full text-sm">
      <thead>
        <HeadRow className="text-left" cells={[["SKU", "pb-1 font-semibold"], [label, "w-32 pb-1 pl-2 font-semibold"]]} />
      </thead>
      <tbody>
        {Array.from({ length: ROWS }, (_, i) => {
          const messages = [...(errors?.[`${list}.${i}.sku`] ?? []), ...(errors?.[`${list}.${i}.${number}`] ?? []), ...(errors?.[`${list}.${i}.quantity`] ?? []), ...(errors?.[`${list}.${i}.change`] ?? [])];
          const unique = [...new Set(messages)];
          return (
            <tr key={i} className="align-top">
              <td className="py-1">
                <input name="sku" aria-label={`Row ${i + 1} SKU`} aria-invalid={unique.length ? true : undefined} spellCheck={false} autoCapitalize="characters" className={`${control} font-mono`} />
                <FieldError messages={unique} className="mt-0.5 block" />
              </td>
              <td className="py-1 pl-2">
                <input name={number} aria-label={`Row ${i + 1} ${label.toLowerCase()}`} inputMode="numeric" className={control} />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

import type { ReactNode } from "react";
import { formatDate, formatDateTime, formatDay } from "../../lib/admin/format.ts";
import { formatPence, formatPounds } from "../../lib/money.ts";

/**
 * An amount of money in a table or a summary: `£1,234.50`, in figures of one
 * width so a column of them lines up (put it in a `numeric` column to align
 * it right). The API carries pounds, the services pence: give either.
 */
export function MoneyCell({ pounds, pence, className = "" }: ({ pounds: number; pence?: never } | { pence: number; pounds?: never }) & { className?: string }) {
  const text = pence === undefined ? formatPounds(pounds ?? 0) : formatPence(pence);
  return <span className={`whitespace-nowrap tabular-nums ${className}`}>{text}</span>;
}

/**
 * A date in London time, in a `time` element that carries the machine's value:
 * a calendar day (`2026-11-25`) as `25 Nov 2026`, an instant as the same with
 * its time unless `dateOnly`. Nothing given: a dash.
 */
export function DateCell({ value, dateOnly = false, className = "" }: { value: string | null | undefined; dateOnly?: boolean; className?: string }) {
  if (!value) return <span className={className}>—</span>;
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const text = day ? formatDay(value) : dateOnly ? formatDate(value) : formatDateTime(value);
  return (
    <time dateTime={value} className={`whitespace-nowrap tabular-nums ${className}`}>
      {text}
    </time>
  );
}

/**
 * A cell of a few lines (a customer's name, company and email; an item and
 * its units): the first as it is, each other one under it in grey; the empty
 * ones left out. One element, as a card's cell holds one; long words wrap.
 */
export function LinesCell({ first, rest, className = "" }: { first: ReactNode; rest: readonly ReactNode[]; className?: string }) {
  return (
    <span className={`min-w-0 [overflow-wrap:anywhere] ${className}`}>
      {first}
      {rest.map((line, i) =>
        line === null || line === undefined || line === false || line === "" ? null : (
          <span key={i} className="block text-stone-600">
            {line}
          </span>
        ),
      )}
    </span>
  );
}

import type { ReactNode } from "react";

/**
 * A titled box of a screen (a customer's details, an order's next steps, a
 * side note): a section named by its heading. `small` for a side column's
 * boxes; `anchor` for a link to it; `className` for its text size or grid place;
 * `empty`, the line said instead of its content when its list has nothing.
 */
export function Panel({ id, title, small = false, anchor, className = "", empty, children }: { id: string; title: ReactNode; small?: boolean; anchor?: string; className?: string; empty?: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={id} id={anchor} className={`rounded-lg border border-stone-200 bg-white p-4 ${className}`}>
      <h2 id={id} className={`mb-2 font-bold ${small ? "text-base" : "text-lg"}`}>
        {title}
      </h2>
      {empty ? <p className="text-sm text-stone-600">{empty}</p> : children}
    </section>
  );
}

/** The old web addresses of a product or hire item, each redirecting to it: nothing when it has none. */
export function OldAddresses({ base, slugs, what }: { base: string; slugs: readonly string[]; what: string }) {
  if (!slugs.length) return null;
  return (
    <Panel id="old-addresses" title="Old web addresses" small>
      <p className="mb-1 text-stone-700">Each redirects (301) to {what}:</p>
      <ul className="grid gap-1 font-mono text-xs">
        {slugs.map((s) => (
          <li key={s}>
            {base}/{s}
          </li>
        ))}
      </ul>
    </Panel>
  );
}

/**
 * A row of key figures (a balance, a limit, what is overdue), each a small box
 * with its name above its value, in figures of one width. An item's third
 * value is its value's test id.
 */
export function Figures({ items, className = "sm:grid-cols-3", testId, big = false }: { items: readonly (readonly [label: ReactNode, value: ReactNode, testId?: string])[]; className?: string; testId?: string; big?: boolean }) {
  return (
    <dl className={`mb-5 grid gap-3 ${className}`} data-testid={testId}>
      {items.map(([label, value, id], i) => (
        <div key={i} className="rounded-lg border border-stone-200 bg-white p-4">
          <dt className="text-sm text-stone-700">{label}</dt>
          <dd className={`font-bold tabular-nums ${big ? "text-xl" : "text-lg"}`} data-testid={id}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

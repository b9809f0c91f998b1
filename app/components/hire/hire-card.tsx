import { Link } from "react-router";
import type { HireCard as HireCardData } from "../../lib/hire.ts";
import { formatPounds } from "../../lib/money.ts";

/** One hire item in the listing: picture, name, "from £x/day", the other rates and the deposit. */
export function HireCard({ item }: { item: HireCardData }) {
  return (
    <article className="flex h-full flex-col overflow-hidden rounded-lg border border-stone-200 bg-white shadow-sm">
      <div className="aspect-[4/3] bg-stone-100">
        {item.image ? <img src={item.image.src} alt="" width={400} height={300} loading="lazy" className="h-full w-full object-contain p-3" /> : null}
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <p className="text-sm text-stone-600">{item.category.name}</p>
        <h2 className="text-lg font-semibold leading-snug">
          <Link to={`/hire/${item.slug}`} className="hover:underline focus-visible:underline">
            {item.name}
          </Link>
        </h2>
        <p className="text-xl font-bold text-brand-800">
          from {formatPounds(item.rates.day)}
          <span className="text-base font-semibold">/day</span> <span className="text-sm font-normal text-stone-600">ex VAT</span>
        </p>
        <dl className="mt-auto grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm text-stone-700">
          <dt>Weekend</dt>
          <dd className="text-right font-medium">{formatPounds(item.rates.weekend)}</dd>
          <dt>Week</dt>
          <dd className="text-right font-medium">{formatPounds(item.rates.week)}</dd>
          <dt>Deposit</dt>
          <dd className="text-right font-medium">{formatPounds(item.deposit)}</dd>
        </dl>
      </div>
    </article>
  );
}

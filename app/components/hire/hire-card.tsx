import { Link } from "react-router";
import type { HireCard as HireCardData } from "../../lib/hire.ts";
import { formatPounds } from "../../lib/money.ts";
import { Picture } from "../catalog/picture.tsx";

/** One hire item in the listing: picture, name, "from £x/day", the other rates and the deposit. */
export function HireCard({ item }: { item: HireCardData }) {
  return (
    <article className="relative grid h-full grid-cols-[6.5rem_1fr] overflow-hidden rounded-lg border border-stone-200 bg-white shadow-sm sm:flex sm:flex-col">
      {/* Phones: a small picture beside the details, so a screen holds several items. */}
      <div className="bg-stone-100">
        {item.image ? <Picture image={item.image} alt="" sizes="(min-width: 640px) 400px, 104px" width={400} height={300} className="aspect-square w-full object-contain p-2 sm:aspect-auto sm:h-44 sm:p-3" /> : null}
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-2 p-3 sm:p-4">
        <p className="text-sm text-stone-600">{item.category.name}</p>
        <h2 className="font-semibold leading-snug sm:text-lg">
          <Link to={`/hire/${item.slug}`} className="after:absolute after:inset-0 after:content-[''] hover:underline focus-visible:underline">
            {item.name}
          </Link>
        </h2>
        <p className="text-lg font-bold text-brand-800 sm:text-xl">
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

import type { ReturnPhotoJson } from "../../../server/modules/returns/photos/rows.ts";

/**
 * The photos a customer attached to a return (issue 31), as thumbnails each
 * linking to its larger size: on the customer's order page and the returns
 * desk's return page alike. The URLs are the routes that check who asks.
 */
export function ReturnPhotos({ photos, whose, testId }: { photos: ReturnPhotoJson[]; whose: "yours" | "customer's"; testId?: string }) {
  if (!photos.length) return null;
  const alt = (i: number, caption: string) => `${whose === "yours" ? "Your photo" : "Photo"} ${i + 1}${whose === "yours" ? "" : " from the customer"}${caption ? `: ${caption}` : ""}`;
  return (
    <ul className="grid max-w-2xl grid-cols-2 gap-3 sm:grid-cols-4" data-testid={testId}>
      {photos.map((p, i) => (
        <li key={p.id} className="grid content-start gap-1">
          <a href={p.url} className="block rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700" aria-label={`${alt(i, p.caption)} (opens the larger photo)`}>
            <img src={p.thumbnail_url} alt={alt(i, p.caption)} width={320} height={Math.round((320 * p.height) / p.width)} loading="lazy" className="aspect-[4/3] w-full rounded-md border border-stone-200 bg-stone-100 object-cover" />
          </a>
          {p.caption ? <span className="text-sm text-stone-700 [overflow-wrap:anywhere]">{p.caption}</span> : null}
        </li>
      ))}
    </ul>
  );
}

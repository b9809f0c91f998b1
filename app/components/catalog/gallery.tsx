import { Link, useSearchParams } from "react-router";
import { Picture, type PictureImage } from "./picture.tsx";

export type GalleryImage = PictureImage;

/** The main picture's slot: the page's left column on desktops, the full width on phones. */
export const GALLERY_SIZES = "(min-width: 1024px) 600px, 100vw";

/** Which picture the address asks for (`?image=2`), counted from 1; the first when it asks for none or nonsense. */
export function chosenImage(search: URLSearchParams, count: number): number {
  const raw = search.get("image") ?? "1";
  const n = /^\d{1,2}$/.test(raw) ? Number(raw) : 1;
  return n >= 1 && n <= count ? n - 1 : 0;
}

/**
 * The main picture and thumbnails. Each thumbnail is a link to `?image=N`, so
 * the gallery works without scripts (the server renders the chosen picture);
 * with scripts it is a client navigation that the product route does not
 * reload data for (see its shouldRevalidate).
 */
export function Gallery({ images, name }: { images: GalleryImage[]; name: string }) {
  const [search] = useSearchParams();
  if (images.length === 0) {
    return (
      <div className="flex aspect-[4/3] w-full sm:aspect-square items-center justify-center rounded-lg bg-stone-100 text-stone-600" data-testid="gallery">
        No picture of {name} yet
      </div>
    );
  }
  const index = chosenImage(search, images.length);
  const main = images[index]!;
  return (
    <div data-testid="gallery">
      <div className="overflow-hidden rounded-lg border border-stone-200 bg-white">
        <Picture key={main.src} image={main} alt={main.alt || name} sizes={GALLERY_SIZES} width={600} height={600} priority="high" className="aspect-[4/3] w-full object-contain sm:aspect-square" testId="gallery-main" />
      </div>
      {images.length > 1 ? (
        <ul className="mt-3 flex flex-wrap gap-2" aria-label={`Pictures of ${name}`}>
          {images.map((image, i) => (
            <li key={image.src}>
              <Link
                to={{ search: i === 0 ? "" : `?image=${i + 1}` }}
                replace
                preventScrollReset
                aria-current={i === index ? "true" : undefined}
                aria-label={`Show picture ${i + 1} of ${images.length}`}
                className={`block overflow-hidden rounded-md border-2 ${i === index ? "border-brand-700" : "border-stone-200 hover:border-stone-400"}`}
              >
                <Picture image={image} alt="" sizes="80px" width={80} height={80} className="size-16 object-cover sm:size-20" />
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

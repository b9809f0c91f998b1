/** An image entry as the catalogue sends it: the drawn SVG has `src` and `alt`; a photo also its size and AVIF/WebP renditions (ADR 0034). */
export interface PictureImage {
  src: string;
  alt: string;
  width?: number;
  height?: number;
  sources?: { type: string; srcset: string }[];
}

export interface PictureProps {
  image: PictureImage;
  alt: string;
  /** The slot's width in CSS pixels at each breakpoint, as `sizes` takes it. */
  sizes: string;
  /** The box the layout holds when the entry has no size of its own (the drawn SVG). */
  width: number;
  height: number;
  /** Above the fold: loaded at once (and `high` for the page's main picture); below it, lazily. */
  priority?: "high" | "eager" | "lazy";
  className?: string;
  /** `data-testid` of the `<img>`. */
  testId?: string;
}

/**
 * `<picture>` with AVIF then WebP `<source srcset sizes>` for a photo, a plain
 * `<img>` for the drawn SVG. Width and height hold the layout while it loads.
 * Server-rendered, no state, no effects: nothing added to the first-load script.
 */
export function Picture({ image, alt, sizes, width, height, priority = "lazy", className, testId }: PictureProps) {
  const img = (
    <img
      src={image.src}
      alt={alt}
      width={image.width ?? width}
      height={image.height ?? height}
      loading={priority === "lazy" ? "lazy" : "eager"}
      decoding={priority === "lazy" ? "async" : undefined}
      fetchPriority={priority === "high" ? "high" : undefined}
      className={className}
      data-testid={testId}
    />
  );
  if (!image.sources?.length) return img;
  return (
    <picture>
      {image.sources.map((s) => (
        <source key={s.type} type={s.type} srcSet={s.srcset} sizes={sizes} />
      ))}
      {img}
    </picture>
  );
}

/**
 * The preload of a page's main photo, as a `meta` descriptor (`links` cannot
 * read loader data): the first source's renditions (AVIF, which every browser
 * that reads `imagesrcset` also shows), so the browser fetches the file the
 * `<picture>` will choose before it meets it. Nothing for the drawn SVG.
 */
export function preloadMeta(image: PictureImage | undefined, sizes: string) {
  const first = image?.sources?.[0];
  if (!image || !first) return [];
  return [{ tagName: "link", rel: "preload", as: "image", type: first.type, imageSrcSet: first.srcset, imageSizes: sizes, fetchPriority: "high" }];
}

/** One format of a photo at several widths, as `<source type srcset>` takes it. */
export interface ImageSource {
  type: "image/avif" | "image/webp";
  /** `/media/photos/{id}/320w-{hash}.avif 320w, …`: hashed, immutable URLs. */
  srcset: string;
}

/**
 * An entry of a product's or hire item's `images` (jsonb). `src` and `alt`
 * are all the drawn SVG fallback has, and all an older reader needs; a photo
 * (ADR 0034) also has its id, its intrinsic size and its renditions, and
 * `src` is then its middle-sized WebP.
 */
export interface ProductImage {
  src: string;
  alt: string;
  /** A photo's id, unique within the shop; none for the drawn fallback. */
  id?: string;
  width?: number;
  height?: number;
  sources?: ImageSource[];
}

/** The photos whose alt text is still empty: a product may not be published with any (issue 20). */
export function missingAltText(images: readonly ProductImage[]): ProductImage[] {
  return images.filter((image) => image.alt.trim() === "");
}

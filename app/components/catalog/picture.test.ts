// The storefront's pictures as the server renders them: a photo as <picture>
// with AVIF then WebP sources, the drawn SVG as a plain <img>, the gallery's
// first photo at high priority and the product page's preload of it.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { GALLERY_SIZES, Gallery } from "./gallery.tsx";
import { Picture, preloadMeta } from "./picture.tsx";

const photo = {
  src: "/media/photos/abcdefabcdef/960w-0123456789abcdef.webp",
  alt: "Drill, side view",
  width: 1600,
  height: 1200,
  sources: [
    { type: "image/avif", srcset: "/media/photos/abcdefabcdef/320w-aa.avif 320w, /media/photos/abcdefabcdef/1600w-bb.avif 1600w" },
    { type: "image/webp", srcset: "/media/photos/abcdefabcdef/320w-cc.webp 320w, /media/photos/abcdefabcdef/1600w-dd.webp 1600w" },
  ],
};
const drawn = { src: "/images/products/drill/1.svg", alt: "Drill" };

describe("Picture", () => {
  it("renders a photo as <picture> with AVIF first, WebP next, sizes, and the WebP <img> holding its size, lazily", () => {
    const html = renderToStaticMarkup(createElement(Picture, { image: photo, alt: "Drill", sizes: "50vw", width: 300, height: 300 }));
    expect(html).toBe(
      '<picture><source type="image/avif" srcSet="/media/photos/abcdefabcdef/320w-aa.avif 320w, /media/photos/abcdefabcdef/1600w-bb.avif 1600w" sizes="50vw"/>' +
        '<source type="image/webp" srcSet="/media/photos/abcdefabcdef/320w-cc.webp 320w, /media/photos/abcdefabcdef/1600w-dd.webp 1600w" sizes="50vw"/>' +
        '<img src="/media/photos/abcdefabcdef/960w-0123456789abcdef.webp" alt="Drill" width="1600" height="1200" loading="lazy" decoding="async"/></picture>',
    );
  });

  it("renders the drawn SVG as a plain <img> with the box it is given", () => {
    const html = renderToStaticMarkup(createElement(Picture, { image: drawn, alt: "Drill", sizes: "50vw", width: 300, height: 300, priority: "eager" }));
    expect(html).not.toContain("<picture>");
    expect(html).toContain('<img src="/images/products/drill/1.svg" alt="Drill" width="300" height="300" loading="eager"/>');
  });

  it("preloads a page's first photo with its AVIF srcset, and nothing for the drawn SVG", () => {
    expect(preloadMeta(photo, GALLERY_SIZES)).toEqual([{ tagName: "link", rel: "preload", as: "image", type: "image/avif", imageSrcSet: photo.sources[0]!.srcset, imageSizes: GALLERY_SIZES, fetchPriority: "high" }]);
    expect(preloadMeta(drawn, GALLERY_SIZES)).toEqual([]);
    expect(preloadMeta(undefined, GALLERY_SIZES)).toEqual([]);
  });
});

describe("the gallery", () => {
  it("shows the first photo at high priority and the thumbnails lazily", () => {
    const html = renderToStaticMarkup(createElement(MemoryRouter, null, createElement(Gallery, { images: [photo, drawn], name: "Drill" })));
    expect(html).toMatch(/^<div data-testid="gallery"><div [^>]*><picture><source type="image\/avif"/);
    expect(html).toContain('alt="Drill, side view" width="1600" height="1200" loading="eager" fetchPriority="high" class="aspect-[4/3] w-full object-contain sm:aspect-square" data-testid="gallery-main"/></picture>');
    expect(html).toContain('sizes="80px"');
    expect(html.match(/loading="lazy"/g)).toHaveLength(2);
  });
});

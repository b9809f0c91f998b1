import type { MetaDescriptor } from "react-router";
import { appNameFrom, pageMeta } from "../meta.ts";
import { type ListingState, canonicalListingPath, isPlainListing } from "./listing-query.ts";

type Match = Parameters<typeof appNameFrom>[0][number];

export interface Seo {
  title: string;
  description: string;
  /** The request's origin, from the loader: `https://shop.example`. */
  origin: string;
  /** The canonical path and query: `/category/power-tools?page=2`. */
  path: string;
  /** A site path or absolute URL. */
  image?: string | null;
  type?: "website" | "product";
  /** Filtered, sorted and search listings: followed, not indexed. */
  noindex?: boolean;
  /** schema.org objects. */
  jsonLd?: object[];
}

export function absoluteUrl(origin: string, path: string): string {
  return new URL(path, origin).href;
}

/**
 * Title and description (pageMeta), the canonical link, Open Graph tags and
 * JSON-LD. React Router renders each `script:ld+json` descriptor as
 * <script type="application/ld+json"> with `<`, `>` and `&` escaped as \u003c…,
 * so no value can close the script element. It is data, never executed, so
 * the Content-Security-Policy's script nonce does not apply to it.
 */
export function seoMeta(matches: readonly Match[], seo: Seo): MetaDescriptor[] {
  const url = absoluteUrl(seo.origin, seo.path);
  const out: MetaDescriptor[] = [
    ...pageMeta(matches, seo.title, seo.description),
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: appNameFrom(matches) },
    { property: "og:title", content: seo.title },
    { property: "og:description", content: seo.description },
    { property: "og:type", content: seo.type ?? "website" },
    { property: "og:url", content: url },
    { property: "og:locale", content: "en_GB" },
  ];
  if (seo.image) out.push({ property: "og:image", content: absoluteUrl(seo.origin, seo.image) });
  if (seo.noindex) out.push({ name: "robots", content: "noindex, follow" });
  for (const data of seo.jsonLd ?? []) out.push({ "script:ld+json": data });
  return out;
}

/**
 * A listing's meta (all products, a category, a brand): its name with the page
 * number after the first, the page's canonical address, noindex once filtered
 * or sorted, and its breadcrumbs' structured data where it has breadcrumbs.
 */
export function listingSeoMeta(
  matches: readonly Match[],
  { name, description, origin, basePath, listing, image, crumbs }: { name: string; description: string; origin: string; basePath: string; listing: { page: number; state: ListingState }; image?: string | null; crumbs?: Crumb[] },
): MetaDescriptor[] {
  return seoMeta(matches, {
    title: `${name}${listing.page > 1 ? ` (page ${listing.page})` : ""}`,
    description,
    origin,
    path: canonicalListingPath(basePath, listing.page),
    image,
    noindex: !isPlainListing(listing.state),
    ...(crumbs ? { jsonLd: [breadcrumbJsonLd(origin, crumbs, basePath)] } : {}),
  });
}

export interface Crumb {
  label: string;
  to?: string;
}

/** schema.org BreadcrumbList from the page's breadcrumbs (the current page has no link). */
export function breadcrumbJsonLd(origin: string, crumbs: Crumb[], currentPath: string): object {
  return {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: crumbs.map((c, i) => ({
      "@type": "ListItem",
      position: i + 1,
      name: c.label,
      item: absoluteUrl(origin, c.to ?? currentPath),
    })),
  };
}

export interface ProductForJsonLd {
  name: string;
  sku: string;
  slug: string;
  summary: string;
  price: number;
  in_stock: boolean;
  manufacturer: { name: string } | null;
  images: { src: string }[];
}

/** schema.org Product with one Offer: the inc-VAT price in GBP and whether it is in stock. */
export function productJsonLd(origin: string, p: ProductForJsonLd): object {
  const url = absoluteUrl(origin, `/product/${p.slug}`);
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    name: p.name,
    sku: p.sku,
    description: p.summary,
    url,
    image: p.images.map((i) => absoluteUrl(origin, i.src)),
    ...(p.manufacturer ? { brand: { "@type": "Brand", name: p.manufacturer.name } } : {}),
    offers: {
      "@type": "Offer",
      url,
      priceCurrency: "GBP",
      price: p.price.toFixed(2),
      availability: p.in_stock ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
      itemCondition: "https://schema.org/NewCondition",
      priceSpecification: { "@type": "PriceSpecification", price: p.price.toFixed(2), priceCurrency: "GBP", valueAddedTaxIncluded: true },
    },
  };
}

/** A short list for a description: "Bosch, DeWalt, Makita and more". */
export function listOfNames(names: string[], max = 3): string {
  const shown = names.slice(0, max);
  if (names.length > max) return `${shown.join(", ")} and more`;
  if (shown.length <= 1) return shown.join("");
  return `${shown.slice(0, -1).join(", ")} and ${shown[shown.length - 1]}`;
}

export interface VariantForJsonLd {
  sku: string;
  options: Record<string, string>;
  price: number;
  in_stock: boolean;
  barcode: string | null;
  images: { src: string }[];
}

/**
 * schema.org ProductGroup for a product with options: each variant a Product
 * with its own SKU, GTIN, address and Offer, and the options it varies by.
 */
export function productGroupJsonLd(origin: string, p: ProductForJsonLd & { options: { name: string }[]; variants: VariantForJsonLd[] }): object {
  const base = `/product/${p.slug}`;
  return {
    "@context": "https://schema.org",
    "@type": "ProductGroup",
    name: p.name,
    description: p.summary,
    url: absoluteUrl(origin, base),
    productGroupID: p.sku,
    ...(p.manufacturer ? { brand: { "@type": "Brand", name: p.manufacturer.name } } : {}),
    variesBy: p.options.map((o) => o.name),
    hasVariant: p.variants.map((v) => {
      const url = absoluteUrl(origin, `${base}?variant=${encodeURIComponent(v.sku)}`);
      const values = Object.values(v.options).join(", ");
      return {
        "@type": "Product",
        name: values ? `${p.name} (${values})` : p.name,
        sku: v.sku,
        ...(v.barcode ? { gtin: v.barcode } : {}),
        url,
        image: (v.images.length ? v.images : p.images).map((i) => absoluteUrl(origin, i.src)),
        additionalProperty: Object.entries(v.options).map(([name, value]) => ({ "@type": "PropertyValue", name, value })),
        offers: {
          "@type": "Offer",
          url,
          priceCurrency: "GBP",
          price: v.price.toFixed(2),
          availability: v.in_stock ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
          itemCondition: "https://schema.org/NewCondition",
        },
      };
    }),
  };
}

import { describe, expect, it } from "vitest";
import { pageWindow } from "../../components/catalog/pagination.tsx";
import { parseListingQuery } from "./listing-parse.ts";
import { attributeFilters, canonicalListingPath, isPlainListing, listingSearch, withChanges } from "./listing-query.ts";
import { breadcrumbJsonLd, listOfNames, listingSeoMeta, productJsonLd } from "./seo.ts";

const parse = (qs: string) => parseListingQuery(new URLSearchParams(qs));

describe("parseListingQuery", () => {
  it("reads brands (repeated or comma-separated), attributes, prices, stock, sort and page", () => {
    const { state, problems } = parse("manufacturer=2&manufacturer=3,4&attr=Voltage:18V&attr=Chuck size:13mm&price_min=10&price_max=99.5&in_stock=1&sort=price_asc&page=3");
    expect(problems).toEqual([]);
    expect(state).toEqual({
      manufacturer: [2, 3, 4],
      attr: ["Voltage:18V", "Chuck size:13mm"],
      opt: [],
      priceMin: 10,
      priceMax: 99.5,
      inStock: true,
      sort: "price_asc",
      page: 3,
    });
  });

  it("opens with defaults and ignores the empty fields a GET form sends", () => {
    const { state, problems } = parse("price_min=&price_max=&manufacturer=&attr=");
    expect(problems).toEqual([]);
    expect(state).toEqual({ manufacturer: [], attr: [], opt: [], priceMin: undefined, priceMax: undefined, inStock: false, sort: "relevance", page: 1 });
  });

  it("leaves out what it cannot use and says what, never throwing", () => {
    const { state, problems } = parse("manufacturer=abc&attr=nocolon&price_min=-5&price_max=lots&in_stock=maybe&sort=cheapest&page=0");
    expect(state).toEqual({ manufacturer: [], attr: [], opt: [], priceMin: undefined, priceMax: undefined, inStock: false, sort: "relevance", page: 1 });
    expect(problems).toHaveLength(7);
    expect(parse("page=501").state.page).toBe(1);
    expect(parse("page=1e3").problems).toEqual(["page “1e3”"]);
  });

  it("swaps a lowest price above the highest", () => {
    const { state } = parse("price_min=200&price_max=50");
    expect([state.priceMin, state.priceMax]).toEqual([50, 200]);
  });

  it("reads option values as Name:Value, and writes them back in the address", () => {
    const { state } = parse("opt=Length:3.0 m&opt=Length:4.8 m&opt=nocolon");
    expect(state.opt).toEqual(["Length:3.0 m", "Length:4.8 m"]);
    expect(listingSearch(state)).toBe("?opt=Length%3A3.0+m&opt=Length%3A4.8+m");
    expect(attributeFilters(state.opt)).toEqual({ Length: ["3.0 m", "4.8 m"] });
  });

  it("caps brands and attributes as the API does", () => {
    const many = Array.from({ length: 25 }, (_, i) => `attr=A${i}:v`).join("&");
    const { state, problems } = parse(many);
    expect(state.attr).toHaveLength(20);
    expect(problems).toHaveLength(1);
  });
});

describe("listing addresses", () => {
  const state = parse("attr=Voltage:18V&manufacturer=2&sort=price_asc&page=2").state;

  it("writes the state back in one stable order, leaving out defaults", () => {
    expect(listingSearch(state)).toBe("?manufacturer=2&attr=Voltage%3A18V&sort=price_asc&page=2");
    expect(listingSearch(parse("").state)).toBe("");
    expect(parseListingQuery(new URLSearchParams(listingSearch(state))).state).toEqual(state);
  });

  it("goes back to page 1 on any change but the page", () => {
    expect(withChanges(state, { inStock: true }).page).toBe(1);
    expect(withChanges(state, { page: 4 }).page).toBe(4);
  });

  it("indexes only plain listings, by path and page", () => {
    expect(isPlainListing(state)).toBe(false);
    expect(isPlainListing(parse("page=3").state)).toBe(true);
    expect(canonicalListingPath("/products", 1)).toBe("/products");
    expect(canonicalListingPath("/products", 3)).toBe("/products?page=3");
  });

  it("groups attribute pairs by name, splitting at the first colon", () => {
    expect(attributeFilters(["Voltage:18V", "Voltage:12V", "Ratio:1:2"])).toEqual({ Voltage: ["18V", "12V"], Ratio: ["1:2"] });
  });

  // Found by probing pages after the hostile-input tests (issue 9): `/products?attr=__proto__:x` answered 500.
  it("takes __proto__ and constructor as attribute names like any other", () => {
    expect(Object.entries(attributeFilters(["__proto__:x", "constructor:y", "constructor:z"]))).toEqual([
      ["__proto__", ["x"]],
      ["constructor", ["y", "z"]],
    ]);
  });
});

describe("pageWindow", () => {
  it("shows the ends and the neighbours, with gaps", () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 5)).toEqual([1, 2, "gap", 5]);
    expect(pageWindow(3, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(7, 14)).toEqual([1, "gap", 6, 7, 8, "gap", 14]);
    expect(pageWindow(14, 14)).toEqual([1, "gap", 13, 14]);
  });
});

describe("structured data", () => {
  it("describes a product with one offer in GBP, inc VAT, and its availability", () => {
    const data = productJsonLd("https://shop.example", {
      name: "Drill",
      sku: "D-1",
      slug: "drill",
      summary: "A drill",
      price: 118.8,
      in_stock: false,
      manufacturer: { name: "Makita" },
      images: [{ src: "/images/products/drill/1.svg" }],
    }) as { offers: Record<string, unknown>; image: string[]; brand: unknown };
    expect(data.offers).toMatchObject({ "@type": "Offer", priceCurrency: "GBP", price: "118.80", availability: "https://schema.org/OutOfStock" });
    expect(data.image).toEqual(["https://shop.example/images/products/drill/1.svg"]);
    expect(data.brand).toEqual({ "@type": "Brand", name: "Makita" });
  });

  it("numbers breadcrumbs from 1 with absolute URLs", () => {
    const data = breadcrumbJsonLd("https://shop.example", [{ label: "Home", to: "/" }, { label: "Drills" }], "/category/drills") as {
      itemListElement: { position: number; item: string }[];
    };
    expect(data.itemListElement.map((i) => [i.position, i.item])).toEqual([
      [1, "https://shop.example/"],
      [2, "https://shop.example/category/drills"],
    ]);
  });

  it("gives a listing's later page its number, its own canonical address and breadcrumbs, and keeps a filtered listing out of the index", () => {
    const plain = parse("page=2").state;
    const meta = listingSeoMeta([], { name: "Drills", description: "12 drills.", origin: "https://shop.example", basePath: "/category/drills", listing: { page: 2, state: plain }, crumbs: [{ label: "Home", to: "/" }, { label: "Drills" }] });
    expect(meta).toContainEqual({ title: "Drills (page 2) | Tradecounter" });
    expect(meta).toContainEqual({ tagName: "link", rel: "canonical", href: "https://shop.example/category/drills?page=2" });
    expect(meta.some((m) => "script:ld+json" in m)).toBe(true);
    expect(meta.some((m) => "name" in m && m.name === "robots")).toBe(false);
    const filtered = listingSeoMeta([], { name: "All products", description: "All.", origin: "https://shop.example", basePath: "/products", listing: { page: 1, state: parse("sort=price_asc").state } });
    expect(filtered).toContainEqual({ name: "robots", content: "noindex, follow" });
    expect(filtered).toContainEqual({ title: "All products | Tradecounter" });
    expect(filtered.some((m) => "script:ld+json" in m)).toBe(false);
  });

  it("lists names for a description", () => {
    expect(listOfNames(["A"])).toBe("A");
    expect(listOfNames(["A", "B"])).toBe("A and B");
    expect(listOfNames(["A", "B", "C", "D"])).toBe("A, B, C and more");
  });
});

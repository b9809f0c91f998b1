// Real raster photos for the demo shop (issue 20, ADR 0034), made here and
// now: a detailed scene per product drawn as SVG, rendered to a JPEG by sharp
// (as a camera would hand it over, with EXIF location to be stripped), then put
// through the same pipeline as an upload. Nothing is fetched from anywhere.
// Not part of seedDemo(): the tests seed a shop per file and must stay fast;
// `npm start` runs this after seeding an empty database, once the shop listens
// (demo-start.ts, ADR 0060).
import { and, asc, desc, eq, inArray, isNull, like, or, sql } from "drizzle-orm";
import sharp from "sharp";
import type { Db } from "../client.ts";
import { escapeHtml } from "../../lib/html.ts";
import { categories, manufacturers, productCategories, products } from "../../modules/catalog/schema.ts";
import { photoEntry, processPhoto, storePhoto } from "../../modules/media/photos.ts";
import { cachedPhoto } from "./demo-photo-cache.ts";
import type { FileStore } from "../../modules/media/store.ts";

function hashOf(text: string): number {
  let h = 2166136261;
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return h;
}

/** A small deterministic random sequence from a seed. */
function sequence(seed: number) {
  let s = seed || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return ((s >>> 0) % 10_000) / 10_000;
  };
}

/**
 * A product shot: a lit workshop backdrop with a bench, the product as a
 * shaded body with its grip, panel and badge in its brand's colour, its shadow,
 * and its label. 1600 × 1200, so every rendition width is made.
 */
export function demoScene(name: string, brand: string, view = 1): string {
  const h = hashOf(`${name}|${view}`);
  const random = sequence(h);
  const hue = h % 360;
  const accent = (hue + 150) % 360;
  const specks = Array.from({ length: 140 }, () => {
    const x = Math.round(random() * 1600);
    const y = Math.round(random() * 760);
    return `<circle cx="${x}" cy="${y}" r="${(1 + random() * 3).toFixed(1)}" fill="hsl(${hue} 15% ${55 + Math.round(random() * 30)}%)" opacity="0.35"/>`;
  }).join("");
  const planks = Array.from({ length: 9 }, (_, i) => `<rect x="0" y="${780 + i * 48}" width="1600" height="46" fill="hsl(30 ${35 + (i % 3) * 6}% ${38 + (i % 4) * 3}%)"/>`).join("");
  const tilt = view === 2 ? -12 : Math.round(random() * 10 - 5);
  const label = escapeHtml(name.length > 44 ? `${name.slice(0, 43)}…` : name);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1200" viewBox="0 0 1600 1200">
<defs>
<radialGradient id="light" cx="0.5" cy="0.3" r="0.8"><stop offset="0" stop-color="hsl(${hue} 20% 92%)"/><stop offset="1" stop-color="hsl(${hue} 18% 62%)"/></radialGradient>
<linearGradient id="body" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue} 70% 55%)"/><stop offset="0.55" stop-color="hsl(${hue} 65% 40%)"/><stop offset="1" stop-color="hsl(${hue} 60% 24%)"/></linearGradient>
<linearGradient id="metal" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f4f4f4"/><stop offset="0.5" stop-color="#9aa1a8"/><stop offset="1" stop-color="#5b6268"/></linearGradient>
<filter id="soft"><feGaussianBlur stdDeviation="18"/></filter>
</defs>
<rect width="1600" height="800" fill="url(#light)"/>${specks}${planks}
<ellipse cx="800" cy="960" rx="470" ry="60" fill="#000" opacity="0.35" filter="url(#soft)"/>
<g transform="rotate(${tilt} 800 620)">
<rect x="420" y="380" width="760" height="520" rx="70" fill="url(#body)"/>
<rect x="470" y="430" width="660" height="110" rx="30" fill="hsl(${hue} 40% 88%)" opacity="0.9"/>
<rect x="1060" y="520" width="300" height="90" rx="40" fill="url(#metal)"/>
<rect x="1340" y="545" width="160" height="40" rx="14" fill="#3a3f44"/>
<rect x="520" y="880" width="260" height="150" rx="28" fill="hsl(${hue} 15% 18%)"/>
<circle cx="800" cy="700" r="120" fill="hsl(${accent} 80% 52%)"/><circle cx="800" cy="700" r="74" fill="hsl(${accent} 70% 36%)"/><circle cx="770" cy="668" r="22" fill="#fff" opacity="0.5"/>
<rect x="470" y="600" width="170" height="24" rx="12" fill="#1f2326"/><rect x="470" y="640" width="130" height="24" rx="12" fill="#1f2326"/>
<text x="800" y="505" font-family="DejaVu Sans, Arial, sans-serif" font-size="64" font-weight="700" text-anchor="middle" fill="hsl(${hue} 60% 22%)">${escapeHtml(brand.toUpperCase().slice(0, 18))}</text>
</g>
<rect x="60" y="1080" width="1480" height="90" rx="18" fill="#ffffff" opacity="0.85"/>
<text x="800" y="1140" font-family="DejaVu Sans, Arial, sans-serif" font-size="46" font-weight="600" text-anchor="middle" fill="#222">${label}</text>
</svg>`;
}

/** The products whose photos a newcomer sees first: the home page's featured ones, and the first few of each top category. */
async function showcased(db: Db, perCategory: number): Promise<number[]> {
  const featured = await db.select({ id: products.id }).from(products).where(and(eq(products.featured, true), eq(products.status, "published"))).orderBy(asc(products.id)).limit(8);
  const tops = await db.select({ path: categories.path }).from(categories).where(isNull(categories.parentId)).orderBy(asc(categories.position), asc(categories.id));
  const ids = featured.map((r) => r.id);
  for (const top of tops) {
    const first = await db
      .select({ id: products.id })
      .from(products)
      .innerJoin(productCategories, eq(productCategories.productId, products.id))
      .innerJoin(categories, eq(categories.id, productCategories.categoryId))
      .where(and(eq(products.status, "published"), or(eq(categories.path, top.path), like(categories.path, `${top.path}/%`))))
      .orderBy(desc(products.featured), desc(products.createdAt), desc(products.id))
      .limit(perCategory * 4);
    // A product in two of the category's branches is listed once.
    ids.push(...[...new Set(first.map((r) => r.id))].slice(0, perCategory));
  }
  return [...new Set(ids)];
}

/**
 * Gives the showcased products of the demo shop a photo each, through the
 * real pipeline; a product that already has a photo is left alone, so it can
 * run again. Returns how many products it gave photos.
 */
export async function addDemoPhotos(
  db: Db,
  store: FileStore,
  options: { perCategory?: number; log?: (message: string) => void; cacheDir?: string | null; signal?: AbortSignal } = {},
): Promise<number> {
  const ids = await showcased(db, options.perCategory ?? 4);
  if (ids.length === 0) return 0;
  const rows = await db
    .select({ id: products.id, name: products.name, images: products.images, brand: manufacturers.name })
    .from(products)
    .leftJoin(manufacturers, eq(manufacturers.id, products.manufacturerId))
    .where(and(inArray(products.id, ids), sql`not jsonb_path_exists(${products.images}, '$[*].sources')`));
  let done = 0;
  for (const row of rows) {
    // Stopped (the shop closing): the products left keep their drawn pictures until the next run.
    if (options.signal?.aborted) break;
    const scene = demoScene(row.name, row.brand ?? "Tradecounter");
    // Made once per machine (demo-photo-cache.ts), through the upload pipeline.
    const photo = await cachedPhoto(options.cacheDir ?? null, scene, async (id) => processPhoto(await sharp(Buffer.from(scene)).jpeg({ quality: 86, mozjpeg: true }).toBuffer(), `${row.name}.jpg`, id));
    await storePhoto(store, photo);
    await db.update(products).set({ images: [photoEntry(photo, row.name)] }).where(eq(products.id, row.id));
    done += 1;
    if (done % 10 === 0) options.log?.(`demo photos: ${done} of ${rows.length}`);
  }
  return done;
}

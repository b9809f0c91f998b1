// First-load JavaScript of each page type, read from the production build:
// the route manifest React Router writes to build/client/assets/manifest-*.js
// says which chunks a page loads before it is interactive (the client entry,
// and the module and static imports of every route from the root down to the
// page). Each file is counted once, gzipped. The manifest itself: with lazy
// route discovery (React Router's default, which this shop keeps) a page never
// loads the manifest file; its HTML carries the entries of the routes it
// matched, and links ask /__manifest for the rest after load. So that inline
// part is what is counted, gzipped; with `routeDiscovery: "initial"` the whole
// file would be (checked in the built server).
// `node scripts/bundle-budget.ts` prints the table; scripts/bundle-budget.test.ts holds the budget.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

/** Issue 8: at most 150 KB of JavaScript, gzipped, on every storefront page type. */
export const FIRST_LOAD_BUDGET_BYTES = 150 * 1000;
/**
 * The back office's screens (ADR 0029: their JavaScript loads only under
 * /admin): staff work on desktops and tablets over the shop's own network,
 * and the counter's order screen and the rich editors (issue 34) outgrew the
 * storefront's figure; a ceiling of their own still catches a screen that
 * takes another desk's code.
 */
export const BACK_OFFICE_BUDGET_BYTES = 200 * 1000;

/** The budget a page type is held to: the back office's own under /admin, the storefront's everywhere else. */
export function budgetFor(url: string): number {
  return url === "/admin" || url.startsWith("/admin/") ? BACK_OFFICE_BUDGET_BYTES : FIRST_LOAD_BUDGET_BYTES;
}

interface ManifestRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  hasDefaultExport?: boolean;
  module: string;
  imports?: string[];
  // Route splitting: client-only exports in chunks of their own.
  clientActionModule?: string;
  clientLoaderModule?: string;
  clientMiddlewareModule?: string;
  hydrateFallbackModule?: string;
}

interface Manifest {
  entry: { module: string; imports: string[] };
  routes: Record<string, ManifestRoute>;
}

export interface PageWeight {
  /** The route id, e.g. `routes/product`. */
  route: string;
  /** Its URL pattern, e.g. `/product/:slug`. */
  url: string;
  /** Gzipped bytes of every JavaScript file the page loads first. */
  gzipBytes: number;
  files: string[];
}

export const clientDir = fileURLToPath(new URL("../build/client", import.meta.url));

export function readManifest(dir = clientDir): { manifest: Manifest; file: string } {
  const assets = path.join(dir, "assets");
  const name = existsSync(assets) ? readdirSync(assets).find((f) => /^manifest-[\w-]+\.js$/.test(f)) : undefined;
  if (!name) throw new Error(`No React Router manifest in ${assets}: run \`npm run build\` first.`);
  const source = readFileSync(path.join(assets, name), "utf8");
  const json = source.slice(source.indexOf("=") + 1).replace(/;\s*$/, "");
  return { manifest: JSON.parse(json) as Manifest, file: `/assets/${name}` };
}

/** The first-load JavaScript of every page (a route with a component and no child routes). */
/** Whether pages load the whole route manifest file (`routeDiscovery: "initial"`) rather than their own routes' entries inline. */
export function loadsWholeManifest(dir = clientDir): boolean {
  const server = path.join(dir, "..", "server", "index.js");
  return existsSync(server) && /var routeDiscovery = \{\s*"mode": "initial"/.test(readFileSync(server, "utf8"));
}

export function firstLoadWeights(dir = clientDir): PageWeight[] {
  const { manifest, file: manifestFile } = readManifest(dir);
  const whole = loadsWholeManifest(dir);
  const routes = Object.values(manifest.routes);
  const parents = new Set(routes.map((r) => r.parentId).filter(Boolean));
  const sizes = new Map<string, number>();
  const gzipped = (url: string) => {
    let size = sizes.get(url);
    if (size === undefined) {
      size = gzipSync(readFileSync(path.join(dir, url))).length;
      sizes.set(url, size);
    }
    return size;
  };

  return routes
    .filter((r) => r.hasDefaultExport !== false && !parents.has(r.id))
    .map((page) => {
      const chain: ManifestRoute[] = [];
      for (let r: ManifestRoute | undefined = page; r; r = r.parentId ? manifest.routes[r.parentId] : undefined) chain.unshift(r);
      const files = new Set<string>([...(whole ? [manifestFile] : []), manifest.entry.module, ...manifest.entry.imports]);
      for (const r of chain) {
        for (const f of [r.module, ...(r.imports ?? []), r.clientActionModule, r.clientLoaderModule, r.clientMiddlewareModule, r.hydrateFallbackModule]) {
          if (f?.endsWith(".js")) files.add(f);
        }
      }
      const url = "/" + chain.map((r) => r.path ?? "").filter(Boolean).join("/");
      // Lazy discovery: the page's own routes' entries, inline in its HTML.
      const inline = whole ? 0 : gzipSync(JSON.stringify({ entry: manifest.entry, routes: Object.fromEntries(chain.map((r) => [r.id, r])) })).length;
      return { route: page.id, url, files: [...files], gzipBytes: inline + [...files].reduce((n, f) => n + gzipped(f), 0) };
    })
    .sort((a, b) => b.gzipBytes - a.gzipBytes);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;
  console.log(`First-load JavaScript per page type, gzipped (budget ${kb(FIRST_LOAD_BUDGET_BYTES)}; the back office ${kb(BACK_OFFICE_BUDGET_BYTES)})`);
  for (const w of firstLoadWeights()) console.log(`${w.gzipBytes > budgetFor(w.url) ? "OVER" : "ok  "}  ${kb(w.gzipBytes).padStart(9)}  ${w.url.padEnd(28)} ${w.route}`);
}

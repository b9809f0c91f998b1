// `npm run lighthouse`: Lighthouse in mobile emulation (its default: a
// mid-range phone on slow 4G, simulated) on the production build with the demo
// shop, through Debian's Chromium (CHROME_PATH, default /usr/bin/chromium).
// Prints the four category scores and LCP, CLS and TBT per page, checks them
// against the budgets, and writes bench/lighthouse.json.
//
//   npm run lighthouse [-- --url http://127.0.0.1:3000]   (an already running shop)
//                      [-- --runs 5]                        (runs per page, default 3)
//
// Each page is audited several times and the run with the median performance
// score is reported, as Lighthouse's own guidance on variability advises: on a
// shared two-core machine one run's score moves by ten points or more.
//
// A budget missed is reported and sets the exit code to 1.
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { argument } from "./lib/argv.ts";
import { writeBenchFile } from "./lib/bench-file.ts";
import { shopForTool } from "./lib/shop-server.ts";

const BUDGET = { performance: 95, accessibility: 100, "best-practices": 100, seo: 100 } as const;
/** Issue 35: a signed-in customer's personal pages (ADR 0061's frames) fill in without moving what is on screen. */
const SIGNED_IN_CLS_MAX = 0.05;
type Category = keyof typeof BUDGET;
const CATEGORIES = Object.keys(BUDGET) as Category[];

interface PageResult {
  page: string;
  /** Audited as the demo customer, signed in (the session cookie sent with every request). */
  signedIn: boolean;
  url: string;
  scores: Record<Category, number>;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  /** Audits that cost points, for whoever has to fix a miss. */
  failing: string[];
  met: boolean;
  /** The performance score of every run, the reported one being their median. */
  runs: number[];
  /** Why a run could not measure the page (Lighthouse's runtime error), for each run that failed. */
  runErrors: string[];
}

const givenUrl = argument("--url");
const RUNS = Math.max(1, Number(argument("--runs") ?? 3) || 3);

async function json<T>(url: string): Promise<T> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return (await res.json()) as T;
}

/** The demo customer's session cookie, signed in through the API as the sign-in form does. */
async function signedInCookie(base: string): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  keep(await fetch(`${base}/sanctum/csrf-cookie`));
  const res = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: cookie(), "x-xsrf-token": decodeURIComponent(jar.get("XSRF-TOKEN") ?? "") },
    body: JSON.stringify({ email: "customer@example.com", password: "demo-password-2026" }),
  });
  if (!res.ok) throw new Error(`Signing the demo customer in answered ${res.status}`);
  keep(res);
  return cookie();
}

/** The pages to audit, found through the shop's own API so they exist in whatever data it has. */
async function pages(base: string): Promise<{ page: string; path: string; signedIn?: boolean }[]> {
  const tree = await json<{ data: { path: string; children?: unknown[] }[] }>(`${base}/api/categories`);
  const products = await json<{ items: { slug: string; image: { sources?: unknown[] } | null }[] }>(`${base}/api/products?per_page=96`);
  const hire = await json<{ items: { slug: string }[] }>(`${base}/api/hire?per_page=1`);
  const category = tree.data[0];
  // A product with a real photo where there is one (the demo start makes some): the budgets hold with photos.
  const product = products.items.find((p) => p.image?.sources?.length) ?? products.items[0];
  const item = hire.items[0];
  if (!category || !product || !item) throw new Error("The shop has no category, product or hire item to audit.");
  return [
    { page: "home", path: "/" },
    { page: "category", path: `/category/${category.path}` },
    { page: "product", path: `/product/${product.slug}` },
    { page: "hire item", path: `/hire/${item.slug}` },
    { page: "basket", path: "/basket" },
    { page: "compare", path: "/compare" },
    // The personal pages as a signed-in customer sees them: frames filled in from the API (ADR 0061).
    { page: "basket, signed in", path: "/basket", signedIn: true },
    { page: "account, signed in", path: "/account", signedIn: true },
  ];
}

const shop = await shopForTool(givenUrl, { NODE_ENV: "development" });
const base = shop.base;

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH || "/usr/bin/chromium",
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
});

const results: PageResult[] = [];
try {
  const session = await signedInCookie(base);
  for (const { page, path: pagePath, signedIn = false } of await pages(base)) {
    const url = `${base}${pagePath}`;
    const lhrs: NonNullable<Awaited<ReturnType<typeof lighthouse>>>["lhr"][] = [];
    for (let i = 0; i < RUNS; i++) {
      const run = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: CATEGORIES, ...(signedIn ? { extraHeaders: { cookie: session } } : {}) });
      if (!run) throw new Error(`Lighthouse gave no result for ${url}`);
      lhrs.push(run.lhr);
    }
    const perf = (l: (typeof lhrs)[number]) => l.categories.performance?.score ?? 0;
    const sorted = [...lhrs].sort((a, b) => perf(a) - perf(b));
    const lhr = sorted[Math.floor((sorted.length - 1) / 2)]!;
    const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)])) as Record<Category, number>;
    const failing = CATEGORIES.flatMap((c) =>
      (lhr.categories[c]?.auditRefs ?? [])
        .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
        .map((ref) => `${c}: ${ref.id} (${lhr.audits[ref.id]?.displayValue ?? lhr.audits[ref.id]?.score})`),
    );
    const cls = Number((lhr.audits["cumulative-layout-shift"]?.numericValue ?? 0).toFixed(3));
    results.push({
      page,
      signedIn,
      url: pagePath,
      scores,
      lcpMs: Math.round(lhr.audits["largest-contentful-paint"]?.numericValue ?? 0),
      cls,
      tbtMs: Math.round(lhr.audits["total-blocking-time"]?.numericValue ?? 0),
      failing,
      // A signed-in page is private and marked noindex on purpose: search engines' budget (SEO) is not its.
      met: CATEGORIES.every((c) => (signedIn && c === "seo") || scores[c] >= BUDGET[c]) && (!signedIn || cls < SIGNED_IN_CLS_MAX),
      runs: lhrs.map((l) => Math.round(perf(l) * 100)),
      runErrors: lhrs.flatMap((l, i) => (l.runtimeError ? [`run ${i + 1}: ${l.runtimeError.code}: ${l.runtimeError.message}`] : [])),
    });
    console.log(`  ${page}: done`);
  }
} finally {
  chrome.kill();
  await shop.stop();
}

const pad = (s: string | number, n: number) => String(s).padEnd(n);
console.log(`\n${pad("page", 20)}${pad("perf", 6)}${pad("a11y", 6)}${pad("bp", 6)}${pad("seo", 6)}${pad("LCP", 9)}${pad("CLS", 7)}${pad("TBT", 8)}${pad("budget", 8)}performance per run`);
for (const r of results) {
  console.log(
    `${pad(r.page, 20)}${pad(r.scores.performance, 6)}${pad(r.scores.accessibility, 6)}${pad(r.scores["best-practices"], 6)}${pad(r.scores.seo, 6)}` +
      `${pad(`${(r.lcpMs / 1000).toFixed(2)} s`, 9)}${pad(r.cls, 7)}${pad(`${r.tbtMs} ms`, 8)}${pad(r.met ? "met" : "MISSED", 8)}${r.runs.join(" ")}`,
  );
  for (const f of r.failing) console.log(`             ${f}`);
  for (const e of r.runErrors) console.log(`             ${e}`);
}
console.log(`\nThe median of ${RUNS} runs per page. Budgets: performance ≥ ${BUDGET.performance}, accessibility ${BUDGET.accessibility}, best practices ${BUDGET["best-practices"]}, SEO ${BUDGET.seo} (not for signed-in pages, which are noindex); signed in, CLS < ${SIGNED_IN_CLS_MAX}.`);

writeBenchFile("lighthouse.json", { budget: BUDGET, results });
process.exit(results.every((r) => r.met) ? 0 : 1);

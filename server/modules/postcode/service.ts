import { asc, eq, like, sql } from "drizzle-orm";
import { isValid, toNormalised } from "postcode";
import type { Db } from "../../db/client.ts";
import { postcodeAddresses, postcodeLocations } from "./schema.ts";

export interface LookupAddress {
  line_1: string;
  line_2: string;
  line_3: string;
  town: string;
  county: string;
  postcode: string;
}

/** Where a postcode is, in degrees (WGS84). */
export interface PostcodeLocation {
  lat: number;
  lng: number;
}

/** One interface for every address source: the built-in table, a paid API, or postcodes.io. */
export interface PostcodeProvider {
  lookup(postcode: string): Promise<LookupAddress[]>;
  suggest(query: string): Promise<string[]>;
  /** Where a (normalised) postcode is, or null when the source does not know it (issue 30: the nearest branch). */
  locate(postcode: string): Promise<PostcodeLocation | null>;
}

/** A coordinate pair from a provider's answer, or null when either is missing or not a number. */
function location(lat: unknown, lng: unknown): PostcodeLocation | null {
  return typeof lat === "number" && typeof lng === "number" && Number.isFinite(lat) && Number.isFinite(lng) ? { lat, lng } : null;
}

export const MAX_SUGGESTIONS = 10;
const TIMEOUT_MS = 3_000;

export function normalisePostcode(value: string): string | null {
  return isValid(value) ? toNormalised(value) : null;
}

/** Reads the address table that `npm run postcodes:import` fills. */
export function builtInProvider(db: Db): PostcodeProvider {
  return {
    async lookup(postcode) {
      const rows = await db.select().from(postcodeAddresses).where(eq(postcodeAddresses.postcode, postcode)).orderBy(asc(postcodeAddresses.id)).limit(200);
      return rows.map((r) => ({ line_1: r.line1, line_2: r.line2, line_3: r.line3, town: r.town, county: r.county, postcode: r.postcode }));
    },
    async suggest(query) {
      // Prefix match on the normalised spelling: "ls1 4" and "LS14" both find "LS1 4…".
      const compact = query.toUpperCase().replace(/[^A-Z0-9]/g, "");
      const rows = await db
        .selectDistinct({ postcode: postcodeAddresses.postcode })
        .from(postcodeAddresses)
        .where(like(sql`replace(${postcodeAddresses.postcode}, ' ', '')`, `${compact}%`))
        .orderBy(asc(postcodeAddresses.postcode))
        .limit(MAX_SUGGESTIONS);
      return rows.map((r) => r.postcode);
    },
    async locate(postcode) {
      const [exact] = await db.select({ lat: postcodeLocations.lat, lng: postcodeLocations.lng }).from(postcodeLocations).where(eq(postcodeLocations.postcode, postcode)).limit(1);
      if (exact) return exact;
      // A postcode the table lacks (a new build): its outward code's centroid, near enough for the nearest branch.
      const outward = postcode.split(" ")[0]!;
      const [centroid] = await db
        .select({ lat: sql<number | null>`avg(${postcodeLocations.lat})`.mapWith(Number), lng: sql<number | null>`avg(${postcodeLocations.lng})`.mapWith(Number), n: sql<number>`count(*)::int` })
        .from(postcodeLocations)
        .where(like(postcodeLocations.postcode, `${outward} %`));
      return centroid && centroid.n > 0 ? location(centroid.lat, centroid.lng) : null;
    },
  };
}

/** A provider's JSON answer; with `notFoundIsNull`, a 404 (a postcode the source does not know) is null rather than a failure. */
async function fetchJson(url: string, options: { notFoundIsNull?: boolean } = {}): Promise<unknown> {
  const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (response.status === 404 && options.notFoundIsNull) return null;
  if (!response.ok) throw new Error(`postcode provider answered ${response.status}`);
  return response.json();
}

const fetchFound = (url: string) => fetchJson(url, { notFoundIsNull: true });

/** A provider's address as the shop's lines: its own name for the town, and the postcode asked where it gives none. */
function addressLines(a: { line_1?: string; line_2?: string; line_3?: string; county?: string }, town: string | undefined, postcode: string): LookupAddress {
  return { line_1: a.line_1 ?? "", line_2: a.line_2 ?? "", line_3: a.line_3 ?? "", town: town ?? "", county: a.county ?? "", postcode };
}

/** The postcodes that end a provider's suggested addresses ("10 Downing Street, London, SW1A 2AA"), each once, at most MAX_SUGGESTIONS. */
function suggestedPostcodes(addresses: readonly (string | undefined)[]): string[] {
  const found = addresses.map((text) => normalisePostcode(String(text ?? "").split(",").pop()?.trim() ?? "")).filter((p): p is string => !!p);
  return [...new Set(found)].slice(0, MAX_SUGGESTIONS);
}

/** getAddress.io: `GET /find/{postcode}?api-key=…&expand=true` and `GET /autocomplete/{term}`. */
export function getAddressProvider(apiKey: string, baseUrl = "https://api.getAddress.io"): PostcodeProvider {
  return {
    async lookup(postcode) {
      const body = (await fetchJson(`${baseUrl}/find/${encodeURIComponent(postcode)}?api-key=${encodeURIComponent(apiKey)}&expand=true`)) as {
        postcode?: string;
        addresses?: { line_1?: string; line_2?: string; line_3?: string; town_or_city?: string; county?: string }[];
      };
      return (body.addresses ?? []).map((a) => addressLines(a, a.town_or_city, body.postcode ?? postcode));
    },
    async suggest(query) {
      const body = (await fetchJson(`${baseUrl}/autocomplete/${encodeURIComponent(query)}?api-key=${encodeURIComponent(apiKey)}`)) as {
        suggestions?: { address?: string }[];
      };
      return suggestedPostcodes((body.suggestions ?? []).map((s) => s.address));
    },
    async locate(postcode) {
      const body = (await fetchFound(`${baseUrl}/find/${encodeURIComponent(postcode)}?api-key=${encodeURIComponent(apiKey)}`)) as { latitude?: unknown; longitude?: unknown } | null;
      return body ? location(body.latitude, body.longitude) : null;
    },
  };
}

/** Ideal Postcodes: `GET /v1/postcodes/{postcode}?api_key=…` and `GET /v1/autocomplete/addresses?query=…`. */
export function idealPostcodesProvider(apiKey: string, baseUrl = "https://api.ideal-postcodes.co.uk"): PostcodeProvider {
  return {
    async lookup(postcode) {
      const body = (await fetchJson(`${baseUrl}/v1/postcodes/${encodeURIComponent(postcode)}?api_key=${encodeURIComponent(apiKey)}`)) as {
        result?: { line_1?: string; line_2?: string; line_3?: string; post_town?: string; county?: string; postcode?: string }[];
      };
      return (body.result ?? []).map((a) => addressLines(a, a.post_town, a.postcode ?? postcode));
    },
    async suggest(query) {
      const body = (await fetchJson(`${baseUrl}/v1/autocomplete/addresses?query=${encodeURIComponent(query)}&api_key=${encodeURIComponent(apiKey)}`)) as {
        result?: { hits?: { suggestion?: string }[] };
      };
      return suggestedPostcodes((body.result?.hits ?? []).map((h) => h.suggestion));
    },
    async locate(postcode) {
      const body = (await fetchFound(`${baseUrl}/v1/postcodes/${encodeURIComponent(postcode)}?api_key=${encodeURIComponent(apiKey)}`)) as { result?: { latitude?: unknown; longitude?: unknown }[] } | null;
      const first = body?.result?.[0];
      return first ? location(first.latitude, first.longitude) : null;
    },
  };
}

/**
 * postcodes.io, the free API over the ONS Postcode Directory (Open Government
 * Licence): `GET /postcodes/{postcode}` for where it is and
 * `GET /postcodes/{term}/autocomplete`. It has no addresses, so lookups answer
 * none (the customer types the address).
 */
export function postcodesIoProvider(baseUrl = "https://api.postcodes.io"): PostcodeProvider {
  return {
    async lookup() {
      return [];
    },
    async suggest(query) {
      const body = (await fetchFound(`${baseUrl}/postcodes/${encodeURIComponent(query)}/autocomplete`)) as { result?: unknown[] | null } | null;
      const found = (body?.result ?? []).map((p) => normalisePostcode(String(p))).filter((p): p is string => !!p);
      return [...new Set(found)].slice(0, MAX_SUGGESTIONS);
    },
    async locate(postcode) {
      const body = (await fetchFound(`${baseUrl}/postcodes/${encodeURIComponent(postcode)}`)) as { result?: { latitude?: unknown; longitude?: unknown } | null } | null;
      return body?.result ? location(body.result.latitude, body.result.longitude) : null;
    },
  };
}

export function createPostcodeProvider(db: Db, config: { postcodeProvider: string; postcodeApiKey: string | undefined }): PostcodeProvider {
  if (config.postcodeProvider === "getaddress" && config.postcodeApiKey) return getAddressProvider(config.postcodeApiKey);
  if (config.postcodeProvider === "ideal" && config.postcodeApiKey) return idealPostcodesProvider(config.postcodeApiKey);
  if (config.postcodeProvider === "postcodes.io") return postcodesIoProvider();
  return builtInProvider(db);
}

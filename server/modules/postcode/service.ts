import { asc, eq, like, sql } from "drizzle-orm";
import { isValid, toNormalised } from "postcode";
import type { Db } from "../../db/client.ts";
import { postcodeAddresses } from "./schema.ts";

export interface LookupAddress {
  line_1: string;
  line_2: string;
  line_3: string;
  town: string;
  county: string;
  postcode: string;
}

/** One interface for every address source: the built-in table or a paid API. */
export interface PostcodeProvider {
  lookup(postcode: string): Promise<LookupAddress[]>;
  suggest(query: string): Promise<string[]>;
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
  };
}

async function fetchJson(url: string, init: RequestInit = {}): Promise<unknown> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (!response.ok) throw new Error(`postcode provider answered ${response.status}`);
  return response.json();
}

/** getAddress.io: `GET /find/{postcode}?api-key=…&expand=true` and `GET /autocomplete/{term}`. */
export function getAddressProvider(apiKey: string, baseUrl = "https://api.getAddress.io"): PostcodeProvider {
  return {
    async lookup(postcode) {
      const body = (await fetchJson(`${baseUrl}/find/${encodeURIComponent(postcode)}?api-key=${encodeURIComponent(apiKey)}&expand=true`)) as {
        postcode?: string;
        addresses?: { line_1?: string; line_2?: string; line_3?: string; town_or_city?: string; county?: string }[];
      };
      return (body.addresses ?? []).map((a) => ({
        line_1: a.line_1 ?? "",
        line_2: a.line_2 ?? "",
        line_3: a.line_3 ?? "",
        town: a.town_or_city ?? "",
        county: a.county ?? "",
        postcode: body.postcode ?? postcode,
      }));
    },
    async suggest(query) {
      const body = (await fetchJson(`${baseUrl}/autocomplete/${encodeURIComponent(query)}?api-key=${encodeURIComponent(apiKey)}`)) as {
        suggestions?: { address?: string }[];
      };
      const found = (body.suggestions ?? []).map((s) => normalisePostcode(String(s.address ?? "").split(",").pop()?.trim() ?? "")).filter((p): p is string => !!p);
      return [...new Set(found)].slice(0, MAX_SUGGESTIONS);
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
      return (body.result ?? []).map((a) => ({
        line_1: a.line_1 ?? "",
        line_2: a.line_2 ?? "",
        line_3: a.line_3 ?? "",
        town: a.post_town ?? "",
        county: a.county ?? "",
        postcode: a.postcode ?? postcode,
      }));
    },
    async suggest(query) {
      const body = (await fetchJson(`${baseUrl}/v1/autocomplete/addresses?query=${encodeURIComponent(query)}&api_key=${encodeURIComponent(apiKey)}`)) as {
        result?: { hits?: { suggestion?: string }[] };
      };
      const found = (body.result?.hits ?? []).map((h) => normalisePostcode(String(h.suggestion ?? "").split(",").pop()?.trim() ?? "")).filter((p): p is string => !!p);
      return [...new Set(found)].slice(0, MAX_SUGGESTIONS);
    },
  };
}

export function createPostcodeProvider(db: Db, config: { postcodeProvider: string; postcodeApiKey: string | undefined }): PostcodeProvider {
  if (config.postcodeProvider === "getaddress" && config.postcodeApiKey) return getAddressProvider(config.postcodeApiKey);
  if (config.postcodeProvider === "ideal" && config.postcodeApiKey) return idealPostcodesProvider(config.postcodeApiKey);
  return builtInProvider(db);
}

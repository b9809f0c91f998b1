import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";
import type { S3Settings } from "./modules/media/s3-store.ts";

/** Values the specification counts as "on" for a feature flag (any case). */
const TRUTHY = new Set(["true", "1", "yes", "on"]);
const KNOWN_FALSY = new Set(["false", "0", "no", "off", ""]);

export interface FlagWarning {
  variable: string;
  value: string;
}

export interface Config {
  appName: string;
  nodeEnv: "development" | "production" | "test";
  isProduction: boolean;
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  /** Where `npm run backup` and the nightly backup write their files (`BACKUP_DIR`, default `DATA_DIR/backups`). */
  backupDir: string;
  databaseUrl: string | undefined;
  /** Each shop process's PostgreSQL connections at most (`DATABASE_POOL_SIZE`, default 20; docs/deploy.md sizes it). */
  databasePoolSize: number;
  /**
   * Which connecting addresses may speak for the visitor through X-Forwarded-*
   * (`TRUST_PROXY`): false (nobody: the shop faces the internet), or the
   * proxies' addresses and CIDR ranges.
   */
  trustProxy: false | string[];
  /** Rate limits are shared through this Redis when set, kept in memory otherwise (ADR 0026). */
  redisUrl: string | undefined;
  /** Lets a scraper outside the private networks read /metrics with `Authorization: Bearer …` (`METRICS_TOKEN`, ADR 0056); unset: private networks only. */
  metricsToken: string | undefined;
  cookieSecret: string;
  basketEnabled: boolean;
  hireBasketEnabled: boolean;
  apiBaseUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  shopEmail: string;
  /** The shop's postal address for invoices, one line each. */
  shopAddress: string[];
  /** The shop's VAT registration number for invoices; empty when unset. */
  shopVatNumber: string;
  /** Where trade customers pay invoices by bank transfer; null when unset in production. */
  shopBank: ShopBankDetails | null;
  seedDemo: boolean;
  /** When a freshly seeded demo shop makes its photos: after it listens (background), or before (before-start: for tools that want settled data). ADR 0060. */
  demoPhotos: "background" | "before-start";
  /** builtin | getaddress | ideal */
  postcodeProvider: string;
  postcodeApiKey: string | undefined;
  /** A delivery order no single branch can send whole (`FULFILMENT`): split across branches, or refused (stock/fulfilment.ts). */
  fulfilment: "split" | "whole";
  /** Returns (issue 31, returns/window.ts): the shop's own period in days (`RETURNS_DAYS`, at least the 14 of the right to cancel). */
  returnsDays: number;
  /** Where returns by post go, one line each (`RETURNS_ADDRESS`, `|` between lines); the shop's address when unset. */
  returnsAddress: string[];
  /** Pence inc VAT for collecting heavy goods sent back for the customer's own reasons (`RETURNS_COLLECTION_CHARGE`, pounds). */
  returnsCollectionCharge: number;
  logLevel: string;
  /** Stripe (ADR 0033): card payment in production needs both keys; without them elsewhere, the built-in test page takes cards. */
  stripeSecretKey: string | undefined;
  stripeWebhookSecret: string | undefined;
  /** Only to point the Stripe SDK at another server (the tests' fake). */
  stripeApiUrl: string | undefined;
  /** Product photos in an S3-compatible bucket (ADR 0034); null: in `DATA_DIR/media`. */
  s3: S3Settings | null;
  /** Flags whose value was not recognised; logged once at start. */
  flagWarnings: FlagWarning[];
}

export interface ShopBankDetails {
  accountName: string;
  /** `12-34-56`. */
  sortCode: string;
  /** 8 digits. */
  accountNumber: string;
}

/** The part of the configuration the browser may see. Never holds secrets. */
export interface PublicConfig {
  appName: string;
  apiBaseUrl: string;
  basketEnabled: boolean;
  hireBasketEnabled: boolean;
  shopEmail: string;
}

export function publicConfig(config: Config): PublicConfig {
  return {
    appName: config.appName,
    apiBaseUrl: config.apiBaseUrl,
    basketEnabled: config.basketEnabled,
    hireBasketEnabled: config.hireBasketEnabled,
    shopEmail: config.shopEmail,
  };
}

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
    this.problems = problems;
  }
}

export function parseFlag(
  variable: string,
  value: string | undefined,
  fallback: boolean,
  warnings: FlagWarning[],
): boolean {
  if (value === undefined) return fallback;
  const normalised = value.trim().toLowerCase();
  if (TRUTHY.has(normalised)) return true;
  if (!KNOWN_FALSY.has(normalised)) warnings.push({ variable, value });
  return false;
}

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" });

const schema = z.object({
  APP_NAME: z.string().trim().min(1, "must not be empty").max(80, "must be at most 80 characters").default("Tradecounter"),
  NODE_ENV: z.enum(["development", "production", "test"], { error: "must be development, production or test" }).default("development"),
  PORT: z.coerce
    .number({ error: "must be a whole number from 0 to 65535" })
    .int("must be a whole number from 0 to 65535")
    .min(0, "must be a whole number from 0 to 65535")
    .max(65535, "must be a whole number from 0 to 65535")
    .default(3000),
  HOST: z.string().trim().min(1, "must not be empty").default("localhost"),
  PUBLIC_URL: optionalText.pipe(httpUrl.optional()),
  DATA_DIR: z.string().trim().min(1, "must not be empty").default("./data"),
  BACKUP_DIR: optionalText.pipe(z.string().optional()),
  DATABASE_URL: optionalText.pipe(
    z.url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// or postgresql:// URL" }).optional(),
  ),
  DATABASE_POOL_SIZE: z.coerce
    .number({ error: "must be a whole number from 5 to 500" })
    .int("must be a whole number from 5 to 500")
    .min(5, "must be a whole number from 5 to 500")
    .max(500, "must be a whole number from 5 to 500")
    .default(20),
  TRUST_PROXY: optionalText.pipe(z.string().optional()),
  REDIS_URL: optionalText.pipe(z.url({ protocol: /^rediss?$/, error: "must be a redis:// or rediss:// URL" }).optional()),
  METRICS_TOKEN: optionalText.pipe(z.string().min(32, "must be at least 32 characters").max(200, "must be at most 200 characters").regex(/^[\x21-\x7e]+$/, "must be printable characters without spaces").optional()),
  COOKIE_SECRET: optionalText.pipe(z.string().min(32, "must be at least 32 characters").optional()),
  API_BASE_URL: optionalText.pipe(httpUrl.optional()),
  SMTP_URL: optionalText.pipe(z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional()),
  MAIL_FROM: optionalText.pipe(z.string().optional()),
  SHOP_EMAIL: optionalText.pipe(z.email({ error: "must be an email address" }).optional()),
  SHOP_ADDRESS: optionalText.pipe(z.string().max(300, "must be at most 300 characters").optional()),
  SHOP_VAT_NUMBER: optionalText.pipe(z.string().max(20, "must be at most 20 characters").optional()),
  SHOP_BANK_ACCOUNT_NAME: optionalText.pipe(z.string().max(100, "must be at most 100 characters").optional()),
  SHOP_BANK_SORT_CODE: optionalText.pipe(z.string().regex(/^\d{2}-?\d{2}-?\d{2}$/, "must be a sort code of 6 digits, e.g. 12-34-56").optional()),
  SHOP_BANK_ACCOUNT: optionalText.pipe(z.string().regex(/^\d{8}$/, "must be an account number of 8 digits").optional()),
  POSTCODE_PROVIDER: z.enum(["builtin", "getaddress", "ideal", "postcodes.io"], { error: "must be builtin, getaddress, ideal or postcodes.io" }).default("builtin"),
  POSTCODE_API_KEY: optionalText.pipe(z.string().optional()),
  FULFILMENT: z.enum(["split", "whole"], { error: "must be split or whole" }).default("split"),
  RETURNS_DAYS: z.coerce.number({ error: "must be a whole number of days from 14 to 365" }).int("must be a whole number of days from 14 to 365").min(14, "must be at least 14: the customer's right to cancel").max(365, "must be a whole number of days from 14 to 365").default(30),
  RETURNS_ADDRESS: optionalText.pipe(z.string().max(300, "must be at most 300 characters").optional()),
  RETURNS_COLLECTION_CHARGE: z.coerce.number({ error: "must be an amount in pounds such as 25 or 25.00" }).min(0, "cannot be negative").max(1000, "must be at most 1000").default(25),
  STRIPE_SECRET_KEY: optionalText.pipe(z.string().regex(/^(sk|rk)_(test|live)_\w+$/, "must be a Stripe secret key (sk_test_… or sk_live_…)").optional()),
  STRIPE_WEBHOOK_SECRET: optionalText.pipe(z.string().regex(/^whsec_\w+$/, "must be a Stripe webhook signing secret (whsec_…)").optional()),
  STRIPE_API_URL: optionalText.pipe(httpUrl.optional()),
  S3_BUCKET: optionalText.pipe(z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens").optional()),
  S3_REGION: optionalText.pipe(z.string().regex(/^[a-z0-9-]{1,40}$/, "must be a region such as eu-west-2 (or auto)").optional()),
  S3_ENDPOINT: optionalText.pipe(httpUrl.optional()),
  S3_ACCESS_KEY_ID: optionalText.pipe(z.string().max(200, "must be at most 200 characters").optional()),
  S3_SECRET_ACCESS_KEY: optionalText.pipe(z.string().max(200, "must be at most 200 characters").optional()),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
    error: "must be one of fatal, error, warn, info, debug, trace, silent",
  }).optional(),
  DEMO_PHOTOS: z.enum(["background", "before-start"], { error: "must be background or before-start" }).default("background"),
});

/** Every variable the schema reads, for the test that keeps docs/configuration.md's table in step. */
export const CONFIG_SCHEMA_VARIABLES: readonly string[] = Object.keys(schema.shape);

const TRUST_PROXY_HELP = "must be false, or the addresses and CIDR ranges of the proxies in front of the shop separated by commas (loopback, linklocal and uniquelocal name the private ranges)";
/** proxy-addr's names for the ranges a proxy on this machine or a private network connects from. */
const PROXY_RANGES = new Set(["loopback", "linklocal", "uniquelocal"]);

/**
 * Whose X-Forwarded-For, -Proto and -Host the shop believes (`TRUST_PROXY`):
 * the connecting address must be one of these. Unset: in production, a proxy
 * on this machine or on a private network (nginx, as docs/deploy.md sets it
 * up); none otherwise. `true` and hop counts are refused: `true` lets any
 * visitor name the address the sign-in limits count by sending the header
 * themselves, and a count cannot tell a proxy from a visitor (Fastify treats
 * one as trusting nobody).
 */
export function parseTrustProxy(value: string | undefined, isProduction: boolean): { trust: Config["trustProxy"] } | { problem: string } {
  const given = value?.trim().toLowerCase() ?? "";
  if (given === "") return { trust: isProduction ? [...PROXY_RANGES] : false };
  if (given === "false") return { trust: false };
  if (given === "true") return { problem: `${TRUST_PROXY_HELP}; true would believe an X-Forwarded-For that any visitor can send` };
  if (/^\d+$/.test(given)) return { problem: `${TRUST_PROXY_HELP}; a number of proxies cannot tell a proxy from a visitor` };
  const addresses = given.split(",").map((a) => a.trim()).filter(Boolean);
  const valid = (a: string) => {
    if (PROXY_RANGES.has(a)) return true;
    const [address, bits, extra] = a.split("/");
    const version = isIP(address ?? "");
    if (version === 0 || extra !== undefined) return false;
    return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128));
  };
  const wrong = addresses.filter((a) => !valid(a));
  if (addresses.length === 0 || wrong.length > 0) return { problem: `${TRUST_PROXY_HELP} (not an address or range: ${wrong.join(", ")})` };
  return { trust: addresses };
}

/**
 * Reads the configuration from an environment. Throws a ConfigError listing
 * one message per bad variable, so an operator can fix them all at once.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, options: { cwd?: string } = {}): Config {
  const parsed = schema.safeParse(env);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${String(issue.path[0] ?? "environment")} ${issue.message}`);
  if (parsed.success && (parsed.data.POSTCODE_PROVIDER === "getaddress" || parsed.data.POSTCODE_PROVIDER === "ideal") && !parsed.data.POSTCODE_API_KEY) {
    problems.push(`POSTCODE_API_KEY is required when POSTCODE_PROVIDER=${parsed.data.POSTCODE_PROVIDER}`);
  }
  if (env.NODE_ENV === "production" && !env.COOKIE_SECRET?.trim()) {
    problems.push("COOKIE_SECRET is required when NODE_ENV=production");
  }
  if (parsed.success && !parsed.data.SHOP_BANK_SORT_CODE !== !parsed.data.SHOP_BANK_ACCOUNT) {
    problems.push("SHOP_BANK_SORT_CODE and SHOP_BANK_ACCOUNT must be set together");
  }
  if (parsed.success && !parsed.data.STRIPE_SECRET_KEY !== !parsed.data.STRIPE_WEBHOOK_SECRET) {
    problems.push("STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together");
  }
  if (parsed.success) {
    const s3 = [["S3_BUCKET", parsed.data.S3_BUCKET], ["S3_REGION", parsed.data.S3_REGION], ["S3_ACCESS_KEY_ID", parsed.data.S3_ACCESS_KEY_ID], ["S3_SECRET_ACCESS_KEY", parsed.data.S3_SECRET_ACCESS_KEY]] as const;
    const given = s3.filter(([, v]) => v !== undefined).map(([k]) => k);
    if (given.length > 0 && given.length < s3.length) problems.push(`S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (missing ${s3.filter(([, v]) => v === undefined).map(([k]) => k).join(", ")})`);
    if (given.length === 0 && (parsed.data.S3_ENDPOINT || env.S3_FORCE_PATH_STYLE?.trim())) problems.push("S3_ENDPOINT and S3_FORCE_PATH_STYLE need S3_BUCKET and its keys");
  }
  const proxies = parseTrustProxy(env.TRUST_PROXY, env.NODE_ENV === "production");
  if ("problem" in proxies) problems.push(`TRUST_PROXY ${proxies.problem}`);
  if (!parsed.success || problems.length > 0 || "problem" in proxies) throw new ConfigError(problems);
  const e = parsed.data;
  const isProduction = e.NODE_ENV === "production";

  const flagWarnings: FlagWarning[] = [];
  const basketEnabled = parseFlag("BASKET_ENABLED", env.BASKET_ENABLED, true, flagWarnings);
  const hireBasketEnabled = parseFlag("HIRE_BASKET_ENABLED", env.HIRE_BASKET_ENABLED, true, flagWarnings);
  const seedDemo = parseFlag("SEED_DEMO", env.SEED_DEMO, !isProduction, flagWarnings);
  const s3: S3Settings | null = e.S3_BUCKET
    ? {
        bucket: e.S3_BUCKET,
        region: e.S3_REGION!,
        endpoint: e.S3_ENDPOINT?.replace(/\/+$/, ""),
        accessKeyId: e.S3_ACCESS_KEY_ID!,
        secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
        forcePathStyle: parseFlag("S3_FORCE_PATH_STYLE", env.S3_FORCE_PATH_STYLE, false, flagWarnings),
      }
    : null;

  const dataDir = path.resolve(options.cwd ?? process.cwd(), e.DATA_DIR);
  const publicUrl = (e.PUBLIC_URL ?? `http://${e.HOST === "0.0.0.0" ? "localhost" : e.HOST}:${e.PORT}`).replace(/\/+$/, "");
  const shopEmail = e.SHOP_EMAIL ?? "shop@example.com";
  // The demo shop's made-up details outside production; a real shop sets its own.
  const shopAddress = (e.SHOP_ADDRESS ?? (isProduction ? "" : "Unit 4, Canal Wharf|Leeds|LS11 5PS"))
    .split("|")
    .map((line) => line.trim())
    .filter(Boolean);
  const shopVatNumber = e.SHOP_VAT_NUMBER ?? (isProduction ? "" : "GB 987 6543 21");
  const sortCode = e.SHOP_BANK_SORT_CODE ?? (isProduction ? undefined : "12-34-56");
  const shopBank: ShopBankDetails | null = sortCode
    ? {
        accountName: e.SHOP_BANK_ACCOUNT_NAME ?? e.APP_NAME,
        sortCode: sortCode.replace(/-/g, "").replace(/(\d{2})(?=\d)/g, "$1-"),
        accountNumber: e.SHOP_BANK_ACCOUNT ?? "12345678",
      }
    : null;

  return {
    appName: e.APP_NAME,
    nodeEnv: e.NODE_ENV,
    isProduction,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    dataDir,
    backupDir: e.BACKUP_DIR ? path.resolve(options.cwd ?? process.cwd(), e.BACKUP_DIR) : path.join(dataDir, "backups"),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    trustProxy: proxies.trust,
    redisUrl: e.REDIS_URL,
    metricsToken: e.METRICS_TOKEN,
    cookieSecret: e.COOKIE_SECRET ?? "",
    basketEnabled,
    hireBasketEnabled,
    apiBaseUrl: (e.API_BASE_URL ?? "").replace(/\/+$/, ""),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? `${e.APP_NAME} <${shopEmail}>`,
    shopEmail,
    shopAddress,
    shopVatNumber,
    shopBank,
    seedDemo,
    demoPhotos: e.DEMO_PHOTOS,
    postcodeProvider: e.POSTCODE_PROVIDER,
    fulfilment: e.FULFILMENT,
    returnsDays: e.RETURNS_DAYS,
    returnsAddress: e.RETURNS_ADDRESS ? e.RETURNS_ADDRESS.split("|").map((line) => line.trim()).filter(Boolean) : shopAddress,
    returnsCollectionCharge: Math.round(e.RETURNS_COLLECTION_CHARGE * 100),
    postcodeApiKey: e.POSTCODE_API_KEY,
    stripeSecretKey: e.STRIPE_SECRET_KEY,
    stripeWebhookSecret: e.STRIPE_WEBHOOK_SECRET,
    stripeApiUrl: e.STRIPE_API_URL,
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === "test" ? "silent" : "info"),
    s3,
    flagWarnings,
  };
}

/**
 * Outside production a missing COOKIE_SECRET is generated once and kept in
 * DATA_DIR, so sessions survive restarts without any set-up.
 */
export function ensureCookieSecret(config: Config): Config {
  if (config.cookieSecret) return config;
  mkdirSync(config.dataDir, { recursive: true });
  const file = path.join(config.dataDir, "cookie-secret");
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString("hex"), { mode: 0o600 });
  return { ...config, cookieSecret: readFileSync(file, "utf8").trim() };
}

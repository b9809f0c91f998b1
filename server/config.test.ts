import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, ensureCookieSecret, loadConfig, parseFlag } from "./config.ts";
import { stripeGatewayFromConfig, usesTestPayments } from "./modules/payments/setup.ts";

describe("loadConfig", () => {
  it("gives a working shop with no settings at all", () => {
    const config = loadConfig({}, { cwd: "/srv/shop" });
    expect(config).toMatchObject({
      appName: "Tradecounter",
      port: 3000,
      host: "localhost",
      dataDir: "/srv/shop/data",
      backupDir: "/srv/shop/data/backups",
      databaseUrl: undefined,
      basketEnabled: true,
      hireBasketEnabled: true,
      apiBaseUrl: "",
      seedDemo: true,
      isProduction: false,
      databasePoolSize: 20,
      trustProxy: false,
    });
    expect(config.publicUrl).toBe("http://localhost:3000");
  });

  it("keeps backups where BACKUP_DIR says, read from the working folder", () => {
    expect(loadConfig({ BACKUP_DIR: "../backups", DATA_DIR: "/var/lib/shop" }, { cwd: "/srv/shop" }).backupDir).toBe("/srv/backups");
  });

  describe("DATABASE_POOL_SIZE", () => {
    it("sets each shop process's PostgreSQL connections", () => {
      expect(loadConfig({ DATABASE_POOL_SIZE: "8" }).databasePoolSize).toBe(8);
    });

    it("refuses what is not a whole number from 2 to 500", () => {
      for (const value of ["4", "501", "7.5", "ten"]) {
        expect(() => loadConfig({ DATABASE_POOL_SIZE: value })).toThrow("DATABASE_POOL_SIZE must be a whole number from 5 to 500");
      }
    });
  });

  describe("TRUST_PROXY", () => {
    const production = { NODE_ENV: "production", COOKIE_SECRET: "s".repeat(40) } as const;

    it("trusts a proxy on this machine or a private network in production, and none in development", () => {
      expect(loadConfig(production).trustProxy).toEqual(["loopback", "linklocal", "uniquelocal"]);
      expect(loadConfig({}).trustProxy).toBe(false);
    });

    it("takes false, or addresses and CIDR ranges of both kinds", () => {
      expect(loadConfig({ ...production, TRUST_PROXY: "false" }).trustProxy).toBe(false);
      expect(loadConfig({ ...production, TRUST_PROXY: " 10.0.0.5, 172.16.0.0/12 ,fd00::/8,loopback" }).trustProxy).toEqual(["10.0.0.5", "172.16.0.0/12", "fd00::/8", "loopback"]);
    });

    it("refuses true and hop counts, which cannot tell a proxy from a visitor, and what is not an address", () => {
      expect(() => loadConfig({ ...production, TRUST_PROXY: "true" })).toThrow("true would believe an X-Forwarded-For that any visitor can send");
      expect(() => loadConfig({ ...production, TRUST_PROXY: "1" })).toThrow("a number of proxies cannot tell a proxy from a visitor");
      expect(() => loadConfig({ ...production, TRUST_PROXY: "10.0.0.0/33, nginx" })).toThrow("not an address or range: 10.0.0.0/33, nginx");
    });
  });

  it("reads every variable", () => {
    const config = loadConfig({
      APP_NAME: "Smith's Merchants",
      PORT: "8080",
      HOST: "0.0.0.0",
      PUBLIC_URL: "https://shop.example.co.uk/",
      DATA_DIR: "/var/lib/shop",
      DATABASE_URL: "postgres://shop@db/shop",
      COOKIE_SECRET: "s".repeat(40),
      API_BASE_URL: "https://api.example.co.uk/",
      SMTP_URL: "smtp://mail:25",
      MAIL_FROM: "Shop <noreply@example.co.uk>",
      SHOP_EMAIL: "hello@example.co.uk",
    });
    expect(config).toMatchObject({
      appName: "Smith's Merchants",
      port: 8080,
      host: "0.0.0.0",
      publicUrl: "https://shop.example.co.uk",
      dataDir: "/var/lib/shop",
      databaseUrl: "postgres://shop@db/shop",
      apiBaseUrl: "https://api.example.co.uk",
      smtpUrl: "smtp://mail:25",
      mailFrom: "Shop <noreply@example.co.uk>",
      shopEmail: "hello@example.co.uk",
    });
  });

  it("reads the shop's invoice details, with made-up demo ones only outside production", () => {
    const set = loadConfig({ SHOP_ADDRESS: " 1 High Street | Leeds|| LS1 1AA ", SHOP_VAT_NUMBER: "GB 123 4567 89" });
    expect(set.shopAddress).toEqual(["1 High Street", "Leeds", "LS1 1AA"]);
    expect(set.shopVatNumber).toBe("GB 123 4567 89");
    expect(loadConfig({}).shopAddress.length).toBeGreaterThan(0);
    const production = loadConfig({ NODE_ENV: "production", COOKIE_SECRET: "x".repeat(32) });
    expect(production.shopAddress).toEqual([]);
    expect(production.shopVatNumber).toBe("");
  });

  it("reads the shop's bank details for invoice payments, with made-up demo ones only outside production", () => {
    expect(loadConfig({ SHOP_BANK_SORT_CODE: "401234", SHOP_BANK_ACCOUNT: "87654321", SHOP_BANK_ACCOUNT_NAME: "Tradecounter Ltd" }).shopBank).toEqual({
      accountName: "Tradecounter Ltd",
      sortCode: "40-12-34",
      accountNumber: "87654321",
    });
    expect(loadConfig({}).shopBank).toMatchObject({ sortCode: "12-34-56", accountNumber: "12345678" });
    expect(loadConfig({ NODE_ENV: "production", COOKIE_SECRET: "x".repeat(32) }).shopBank).toBeNull();
    expect(() => loadConfig({ SHOP_BANK_SORT_CODE: "40-12-34" })).toThrow("SHOP_BANK_SORT_CODE and SHOP_BANK_ACCOUNT must be set together");
    expect(() => loadConfig({ SHOP_BANK_SORT_CODE: "4012", SHOP_BANK_ACCOUNT: "123" })).toThrow(/SHOP_BANK_SORT_CODE must be a sort code[\s\S]*SHOP_BANK_ACCOUNT must be an account number of 8 digits/);
  });

  it("takes Stripe's two keys together, and chooses the built-in test page only outside production without them", () => {
    const keys = { STRIPE_SECRET_KEY: "sk_test_abc123", STRIPE_WEBHOOK_SECRET: "whsec_abc123" };
    expect(loadConfig(keys)).toMatchObject({ stripeSecretKey: "sk_test_abc123", stripeWebhookSecret: "whsec_abc123", stripeApiUrl: undefined });
    expect(() => loadConfig({ STRIPE_SECRET_KEY: "sk_test_abc123" })).toThrow("STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together");
    expect(() => loadConfig({ STRIPE_SECRET_KEY: "pk_test_abc", STRIPE_WEBHOOK_SECRET: "secret" })).toThrow(/STRIPE_SECRET_KEY must be a Stripe secret key[\s\S]*STRIPE_WEBHOOK_SECRET must be a Stripe webhook signing secret/);
    const production = { NODE_ENV: "production", COOKIE_SECRET: "x".repeat(32) };
    expect(usesTestPayments(loadConfig({}))).toBe(true);
    expect(usesTestPayments(loadConfig(keys))).toBe(false);
    expect(usesTestPayments(loadConfig(production))).toBe(false);
    expect(stripeGatewayFromConfig(loadConfig(production))).toBeNull();
    expect(stripeGatewayFromConfig(loadConfig({ ...production, ...keys }))).toMatchObject({ id: "stripe", testMode: false });
  });

  it("takes the S3 bucket's settings together, for product photos, and stores on disk without them", () => {
    const s3 = { S3_BUCKET: "shop-photos", S3_REGION: "eu-west-2", S3_ACCESS_KEY_ID: "AKIAEXAMPLE", S3_SECRET_ACCESS_KEY: "secret/key+example" };
    expect(loadConfig({}).s3).toBeNull();
    expect(loadConfig(s3).s3).toEqual({ bucket: "shop-photos", region: "eu-west-2", endpoint: undefined, accessKeyId: "AKIAEXAMPLE", secretAccessKey: "secret/key+example", forcePathStyle: false });
    expect(loadConfig({ ...s3, S3_ENDPOINT: "http://127.0.0.1:9000/", S3_FORCE_PATH_STYLE: "yes" }).s3).toMatchObject({ endpoint: "http://127.0.0.1:9000", forcePathStyle: true });
    expect(() => loadConfig({ S3_BUCKET: "shop-photos" })).toThrow("S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (missing S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY)");
    expect(() => loadConfig({ ...s3, S3_SECRET_ACCESS_KEY: "" })).toThrow("must be set together (missing S3_SECRET_ACCESS_KEY)");
    expect(() => loadConfig({ S3_ENDPOINT: "http://127.0.0.1:9000" })).toThrow("S3_ENDPOINT and S3_FORCE_PATH_STYLE need S3_BUCKET and its keys");
    expect(() => loadConfig({ ...s3, S3_BUCKET: "Shop_Photos", S3_ENDPOINT: "ftp://x" })).toThrow(/S3_BUCKET must be a bucket name[\s\S]*S3_ENDPOINT must be an http/);
  });

  it("reports one clear message per bad variable, all at once", () => {
    let error: unknown;
    try {
      loadConfig({ NODE_ENV: "production", PORT: "eighty", DATABASE_URL: "mysql://x", SHOP_EMAIL: "not-an-email", API_BASE_URL: "ftp://x" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(5);
    expect(problems).toContain("COOKIE_SECRET is required when NODE_ENV=production");
    expect(problems).toContain("PORT must be a whole number from 0 to 65535");
    expect(problems).toContain("DATABASE_URL must be a postgres:// or postgresql:// URL");
    expect(problems).toContain("SHOP_EMAIL must be an email address");
    expect(problems).toContain("API_BASE_URL must be an http:// or https:// URL");
  });

  it("requires COOKIE_SECRET in production and turns the demo seed off there", () => {
    expect(() => loadConfig({ NODE_ENV: "production" })).toThrow("COOKIE_SECRET is required when NODE_ENV=production");
    const config = loadConfig({ NODE_ENV: "production", COOKIE_SECRET: "p".repeat(32) });
    expect(config.seedDemo).toBe(false);
    expect(config.isProduction).toBe(true);
  });

  it("needs an API key for a paid postcode provider", () => {
    expect(() => loadConfig({ POSTCODE_PROVIDER: "ideal" })).toThrow("POSTCODE_API_KEY is required when POSTCODE_PROVIDER=ideal");
    expect(loadConfig({ POSTCODE_PROVIDER: "getaddress", POSTCODE_API_KEY: "k" }).postcodeProvider).toBe("getaddress");
    expect(loadConfig({}).postcodeProvider).toBe("builtin");
  });

  it("reads how a delivery no one branch holds is sent: split by default, or whole; anything else refused", () => {
    expect(loadConfig({}).fulfilment).toBe("split");
    expect(loadConfig({ FULFILMENT: "whole" }).fulfilment).toBe("whole");
    expect(() => loadConfig({ FULFILMENT: "nearest" })).toThrow("FULFILMENT must be split or whole");
  });

  it("reads METRICS_TOKEN for /metrics from outside the private networks, unset by default", () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: " " }).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: "t".repeat(32) }).metricsToken).toBe("t".repeat(32));
    expect(() => loadConfig({ METRICS_TOKEN: "short" })).toThrow("METRICS_TOKEN must be at least 32 characters");
    expect(() => loadConfig({ METRICS_TOKEN: `${"t".repeat(20)} ${"t".repeat(20)}` })).toThrow("METRICS_TOKEN must be printable characters without spaces");
  });

  it("reads REDIS_URL for the rate limits, unset by default", () => {
    expect(loadConfig({}).redisUrl).toBeUndefined();
    expect(loadConfig({ REDIS_URL: " " }).redisUrl).toBeUndefined();
    expect(loadConfig({ REDIS_URL: "redis://:pw@cache:6379/2" }).redisUrl).toBe("redis://:pw@cache:6379/2");
    expect(loadConfig({ REDIS_URL: "rediss://cache:6380" }).redisUrl).toBe("rediss://cache:6380");
    expect(() => loadConfig({ REDIS_URL: "http://cache:6379" })).toThrow("REDIS_URL must be a redis:// or rediss:// URL");
  });

  it("refuses a short COOKIE_SECRET", () => {
    expect(() => loadConfig({ COOKIE_SECRET: "short" })).toThrow("COOKIE_SECRET must be at least 32 characters");
  });
});

describe("feature flags", () => {
  it.each(["true", "TRUE", "1", "yes", "Yes", "on", "ON", " on "])("%j is on", (value) => {
    const warnings: { variable: string; value: string }[] = [];
    expect(parseFlag("BASKET_ENABLED", value, false, warnings)).toBe(true);
    expect(warnings).toEqual([]);
  });

  it.each(["false", "0", "no", "off", ""])("%j is off, silently", (value) => {
    const warnings: { variable: string; value: string }[] = [];
    expect(parseFlag("BASKET_ENABLED", value, true, warnings)).toBe(false);
    expect(warnings).toEqual([]);
  });

  it.each(["enabled", "y", "2", "tru"])("%j is off and reported as not recognised", (value) => {
    const config = loadConfig({ HIRE_BASKET_ENABLED: value });
    expect(config.hireBasketEnabled).toBe(false);
    expect(config.flagWarnings).toEqual([{ variable: "HIRE_BASKET_ENABLED", value }]);
  });

  it("defaults both baskets on", () => {
    const config = loadConfig({});
    expect([config.basketEnabled, config.hireBasketEnabled]).toEqual([true, true]);
  });
});

describe("ensureCookieSecret", () => {
  it("generates a secret once and keeps it in DATA_DIR", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "tc-secret-"));
    const first = ensureCookieSecret(loadConfig({ DATA_DIR: dir }));
    const second = ensureCookieSecret(loadConfig({ DATA_DIR: dir }));
    expect(first.cookieSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(second.cookieSecret).toBe(first.cookieSecret);
    expect(readFileSync(path.join(dir, "cookie-secret"), "utf8")).toBe(first.cookieSecret);
  });

  it("keeps a configured secret", () => {
    const config = loadConfig({ COOKIE_SECRET: "c".repeat(32) });
    expect(ensureCookieSecret(config).cookieSecret).toBe("c".repeat(32));
  });
});

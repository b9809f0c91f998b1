// Several shop processes on one PostgreSQL and Redis behind nginx (issue 22,
// ADR 0044, docs/deploy.md), as an operator runs them: two "machines" started
// with `server/main.ts` (one running two processes under its primary, one a
// single process), and Debian's nginx on loopback with the repository's own
// site config's locations and proxy settings (deploy/nginx/, server/test/nginx.ts). Needs PostgreSQL
// (TEST_DATABASE_URL), Redis, nginx and the production build (Vitest's global
// setup makes it); .ci/run installs nginx.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BenchClient } from "../scripts/bench/client.ts";
import { freePort } from "../scripts/lib/free-port.ts";
import { projectRoot, shopWorkerPids, startShopServer, stopShopServer } from "../scripts/lib/shop-server.ts";
import { DEMO_CUSTOMER } from "./db/seed/index.ts";
import { DEMO_STAFF } from "./db/seed/demo-staff.ts";
import type { Db } from "./db/client.ts";
import { products } from "./modules/catalog/schema.ts";
import { mailOutbox } from "./modules/mail/schema.ts";
import { startTestSmtpServer, type TestSmtpServer } from "./modules/mail/smtp-test-server.ts";
import { countSoleVariantsTo } from "./modules/stock/ledger.ts";
import { createTestDatabase, type TestDatabase } from "./test/database.ts";
import { NGINX, nginxInstalled, shippedSite, startNginx } from "./test/nginx.ts";
import { until } from "./test/until.ts";
import { databaseInvariantViolations } from "./test/invariants.ts";

const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!process.env.TEST_DATABASE_URL || !nginxInstalled)("several shop processes behind nginx, on one PostgreSQL and Redis", () => {
  let database: TestDatabase;
  let smtp: TestSmtpServer;
  let dir: string;
  let machineA: ChildProcess;
  let machineB: ChildProcess;
  let nginx: ChildProcess;
  const ports = { a: 0, b: 0, nginx: 0 };
  const at = (port: number) => `http://127.0.0.1:${port}`;
  let slug = "";
  let sku = "";

  beforeAll(async () => {
    database = await createTestDatabase({ seeded: true });
    const [p] = await database.db.select({ slug: products.slug, sku: products.sku, id: products.id }).from(products).where(sql`${products.sku} not like 'GEN-%'`).orderBy(products.id).limit(1);
    slug = p!.slug;
    sku = p!.sku;
    // Plenty of stock for the orders placed while a process dies.
    await database.db.transaction((tx) => countSoleVariantsTo(tx as unknown as Db, [{ productId: p!.id, counted: 100_000 }], "Scale-out test stock"));
    smtp = await startTestSmtpServer();
    dir = mkdtempSync(path.join(tmpdir(), "tc-scale-out-"));
    [ports.a, ports.b, ports.nginx] = [await freePort(), await freePort(), await freePort()];
    const env = {
      DATABASE_URL: database.url!,
      REDIS_URL: redisUrl,
      SMTP_URL: smtp.url,
      // One secret for every process, as on several machines: each signs what the others read.
      COOKIE_SECRET: randomBytes(32).toString("hex"),
      PUBLIC_URL: at(ports.nginx),
      DATA_DIR: path.join(dir, "data"),
      SEED_DEMO: "false",
      // Development rules: staff sign in without a TOTP code; the process model is the production one.
      NODE_ENV: "development",
    };
    [machineA, machineB] = await Promise.all([
      startShopServer(ports.a, { ...env, PUBLIC_URL: at(ports.nginx), WEB_CONCURRENCY: "2" }, 180_000),
      startShopServer(ports.b, { ...env, PUBLIC_URL: at(ports.nginx), WEB_CONCURRENCY: "1" }, 180_000),
    ]);
    nginx = startNginx(path.join(dir, "nginx"), ports.nginx, [ports.a, ports.b]);
    await until(async () => (await fetch(`${at(ports.nginx)}/healthz`).catch(() => null))?.ok, { what: "nginx", timeoutMs: 60_000 });
  }, 300_000);

  afterAll(async () => {
    nginx?.kill("SIGQUIT");
    await Promise.all([machineA && stopShopServer(machineA), machineB && stopShopServer(machineB)]);
    await smtp?.close();
    await database?.destroy();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("ships a site config that Debian's nginx accepts as it is, bar the names of its files", () => {
    const check = path.join(dir, "site-check");
    mkdirSync(check, { recursive: true });
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", `${check}/key.pem`, "-out", `${check}/cert.pem`, "-days", "1", "-subj", "/CN=shop.example.com"], { stdio: "pipe" });
    const site = shippedSite()
      .replace("/etc/letsencrypt/live/shop.example.com/fullchain.pem", `${check}/cert.pem`)
      .replace("/etc/letsencrypt/live/shop.example.com/privkey.pem", `${check}/key.pem`);
    writeFileSync(`${check}/site.conf`, site);
    writeFileSync(`${check}/nginx.conf`, `pid ${check}/nginx.pid; error_log ${check}/error.log; events {} http { include ${check}/site.conf; }`);
    expect(() => execFileSync(NGINX, ["-t", "-c", `${check}/nginx.conf`, "-p", check], { stdio: "pipe" })).not.toThrow();
  });

  it("runs the processes asked for: two under one primary, one alone", () => {
    expect(shopWorkerPids(machineA.pid!)).toHaveLength(2);
    expect(shopWorkerPids(machineB.pid!)).toHaveLength(0);
  });

  it("shows a price changed through one process on the very next page the other serves", async () => {
    const visitor = new BenchClient(at(ports.b));
    const priceOn = async () => /property="product:price:amount" content="([\d.]+)"/.exec((await visitor.timed("GET", `/product/${slug}`)).body)?.[1];
    const before = await priceOn();
    expect(before).toBeDefined();
    // Kept by B's page cache now.
    expect(await priceOn()).toBe(before);

    const staff = new BenchClient(at(ports.a));
    const signIn = await staff.timed("POST", "/api/admin/auth/login", { email: DEMO_STAFF[0]!.email, password: DEMO_CUSTOMER.password });
    expect(signIn.status, signIn.error).toBe(200);
    const changed = await staff.timed("PATCH", `/api/admin/products/${sku}`, { price_ex_vat: 123.45, vat_rate: 20 });
    expect(changed.status, changed.error).toBe(200);
    expect(await priceOn()).toBe("148.14");
  });

  it("counts sign-in failures across both machines (Redis)", async () => {
    const email = DEMO_CUSTOMER.email;
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) {
      const browser = new BenchClient(at(i % 2 === 0 ? ports.a : ports.b));
      await browser.csrf();
      codes.push((await browser.timed("POST", "/api/auth/login", { email, password: `wrong guess ${i}` })).status);
    }
    expect(codes).toEqual([422, 422, 422, 422, 422, 429]);
  });

  it("sends a password reset mail once, whichever processes deliver the outbox", async () => {
    const email = "reset-once@example.com";
    const customer = new BenchClient(at(ports.nginx));
    await customer.csrf();
    expect((await customer.timed("POST", "/api/auth/register", { firstname: "Rita", lastname: "Once", email, password: "a long password 2026", password_confirmation: "a long password 2026" })).status).toBe(201);
    const since = smtp.received.length;
    const asker = new BenchClient(at(ports.nginx));
    await asker.csrf();
    expect((await asker.timed("POST", "/api/auth/recovery", { email })).status).toBeLessThan(300);
    const resets = () => smtp.received.slice(since).filter((m) => m.envelopeTo.includes(email) && /reset/i.test(m.subject));
    await until(() => resets().length > 0, { what: "the reset mail" });
    // Every process's worker has had two turns (5 s each) to send it again.
    await sleep(11_000);
    expect(resets()).toHaveLength(1);
    const rows = await database.db.select({ status: mailOutbox.status }).from(mailOutbox).where(eq(mailOutbox.to, email));
    expect(rows.filter((r) => r.status === "sent").length).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it("npm run soak through nginx, a shop process killed with SIGKILL in the middle: no order lost or doubled; nginx carries on and the primary starts another", async () => {
    const [victim, survivor] = shopWorkerPids(machineA.pid!);
    expect(victim).toBeDefined();
    const out = `soak-scale-out-${process.pid}.json`;
    // The soak as an operator runs it, against nginx and this shop's database (scripts/soak.ts, "against a shop already running").
    const soak = spawn(process.execPath, ["scripts/soak.ts", "--url", at(ports.nginx), "--database-url", database.url!, "--visitors", "30", "--duration", "16", "--checkout-share", "0.6", "--out", out], {
      cwd: projectRoot,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    soak.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    soak.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => soak.once("exit", (code) => resolve(code)));
    await until(() => output.includes("visitors for"), { what: "the soak's visitors", timeoutMs: 60_000 });
    await sleep(6_000);
    process.kill(victim!, "SIGKILL");
    const code = await exited;
    const file = path.join(projectRoot, "bench", out);
    const report = JSON.parse(readFileSync(file, "utf8")) as {
      verdicts: { lostOrders: boolean };
      orders: { successfulCheckouts: number; ordersInDatabase: number; lost: string[]; unanswered: string[]; invariantViolations: string[] };
      actions: { action: string; count: number }[];
    };
    rmSync(file, { force: true });
    expect(code, output.slice(-3000)).toBe(0);
    // Every checkout that answered is in the database once, and no order is there that no checkout answered.
    expect(report.orders.lost).toEqual([]);
    expect(report.orders.unanswered).toEqual([]);
    expect(report.orders.invariantViolations).toEqual([]);
    expect(report.orders.successfulCheckouts).toBeGreaterThan(10);
    expect(report.orders.ordersInDatabase).toBe(report.orders.successfulCheckouts);
    expect(report.verdicts.lostOrders).toBe(true);

    // The primary forked a new process in the dead one's place.
    const replaced = await until(
      () => {
        const now = shopWorkerPids(machineA.pid!);
        return now.length === 2 && !now.includes(victim!) && now;
      },
      { what: "a new shop process", timeoutMs: 60_000 },
    );
    expect(replaced).toContain(survivor);
    await until(async () => (await fetch(`${at(ports.a)}/readyz`).catch(() => null))?.ok, { what: "the new process to serve", timeoutMs: 60_000 });
    expect(await databaseInvariantViolations(database.db)).toEqual([]);

    // Later requests through nginx are all answered, by both machines.
    for (let i = 0; i < 20; i++) expect((await fetch(`${at(ports.nginx)}/product/${slug}`)).status).toBe(200);
    expect(readFileSync(path.join(dir, "nginx", "error.log"), "utf8")).not.toMatch(/\[emerg\]/);
  }, 180_000);
});

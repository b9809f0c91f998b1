// A backup taken while orders are being placed restores into a new data
// folder (PGlite) or a new database (PostgreSQL, with TEST_DATABASE_URL set):
// the restored shop starts, its rows match the backup's manifest, every
// invariant holds and a photo is served. And a backup killed midway leaves no
// file that claims to be complete. Real components throughout: pg_dump,
// pg_restore, PGlite's data folder, the tar archive, a child process killed.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.ts";
import { type Database, openPglite, openPostgres, type PgliteDatabase } from "../../db/client.ts";
import { addDemoPhotos } from "../../db/seed/demo-photos.ts";
import { demoPhotoCacheDir } from "../../db/seed/demo-photo-cache.ts";
import { loadConfig } from "../../config.ts";
import { createTestShop, type TestShop } from "../../test/app.ts";
import { TestBrowser } from "../../test/browser.ts";
import { databaseInvariantViolations } from "../../test/invariants.ts";
import { databaseUrl, withAdmin } from "../../test/postgres-admin.ts";
import { addDays, londonDate } from "../hire/pricing.ts";
import { testFleet } from "../hire/test-fleet.ts";
import { countTotalTo } from "../stock/ledger.ts";
import { fileStoreFromConfig } from "../media/setup.ts";
import { type TakenBackup, takeBackup } from "./backup.ts";
import { countRows, rowsOfDb } from "./contents.ts";
import { checksumPath, lastBackupAt, listBackups, readChecksum, sha256OfFile } from "./files.ts";
import { RestoreRefusedError, restoreBackup } from "./restore.ts";
import { serveBackupSocket } from "./socket.ts";

const adminUrl = process.env.TEST_DATABASE_URL;
const projectRoot = fileURLToPath(new URL("../../..", import.meta.url));
const made: string[] = [];
const madeDatabases: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  made.push(dir);
  return dir;
};

let shop: TestShop;
/** The shop's configuration as `npm run backup` would read it: on PostgreSQL, DATABASE_URL names its database. */
let shopConfig: TestShop["config"];

beforeAll(async () => {
  shop = await createTestShop();
  shopConfig = { ...shop.config, databaseUrl: shop.database.url, backupDir: tempDir("tc-backups-") };
  // Photos through the upload pipeline, into the shop's DATA_DIR/media.
  const photos = await addDemoPhotos(shop.database.db, fileStoreFromConfig(shop.config), { perCategory: 1, cacheDir: demoPhotoCacheDir() });
  expect(photos).toBeGreaterThan(0);
  // A hire booking, made as a customer makes one (the demo has the fleet, not the bookings).
  const fleet = await testFleet(shop.database.db, { name: "Backup test breaker", prefix: "BKP", units: 2 });
  const customer = new TestBrowser(shop.app, "198.51.100.78");
  await customer.csrf();
  const start = addDays(londonDate(), 10);
  expect((await customer.post("/api/hire-basket", { hire_item_id: fleet.item.id, quantity: 1, start_date: start, end_date: addDays(start, 2) })).statusCode).toBe(200);
  const booked = await customer.post("/api/hire-requests", { name: "Pat Planner", email: "pat.planner@example.co.uk", phone: "07700 900111", company: "", fulfilment: "collection" });
  expect(booked.statusCode, booked.body).toBe(201);
}, 120_000);

afterAll(async () => {
  await shop?.close();
  for (const name of madeDatabases) await withAdmin(adminUrl!, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** Places orders one after another, through the API, until told to stop; answers how many it placed. */
function placeOrdersUntil(stopped: () => boolean): Promise<number> {
  return (async () => {
    // A product with one variant, counted up through the stock ledger so the orders never run out.
    const { rows: [product] } = (await shop.database.db.execute(
      sql`select p.id, min(v.id) as variant_id from products p join product_variants v on v.product_id = p.id where p.sku not like 'GEN-%' and p.status = 'published' group by p.id having count(*) = 1 order by p.id limit 1`,
    )) as unknown as { rows: { id: number; variant_id: number }[] };
    await shop.database.db.transaction((tx) => countTotalTo(tx, Number(product!.variant_id), 10_000, "backup test"));
    let placed = 0;
    const browser = new TestBrowser(shop.app, "198.51.100.77");
    await browser.csrf();
    while (!stopped() || placed === 0) {
      expect((await browser.post("/api/basket", { product_id: product!.id, quantity: 1 })).statusCode).toBe(200);
      const res = await browser.post("/api/checkout", { email: `soak${placed}@example.co.uk`, phone: "0113 496 0000", delivery_method: "collect", collector_name: "Test Collector", payment_method: "pay_on_collection" });
      expect(res.statusCode).toBe(201);
      placed++;
    }
    return placed;
  })();
}

/** A new, empty target: a data folder, or a database on the PostgreSQL server. */
async function emptyTarget(): Promise<{ dataDir: string; databaseUrl: string | undefined; s3: null }> {
  const dataDir = tempDir("tc-restored-");
  if (!adminUrl) return { dataDir, databaseUrl: undefined, s3: null };
  const name = `tc_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  await withAdmin(adminUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  madeDatabases.push(name);
  return { dataDir, databaseUrl: databaseUrl(adminUrl, name), s3: null };
}

describe(`backing up and restoring the shop (${adminUrl ? "PostgreSQL" : "PGlite"})`, () => {
  let backup: TakenBackup;

  it("takes a backup while orders are placed, into one complete file with its checksum and manifest", async () => {
    let done = false;
    const soak = placeOrdersUntil(() => done);
    try {
      backup = await takeBackup(shopConfig, shop.database);
    } finally {
      done = true;
    }
    expect(await soak).toBeGreaterThan(0);

    const listed = await listBackups(shopConfig.backupDir);
    expect(listed.map((b) => b.path)).toEqual([backup.file]);
    expect(readdirSync(shopConfig.backupDir).sort()).toEqual([path.basename(backup.file), path.basename(checksumPath(backup.file))].sort());
    expect(await lastBackupAt(shopConfig)).toEqual(listed[0]!.takenAt);
    const { manifest } = backup;
    expect(manifest.database.kind).toBe(adminUrl ? "postgres" : "pglite");
    expect(manifest.migration).toMatch(/^\d{4}_/);
    for (const table of ["orders", "order_lines", "trade_invoices", "hire_requests", "products", "stock_movements"]) {
      expect(manifest.counts[table], table).toBeGreaterThan(0);
    }
    expect(manifest.media.files).toBeGreaterThan(0);
  }, 120_000);

  it("restores into an empty target: the restored shop starts, its rows match the manifest, the invariants hold and a photo is served", async () => {
    const target = await emptyTarget();
    const result = await restoreBackup(backup.file, target);
    expect(result.differences).toEqual([]);
    expect(result.counts.find((c) => c.name === "orders")!.restored).toBe(backup.manifest.counts.orders);

    const config = loadConfig({ NODE_ENV: "test", COOKIE_SECRET: "x".repeat(32), DATA_DIR: target.dataDir, ...(target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : {}) });
    const database: Database = target.databaseUrl ? await openPostgres(target.databaseUrl, { max: 4 }) : await openPglite(target.dataDir);
    try {
      // As `npm start` does: migrations first (none are left to run), then the app.
      await database.migrate();
      const app = await buildApp({ config, database, storefront: { mode: "none" }, logger: false });
      try {
        await app.ready();
        expect((await app.inject({ url: "/readyz" })).statusCode).toBe(200);
        expect(await countRows(rowsOfDb(database.db))).toEqual(backup.manifest.counts);
        expect(await databaseInvariantViolations(database.db)).toEqual([]);

        const { rows } = (await database.db.execute(sql`select images->0->>'src' as src from products where images->0 ? 'id' order by id limit 1`)) as unknown as { rows: { src: string }[] };
        const photo = await app.inject({ url: rows[0]!.src });
        expect(photo.statusCode).toBe(200);
        expect(photo.headers["content-type"]).toMatch(/^image\//);
        expect(photo.rawPayload.length).toBeGreaterThan(100);
        const order = await app.inject({ url: "/api/products?per_page=1" });
        expect(order.statusCode).toBe(200);
      } finally {
        await app.close();
      }
    } finally {
      await database.close();
    }

    // A target that now holds a shop is refused, and replaced only when told.
    await expect(restoreBackup(backup.file, target)).rejects.toThrow(RestoreRefusedError);
    expect((await restoreBackup(backup.file, target, { force: true })).differences).toEqual([]);
  }, 180_000);

  it("refuses a backup whose checksum does not match, before touching the target", async () => {
    const damaged = path.join(tempDir("tc-damaged-"), path.basename(backup.file));
    const { copyFileSync, appendFileSync } = await import("node:fs");
    copyFileSync(backup.file, damaged);
    copyFileSync(checksumPath(backup.file), checksumPath(damaged));
    appendFileSync(damaged, "x");
    const target = await emptyTarget();
    await expect(restoreBackup(damaged, target)).rejects.toThrow(/checksum does not match/);
    expect(readdirSync(target.dataDir)).toEqual([]);
  });
});

/** A data folder as a stopped embedded shop leaves it, from the test shop's own database. */
async function stoppedShopFolder(): Promise<string> {
  const dataDir = tempDir("tc-folder-");
  const copy = await openPglite(dataDir, { from: await (shop.database as unknown as PgliteDatabase).dump() });
  await copy.close();
  return dataDir;
}

/** `npm run backup` as a child process on a data folder; resolves when it prints `line` (or rejects when it ends first). */
function runBackupCli(dataDir: string, backupDir: string, line: string) {
  const child = spawn(process.execPath, [path.join(projectRoot, "scripts/backup.ts")], {
    cwd: projectRoot,
    env: { ...process.env, NODE_ENV: "test", DATA_DIR: dataDir, BACKUP_DIR: backupDir, COOKIE_SECRET: "x".repeat(32), DATABASE_URL: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  let output = "";
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const printed = new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(line)) resolve();
    });
    void exited.then(() => (output.includes(line) ? resolve() : reject(new Error(`the backup ended before it printed ${JSON.stringify(line)}: ${output}`))));
  });
  return { child, exited, printed, output: () => output };
}

describe.skipIf(adminUrl)("npm run backup on the embedded database", () => {
  it("asks the shop that has the data folder open to take the backup, over its socket", async () => {
    const dataDir = await stoppedShopFolder();
    const backupDir = path.join(dataDir, "backups");
    // This process is the running shop: it holds the folder's lock and answers on the socket.
    const database = await openPglite(dataDir);
    const socket = await serveBackupSocket({ ...shop.config, dataDir, backupDir }, database, { error() {} });
    try {
      const cli = runBackupCli(dataDir, backupDir, "Backup: ");
      await cli.printed;
      expect(await cli.exited).toEqual({ code: 0, signal: null });
      expect(cli.output()).toContain("the shop is running: asking it to take the backup");
      const [taken] = await listBackups(backupDir);
      expect(cli.output()).toContain(`Backup: ${taken!.path}`);
      expect(await readChecksum(taken!.path)).toBe(await sha256OfFile(taken!.path));
    } finally {
      await socket.close();
      await database.close();
    }
  }, 120_000);

  it("leaves no file that claims to be complete when killed midway", async () => {
    const dataDir = await stoppedShopFolder();
    const backupDir = path.join(dataDir, "backups");
    // Enough media that the archive is still being written when the kill arrives.
    mkdirSync(path.join(dataDir, "media", "photos"), { recursive: true });
    for (let i = 0; i < 3; i++) writeFileSync(path.join(dataDir, "media", "photos", `big-${i}.webp`), randomBytes(32 * 1024 * 1024));

    const cli = runBackupCli(dataDir, backupDir, "writing the archive");
    await cli.printed;
    cli.child.kill("SIGKILL");
    const { signal } = await cli.exited;
    expect(signal, "the backup finished before the kill").toBe("SIGKILL");

    expect(await listBackups(backupDir)).toEqual([]);
    expect(await lastBackupAt({ backupDir })).toBeNull();
    // What is left is marked partial, and nothing has a complete backup's name.
    for (const name of readdirSync(backupDir)) expect(name).toMatch(/\.partial$/);
  }, 120_000);
});

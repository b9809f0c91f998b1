// A newcomer's first `npm start` (issue 35, ADR 0060): the production server
// as a process on an empty DATA_DIR, seeding the demo shop. Its first page
// answers while the demo's photos are still being made, its log says where the
// shop and its back office are and how to sign in, and the photos are all
// there afterwards. The photo cache starts empty, as on a fresh clone, so the
// photos really are made (some 45 s of one core); nothing here is timed.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../scripts/lib/free-port.ts";
import { projectRoot, stopShopServer } from "../scripts/lib/shop-server.ts";
import { DEMO_PHOTOS_PENDING } from "./db/seed/demo-start.ts";
import { onLogLines } from "./test/log-lines.ts";
import { until } from "./test/until.ts";

const dataDir = mkdtempSync(path.join(tmpdir(), "tc-first-start-"));
const photoCache = mkdtempSync(path.join(tmpdir(), "tc-first-start-photos-"));
const messages: string[] = [];
let shop: ChildProcess;
let base: string;
/** Whether the photos were still owed when the first page answered. */
let pendingAtFirstPage: boolean;
let firstPage: Response;

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  shop = spawn(process.execPath, ["server/main.ts"], {
    cwd: projectRoot,
    stdio: ["ignore", "pipe", "inherit"],
    // As a newcomer runs it: no NODE_ENV, so the demo seed is on; one process, on PGlite.
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, DEMO_PHOTO_CACHE: photoCache, LOG_LEVEL: "info" },
  });
  onLogLines(shop.stdout!, (record) => messages.push(String(record.msg ?? "")));
  firstPage = await until(
    async () => {
      if (shop.exitCode !== null) throw new Error(`The shop stopped while starting:\n${messages.join("\n")}`);
      return fetch(`${base}/`).catch(() => null);
    },
    { what: "the shop's first page", timeoutMs: 300_000, intervalMs: 100 },
  );
  pendingAtFirstPage = existsSync(path.join(dataDir, DEMO_PHOTOS_PENDING));
}, 320_000);

afterAll(async () => {
  if (shop) await stopShopServer(shop);
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(photoCache, { recursive: true, force: true });
});

describe("a first start of the demo shop", () => {
  it("answers its first page before the demo's photos are all made", async () => {
    expect(firstPage.status).toBe(200);
    expect(await firstPage.text()).toContain("<html");
    expect(pendingAtFirstPage).toBe(true);
  });

  it("says in its log where the shop and its back office are and how to sign in", async () => {
    const ready = await until(() => messages.find((m) => m.includes("is ready at")), { what: "the ready line" });
    expect(ready).toContain(`is ready at ${base}`);
    expect(ready).toContain(`back office ${base}/admin`);
    expect(ready).toContain("owner@example.com / demo-password-2026");
    // Said before the photos are made, not after.
    const readyAt = messages.indexOf(ready);
    const madeAt = messages.findIndex((m) => m.startsWith("made the demo shop's product photos"));
    expect(madeAt === -1 || madeAt > readyAt).toBe(true);
  });

  it("has made the photos afterwards, and owes none", { timeout: 600_000 }, async () => {
    await until(() => !existsSync(path.join(dataDir, DEMO_PHOTOS_PENDING)), { what: "the demo's photos made", timeoutMs: 580_000, intervalMs: 1_000 });
    expect(messages.some((m) => m.startsWith("made the demo shop's product photos"))).toBe(true);
    const listed = (await (await fetch(`${base}/api/products?per_page=96`)).json()) as { items: { image: { sources?: unknown[] } | null }[] };
    expect(listed.items.filter((p) => p.image?.sources?.length).length).toBeGreaterThan(0);
    expect(readdirSync(path.join(dataDir, "media")).length).toBeGreaterThan(0);
  });
});

// Browser end-to-end tests against the production build (`npm run test:e2e`
// builds it first), on a free port, with a fresh temporary DATA_DIR per run.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, devices } from "@playwright/test";
import { freePort } from "./scripts/lib/free-port.ts";

const root = path.dirname(fileURLToPath(import.meta.url));

/**
 * Chromium comes from the system: no browser can be downloaded here. Its
 * headless shell first (Debian's chromium-headless-shell, the build Playwright
 * itself runs headless by default): the full browser in its new headless mode
 * spent some 70% more of a core on the same journeys (twice the renderer
 * processes, two and a half times the browser's own work), and the suite is
 * bound by the two cores. CHROME_PATH picks another.
 */
function findChromium(): string {
  const candidates = [process.env.CHROME_PATH, "/usr/bin/chromium-headless-shell", "/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];
  const found = candidates.find((p): p is string => Boolean(p) && existsSync(p!));
  if (found) return found;
  throw new Error(
    [
      "No Chromium found for the browser tests.",
      `Looked at: ${candidates.filter(Boolean).join(", ")}.`,
      "Install it with `apt-get install -y chromium-headless-shell` (Debian/Ubuntu),",
      "or set CHROME_PATH to a Chromium or Chrome executable.",
    ].join("\n"),
  );
}

// The config is loaded again in every worker: the runner picks the port and the
// data directory once and the workers inherit them through the environment.
if (!process.env.E2E_PORT) process.env.E2E_PORT = String(await freePort());
if (!process.env.E2E_DATA_DIR) {
  const dir = mkdtempSync(path.join(tmpdir(), "tradecounter-e2e-"));
  process.env.E2E_DATA_DIR = dir;
  // Runs after Playwright has stopped the web server.
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
}
const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;

// The project's Node 24 (the server runs .ts by type stripping).
const localNode = path.join(root, "node_modules/.bin/node");
const node = existsSync(localNode) ? localNode : process.execPath;

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // Three on CI's two cores: a journey waits on the shop and the network often enough that two
  // left a third of the cores idle (the whole suite: 352 s with two, 276 s with three, the same CPU).
  workers: process.env.CI ? 3 : undefined,
  // Generous: a shared 2-core machine runs two browsers, the shop and argon2 at once; nothing here measures time.
  // These only catch a hang: on a day the machine ran at half its usual speed a 35-second journey
  // (photos made by sharp, then the storefront) passed the old 30 s and failed.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // `npm test` asks for a JSON report beside the list, to end a failed run with what failed (scripts/test.ts).
  reporter: process.env.TEST_REPORT_FILE ? [["list"], ["json", { outputFile: process.env.TEST_REPORT_FILE }]] : [["list"]],
  outputDir: "test-results",
  use: {
    baseURL,
    // A trace records every action's page (a fifth to a quarter of the suite's CPU, measured): kept
    // for a failure when run by hand; CI's log is read, not its files, and says what failed and where.
    trace: process.env.CI ? "off" : "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: findChromium(),
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: {
    command: `"${node}" server/main.ts`,
    cwd: root,
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    // A first start migrates, seeds and makes the demo photos: about 50 s on an idle two-core machine.
    timeout: 180_000,
    stdout: "ignore",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: process.env.E2E_DATA_DIR,
      LOG_LEVEL: "warn",
      NODE_ENV: "test",
      // The journeys read the demo's products as they stand: its photos are all made before the shop listens (ADR 0060).
      DEMO_PHOTOS: "before-start",
    },
  },
});

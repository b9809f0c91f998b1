// The branch finder in a real browser (issue 30): a visitor finds the nearest
// branch by postcode, is told plainly about a postcode nobody can place, opens
// the branch's page with its hours, directions and structured data, and is
// asked for their position only when they press the button. axe on both pages.
import AxeBuilder from "@axe-core/playwright";
import { openPage } from "./auth-helpers.ts";
import { expect, test } from "./fixtures.ts";

const WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

test("a visitor finds the nearest branch by postcode and opens its page", async ({ page }) => {
  await openPage(page, "/branches");
  await expect(page.getByRole("heading", { name: "Our branches" })).toBeVisible();
  await expect(page.getByTestId("branch-card")).toHaveCount(4);

  await page.getByLabel("Your postcode").fill("zz1 1zz");
  await page.getByRole("button", { name: "Find branches" }).click();
  await expect(page.getByText("We could not find ZZ1 1ZZ")).toBeVisible();
  await expect(page.getByLabel("Your postcode")).toHaveAttribute("aria-invalid", "true");
  // Every branch is still listed.
  await expect(page.getByTestId("branch-card")).toHaveCount(4);

  await page.getByLabel("Your postcode").fill("m1 1aa");
  await page.getByRole("button", { name: "Find branches" }).click();
  await expect(page).toHaveURL(/\/branches\?near=m1\+1aa/);
  await expect(page.getByRole("heading", { name: "Branches nearest M1 1AA" })).toBeVisible();
  const first = page.getByTestId("branch-card").first();
  await expect(first).toContainText("Manchester, Store Street");
  await expect(first).toContainText(/\d(\.\d)? miles? away/);

  await first.getByRole("link", { name: "Manchester, Store Street" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Manchester, Store Street" })).toBeVisible();
  await expect(page.getByRole("row", { name: /Monday 07:00 to 17:00/ })).toBeVisible();
  await expect(page.getByRole("row", { name: /Sunday Closed/ })).toBeVisible();
  await expect(page.getByRole("link", { name: /Directions to Manchester, Store Street on OpenStreetMap/ })).toHaveAttribute("href", /openstreetmap\.org\/directions\?route=%3B53\.479%2C-2\.229/);
  const jsonLd = (await page.locator('script[type="application/ld+json"]').allTextContents()).map((t) => JSON.parse(t) as { "@type": string; address?: { postalCode: string } });
  expect(jsonLd.find((d) => d["@type"] === "HardwareStore")?.address?.postalCode).toBe("M1 2WD");
});

test("the browser's position is used only when asked, and a refusal is explained", async ({ browser }) => {
  const context = await browser.newContext({ geolocation: { latitude: 53.96, longitude: -1.08 } });
  const page = await context.newPage();
  await openPage(page, "/branches");
  await context.grantPermissions(["geolocation"], { origin: new URL(page.url()).origin });
  await expect(page).toHaveURL(/\/branches$/);
  await page.getByRole("button", { name: "Use my location" }).click();
  await expect(page.getByRole("heading", { name: "Branches nearest you" })).toBeVisible();
  await expect(page.getByTestId("branch-card").first()).toContainText("York, Foss Islands");
  await context.close();

  const refused = await browser.newContext({ permissions: [] });
  const other = await refused.newPage();
  await openPage(other, "/branches");
  await other.getByRole("button", { name: "Use my location" }).click();
  await expect(other.getByRole("alert")).toContainText("We could not get your location");
  await refused.close();
});

test("the finder and a branch's page pass axe", async ({ page }) => {
  for (const path of ["/branches?near=LS1%201AA", "/branches/york"]) {
    await openPage(page, path);
    const { violations } = await new AxeBuilder({ page }).withTags(WCAG_22_AA).analyze();
    expect(violations.map((v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`), path).toEqual([]);
  }
});

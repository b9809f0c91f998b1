import { expect, test } from "./fixtures.ts";

test.describe("category pages", () => {
  test("a multi-segment category URL renders with its breadcrumb", async ({ page }) => {
    const response = await page.goto("/category/power-tools/cordless-drills");
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Cordless Drills");
    await expect(page).toHaveTitle(/^Cordless Drills/);

    const breadcrumb = page.getByRole("navigation", { name: "Breadcrumb" });
    await expect(breadcrumb.getByRole("link", { name: "Home" })).toHaveAttribute("href", "/");
    await expect(breadcrumb.getByRole("link", { name: "Power Tools" })).toHaveAttribute("href", "/category/power-tools");
    await expect(breadcrumb.locator("[aria-current=page]")).toHaveText("Cordless Drills");

    // Its children are one level deeper still.
    await page.waitForLoadState("networkidle");
    await page.getByRole("link", { name: "Combi Drills" }).click();
    await expect(page).toHaveURL("/category/power-tools/cordless-drills/combi-drills");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Combi Drills");
  });
});

test.describe("route rules", () => {
  test("/kitchens lands on /kitchens-and-bathrooms", async ({ page, request }) => {
    const first = await request.get("/kitchens", { maxRedirects: 0 });
    expect(first.status()).toBe(301);
    expect(first.headers()["location"]).toBe("/kitchens-and-bathrooms");

    await page.goto("/kitchens");
    await expect(page).toHaveURL("/kitchens-and-bathrooms");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Kitchens & Bathrooms");
  });

  test("a prefix rule carries the rest of the path over", async ({ request }) => {
    const response = await request.get("/categories/power-tools/saws", { maxRedirects: 0 });
    expect(response.status()).toBe(308);
    expect(response.headers()["location"]).toBe("/category/power-tools/saws");
  });

  test("an external target leaves the site", async ({ request }) => {
    // Never followed: there is no internet here, and the Location header is the point.
    const response = await request.get("/companies-house", { maxRedirects: 0 });
    expect(response.status()).toBe(302);
    expect(response.headers()["location"]).toBe("https://find-and-update.company-information.service.gov.uk/");
  });
});

test.describe("access rules", () => {
  test("a signed-in-only page sends a guest to sign in with the path to return to", async ({ page }) => {
    await page.goto("/account/orders/history");
    await expect(page).toHaveURL("/auth/login?redirect=%2Faccount%2Forders%2Fhistory");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign in");
  });

  test("the redirect is a server redirect, before any page renders", async ({ request }) => {
    const response = await request.get("/trade/invoices", { maxRedirects: 0 });
    expect([302, 303, 307]).toContain(response.status());
    expect(response.headers()["location"]).toBe("/auth/login?redirect=%2Ftrade%2Finvoices");
  });
});

// Section 2 of the specification, public group (and the guest-only group, open to a guest).
const publicRoutes = [
  ["/", "Everything for the build, from one counter."],
  ["/compare", "Compare products"],
  ["/hire", "Equipment hire"],
  ["/about", "About us"],
  ["/basket", "Your basket"],
  ["/search", "Search"],
  ["/contact", "Contact us"],
  ["/category", "All categories"],
  ["/checkout", "Checkout"],
  ["/checkout/thank-you", "Thank you"],
  ["/delivery", "Delivery"],
  ["/products", "All products"],
  ["/showcase", "Showcase"],
  ["/manufacturer", "Brands"],
  ["/hire-basket", "Your hire request"],
  ["/kitchens-and-bathrooms", "Kitchens & Bathrooms"],
  ["/auth/login", "Sign in"],
  ["/auth/register", "Create an account"],
  ["/auth/recovery", "Reset your password"],
  ["/account/login", "Sign in"],
] as const;

test.describe("every public route server-renders", () => {
  for (const [path, heading] of publicRoutes) {
    test(`GET ${path}`, async ({ request }) => {
      const response = await request.get(path, { maxRedirects: 0 });
      expect(response.status()).toBe(200);
      expect(response.headers()["content-type"]).toContain("text/html");
      const html = await response.text();
      const h1 = /<h1\b[^>]*>([\s\S]*?)<\/h1>/.exec(html);
      expect(h1, "the server-rendered page has an <h1>").not.toBeNull();
      const text = h1![1]!.replace(/<[^>]+>/g, "").replace(/&amp;/g, "&").replace(/<!-- -->/g, "").trim();
      expect(text).toBe(heading);
    });
  }
});

import { expect, test } from "./fixtures.ts";

test("the delivery page is rendered from the delivery rules checkout uses", async ({ page, request }) => {
  await page.goto("/delivery");
  await expect(page.getByRole("heading", { level: 1, name: "Delivery" })).toBeVisible();
  const standard = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Standard delivery" }) });
  await expect(standard).toContainText("£6.95");
  await expect(standard).toContainText("Free on orders of £75.00 or more.");
  await expect(page.getByRole("row", { name: /Isle of Man/ })).toContainText("Click & collect only");
  await expect(page.getByRole("row", { name: /Scottish Highlands/ })).toContainText("PA20–49");

  // The same price reaches checkout.
  const options = await (await request.get("/api/checkout/delivery-options?postcode=LS1%201AB")).json();
  expect(options.data.delivery.find((d: { id: string }) => d.id === "standard").price).toBe(6.95);
});

// The back office's journeys of issue 18, each in real browsers against the
// production build: a guest's order taken through the orders desk by two
// members of staff (sales marks it paid, the warehouse prints the picking
// list and dispatches it), the customer's email with the tracking link, and
// the audit log naming each step's member; and an owner who enrols an
// authenticator app and signs in with its code.
import { currentTotp } from "../../server/modules/staff/totp.ts";
import { newUser, openPage, waitForEmailTo } from "./auth-helpers.ts";
import { readPdf } from "../../server/test/pdf.ts";
import { chooseAddressByPostcode } from "./checkout-helpers.ts";
import { expect, test } from "./fixtures.ts";
import { openOrder, staffPage } from "./staff-helpers.ts";

test("a guest's order: sales marks it paid, the warehouse prints the picking list and dispatches it, the customer gets the tracking link, the audit log names each step", async ({ page, browser }) => {
  test.slow();
  // A guest buys something for delivery and pays by bank transfer.
  const guest = newUser("Gale");
  const listed = await page.request.get("/api/products", { params: { in_stock: 1, per_page: 48 } });
  const product = ((await listed.json()) as { items: { id: number; name: string; stock: number }[] }).items.find((p) => p.stock >= 5 && p.stock < 900)!;
  await page.request.get("/sanctum/csrf-cookie");
  const xsrf = (await page.context().cookies()).find((c) => c.name === "XSRF-TOKEN")!.value;
  expect((await page.request.post("/api/basket", { headers: { "X-XSRF-TOKEN": decodeURIComponent(xsrf) }, data: { product_id: product.id, quantity: 2 } })).status()).toBe(200);
  await openPage(page, "/checkout");
  await page.getByLabel("Email address").fill(guest.email);
  await page.getByLabel("Phone").fill("0113 496 0000");
  await chooseAddressByPostcode(page, "LS1 1AA", { town: "Leeds", postcode: "LS1 1AA" });
  // The recipient's name (issue 34): on the desk, the order and the picking list.
  await page.getByLabel("Full name").fill("Gwen Gale");
  await page.getByRole("radio", { name: /Standard delivery/ }).check();
  await page.getByRole("radio", { name: /Bank transfer/ }).check();
  await page.getByRole("button", { name: "Place order" }).click();
  await expect(page).toHaveURL(/\/checkout\/thank-you/);
  const number = (await page.getByTestId("order-number").textContent())!.trim();

  // Sales: the bank transfer has arrived.
  const sales = await staffPage(browser, "sales@staff.example.com");
  await openOrder(sales, number);
  await expect(sales.getByText("Awaiting payment").first()).toBeVisible();
  // The amount starts at the total; the bank's reference is recorded with it (issue 34).
  await sales.getByLabel("Bank reference").fill("BACS GALE 2");
  await sales.getByRole("button", { name: "Mark as paid" }).click();
  await expect(sales.getByRole("status").filter({ hasText: `Order ${number} is now paid.` })).toBeVisible();
  await expect(sales.getByTestId("payment-received")).toContainText("reference BACS GALE 2");

  // The warehouse: no prices in sight, the picking list, then the dispatch.
  const warehouse = await staffPage(browser, "warehouse@staff.example.com");
  await expect(warehouse.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Audit log" })).toHaveCount(0);
  await openOrder(warehouse, number);
  await expect(warehouse.getByTestId("order-total")).toHaveCount(0);
  const pickingHref = await warehouse.getByRole("link", { name: "Picking list (PDF)" }).getAttribute("href");
  const picking = await warehouse.request.get(pickingHref!);
  expect(picking.status()).toBe(200);
  expect(picking.headers()["content-type"]).toBe("application/pdf");
  expect((await picking.body()).subarray(0, 5).toString()).toBe("%PDF-");
  const pickingText = (await readPdf(await picking.body())).text;
  expect(pickingText).toContain("Gwen Gale");
  expect(pickingText).toContain("Phone: 0113 496 0000");
  await warehouse.getByRole("button", { name: "Start picking" }).click();
  await expect(warehouse.getByRole("status").filter({ hasText: `Order ${number} is now processing.` })).toBeVisible();
  // Dispatch asks for the carrier and the tracking number.
  await warehouse.getByRole("button", { name: "Dispatch" }).click();
  await expect(warehouse.getByText("Enter the carrier.")).toBeVisible();
  await warehouse.getByLabel("Carrier").fill("Royal Mail");
  await warehouse.getByLabel("Tracking number").fill("AB123456785GB");
  await warehouse.getByRole("button", { name: "Dispatch" }).click();
  await expect(warehouse.getByRole("status").filter({ hasText: `Order ${number} is now dispatched.` })).toBeVisible();
  await expect(warehouse.getByRole("link", { name: "AB123456785GB" })).toHaveAttribute("href", /royalmail\.com.*AB123456785GB/);

  // The customer's email holds the tracking link.
  await expect.poll(async () => (await waitForEmailTo(guest.email)).includes("AB123456785GB"), { timeout: 15_000 }).toBe(true);
  const email = await waitForEmailTo(guest.email);
  expect(email).toContain(`Order ${number} is on its way`);
  expect(email).toContain("https://www.royalmail.com/track-your-item#/tracking-results/AB123456785GB");

  // The owner reads the order's audit log: each step, and who made it.
  const owner = await staffPage(browser, "owner@example.com");
  await openPage(owner, `/admin/audit?entity=order&entity_id=${number}`);
  const rows = owner.getByRole("table").getByRole("row");
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(1)).toContainText("Wes Warehouse");
  // In the shop's words (issue 34): statuses by their names, the payment as a sentence.
  await expect(rows.nth(1)).toContainText("moved from Processing to Dispatched");
  await expect(rows.nth(2)).toContainText("Wes Warehouse");
  await expect(rows.nth(2)).toContainText("moved from Paid to Processing");
  await expect(rows.nth(3)).toContainText("Sita Sales");
  await expect(rows.nth(3)).toContainText("moved from Awaiting payment to Paid");
  await expect(rows.nth(3)).toContainText("reference BACS GALE 2");
  await expect(rows.nth(3)).not.toContainText("awaiting_payment");
});

test("an owner invited by another enrols an authenticator app when setting up, and signs in with its code", async ({ browser }) => {
  test.slow();
  const owner = await staffPage(browser, "owner@example.com");
  const csrf = (await owner.context().cookies()).find((c) => c.name === "tc_admin_csrf")!.value;
  const invitee = newUser("Otto");
  const invited = await owner.request.post("/api/admin/staff", { headers: { "X-Admin-CSRF": decodeURIComponent(csrf) }, data: { email: invitee.email, name: "Otto Owner", role: "owner" } });
  expect(invited.status(), await invited.text()).toBe(201);
  const setup = new URL(((await invited.json()) as { setup_url: string }).setup_url);

  const page = await (await browser.newContext()).newPage();
  await openPage(page, setup.pathname);
  await expect(page.getByText("Welcome, Otto Owner.")).toBeVisible();
  const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
  await page.getByLabel("Choose a password").fill(invitee.password);
  await page.getByLabel("The password again").fill(invitee.password);
  await page.getByLabel("The code your app shows").fill(await currentTotp(secret));
  await page.getByRole("button", { name: "Set up my account" }).click();
  await expect(page.getByTestId("recovery-codes").getByRole("listitem")).toHaveCount(10);
  await page.getByRole("link", { name: "Continue to the back office" }).click();
  await expect(page.getByTestId("admin-signed-in-as")).toContainText("Otto Owner");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/admin\/login$/);

  // The password alone is no longer enough.
  await page.getByLabel("Email address").fill(invitee.email);
  await page.getByLabel("Password").fill(invitee.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Enter the 6-digit code from your authenticator app, or a recovery code.").first()).toBeVisible();
  // The code of the step after the one the set-up used (a code is never taken twice).
  await page.getByLabel("Password").fill(invitee.password);
  await page.getByLabel("Authentication code").fill(await currentTotp(secret, Date.now() + 30_000));
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await openPage(page, "/admin/account");
  await expect(page.getByTestId("totp-state")).toHaveText("On");
});

// The trade desk (issue 21) in a real browser against the production build:
// an accounts member records one BACS payment against the three invoices of
// the demo's Morgan Joinery (one overdue, so the account is on hold), and the
// account comes off hold; then credits an invoice and reads the month's
// statement with the payment and the credit note on it. Morgan Joinery is
// this journey's own company: the other trade specs use Shah Building Services.
import { openPage } from "./auth-helpers.ts";
import { expect, test } from "./fixtures.ts";
import { staffPage } from "./staff-helpers.ts";

test("accounts: one BACS payment across three invoices lifts the hold; a credit note; the statement shows both", async ({ browser }) => {
  test.slow();
  const desk = await staffPage(browser, "accounts@staff.example.com");
  const reference = `MJ-BACS-${Date.now().toString(36).toUpperCase()}`;

  await test.step("the accounts list puts the overdue accounts first, on hold", async () => {
    await openPage(desk, "/admin/trade");
    const row = desk.getByRole("row", { name: /Morgan Joinery Ltd/ });
    await expect(row).toContainText("On hold: overdue");
    await row.getByRole("link", { name: "Morgan Joinery Ltd" }).click();
    await expect(desk.getByRole("heading", { level: 1 })).toHaveText("Morgan Joinery Ltd");
    await expect(desk.getByText("On hold: overdue").first()).toBeVisible();
  });

  const invoices: string[] = [];
  await test.step("one BACS payment, allocated in full to each of the three open invoices", async () => {
    const form = desk.getByRole("region", { name: "Record a payment" });
    const boxes = form.getByRole("checkbox", { name: /^Pay INV-\d+ in full$/ });
    await expect(boxes).toHaveCount(3);
    for (const box of await boxes.all()) {
      invoices.push((await box.getAttribute("name"))!.replace(/^full_/, ""));
      await box.check();
    }
    await form.getByLabel("Method").selectOption("bacs");
    await form.getByLabel("Reference (payer's, cheque number)").fill(reference);
    await form.getByRole("button", { name: "Record payment" }).click();
    await expect(desk.getByTestId("result-banner")).toBeVisible();
    await expect(desk.getByText("On hold: overdue")).toHaveCount(0);
    const figures = desk.getByTestId("trade-account-figures");
    await expect(figures).toContainText("£0.00");
    const payments = desk.getByRole("region", { name: "Payments" });
    await expect(payments).toContainText(reference);
    for (const number of invoices) await expect(payments).toContainText(number);
  });

  let creditNote = "";
  await test.step("a credit note against the first invoice, with its reason and PDF", async () => {
    await desk.getByRole("link", { name: `Credit note for ${invoices[0]}` }).click();
    const form = desk.getByRole("region", { name: `Issue a credit note against ${invoices[0]}` });
    await form.getByLabel("Reason (printed on the credit note)").fill("Two lengths returned unused");
    await form.getByRole("checkbox", { name: /Credit everything not yet credited/ }).check();
    await form.getByRole("button", { name: "Issue credit note" }).click();
    const banner = desk.getByTestId("result-banner");
    await expect(banner).toContainText(/Credit note CN-\d+/);
    creditNote = /CN-\d+/.exec((await banner.textContent())!)![0];
    const link = desk.getByRole("region", { name: "Credit notes" }).getByRole("link", { name: new RegExp(creditNote) });
    const pdf = await desk.request.get((await link.getAttribute("href"))!);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toContain("application/pdf");
  });

  await test.step("this month's statement lists the payment and the credit note, and downloads as a PDF", async () => {
    await desk.getByRole("link", { name: "Statements" }).click();
    await expect(desk.getByRole("heading", { level: 1 })).toContainText("Statement");
    // It opens on last month's; this month's has today's payment and credit note.
    const thisMonth = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London", year: "numeric", month: "2-digit" }).format(new Date()).slice(0, 7);
    await desk.getByLabel("Month", { exact: true }).fill(thisMonth);
    await desk.getByRole("button", { name: "Show statement" }).click();
    await expect(desk).toHaveURL(new RegExp(`month=${thisMonth}`));
    const entries = desk.getByRole("table", { name: /invoices, credit notes and payments/ });
    await expect(entries).toContainText(creditNote);
    await expect(entries).toContainText(reference);
    await expect(desk.getByTestId("closing-balance")).toBeVisible();
    await expect(desk.getByTestId("aged-debt")).toBeVisible();
    const pdf = await desk.request.get((await desk.getByRole("link", { name: "Download PDF" }).getAttribute("href"))!);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toContain("application/pdf");
  });
});

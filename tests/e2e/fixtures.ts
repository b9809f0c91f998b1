// Every page a test opens is watched: a console error, an uncaught exception or
// a Content Security Policy violation fails the test after it has run.
import { test as base, expect, type Page } from "@playwright/test";

declare global {
  interface Window {
    __reportCspViolation?: (text: string) => void;
  }
}

async function watch(page: Page, problems: string[]): Promise<void> {
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`uncaught exception: ${error.message}`));
  await page.exposeFunction("__reportCspViolation", (text: string) => problems.push(`CSP violation: ${text}`));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      window.__reportCspViolation?.(`${event.violatedDirective} blocked ${event.blockedURI || "inline"} (${event.sourceFile}:${event.lineNumber})`);
    });
  });
}

export const test = base.extend<{ allowedConsoleErrors: RegExp[] }>({
  /** Console errors a test expects, e.g. the browser's own log line for a 404 response. */
  allowedConsoleErrors: [[], { option: true }],
  // Every test that uses `page` is watched; the check runs after the test body.
  page: async ({ page, allowedConsoleErrors }, use) => {
    const problems: string[] = [];
    await watch(page, problems);
    await use(page);
    const unexpected = problems.filter((p) => !allowedConsoleErrors.some((re) => re.test(p)));
    expect(unexpected, "the page logged errors or broke its Content Security Policy").toEqual([]);
  },
});

export { expect };

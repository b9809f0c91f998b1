// The end of a failed `npm test`: the failing tests' names and first error
// lines, read from the runners' JSON reports (shapes as vitest 5's json
// reporter and Playwright 1.64's write them).
import { describe, expect, it } from "vitest";
import { firstLines, formatFailures, formatTimes, playwrightFailures, vitestFailures } from "./test-summary.ts";

describe("a failed run's summary", () => {
  it("names each failed vitest test by file and full name, with its error's first lines, and a file that failed to load", () => {
    const report = {
      testResults: [
        {
          name: "/repo/server/a.test.ts",
          status: "failed",
          message: "",
          assertionResults: [
            { fullName: "outer adds wrongly", status: "failed", failureMessages: ["\u001b[31mAssertionError\u001b[39m: the sum: expected 2 to be 3\n\n    at /repo/server/a.test.ts:2:79\n    at run.js:1:1\n    at run.js:2:2\n    at run.js:3:3"] },
            { fullName: "outer passes", status: "passed", failureMessages: [] },
          ],
        },
        { name: "/repo/server/b.test.ts", status: "failed", message: "the file fails to load", assertionResults: [] },
        { name: "/repo/server/c.test.ts", status: "passed", message: "", assertionResults: [{ fullName: "fine", status: "passed" }] },
      ],
    };
    expect(vitestFailures(report, "/repo")).toEqual([
      { where: "server/a.test.ts", name: "outer adds wrongly", error: ["AssertionError: the sum: expected 2 to be 3", "    at /repo/server/a.test.ts:2:79", "    at run.js:1:1", "    at run.js:2:2"] },
      { where: "server/b.test.ts", name: "(the file itself)", error: ["the file fails to load"] },
    ]);
  });

  it("names each unexpected Playwright test by its describe blocks, and errors outside any test", () => {
    const report = {
      suites: [
        {
          title: "basket.spec.ts",
          file: "basket.spec.ts",
          specs: [{ title: "adds a line", file: "basket.spec.ts", line: 12, tests: [{ status: "expected", results: [{ status: "passed" }] }] }],
          suites: [
            {
              title: "on a phone",
              file: "basket.spec.ts",
              specs: [{ title: "opens by touch", file: "basket.spec.ts", line: 40, tests: [{ status: "unexpected", results: [{ status: "failed", error: { message: "Error: expect(locator).toBeVisible() failed\n\nLocator: getByRole('dialog')" } }] }] }],
            },
          ],
        },
        { title: "slow.spec.ts", file: "slow.spec.ts", specs: [{ title: "hangs", file: "slow.spec.ts", line: 3, tests: [{ status: "unexpected", results: [{ status: "timedOut" }] }] }] },
        { title: "flaky.spec.ts", file: "flaky.spec.ts", specs: [{ title: "passed on retry", file: "flaky.spec.ts", line: 5, tests: [{ status: "flaky", results: [{ status: "failed" }, { status: "passed" }] }] }] },
      ],
      errors: [{ message: "Error: global set-up could not build the shop" }],
    };
    expect(playwrightFailures(report)).toEqual([
      { where: "basket.spec.ts:40", name: "on a phone › opens by touch", error: ["Error: expect(locator).toBeVisible() failed", "Locator: getByRole('dialog')"] },
      { where: "slow.spec.ts:3", name: "hangs", error: ["timedOut"] },
      { where: "(outside any test)", name: "error", error: ["Error: global set-up could not build the shop"] },
    ]);
  });

  it("prints each failure's place and name with its error indented under it, and each stage's time", () => {
    expect(formatFailures("browser tests", [{ where: "a.spec.ts:4", name: "t", error: ["Error: x"] }])).toEqual(["✘ browser tests: 1 failed", "  a.spec.ts:4 › t", "      Error: x"]);
    expect(formatFailures("lint", [])).toEqual([]);
    expect(formatTimes([{ name: "lint", seconds: 41, ok: true }, { name: "browser tests", seconds: 754, ok: false }])).toBe("Stage times:\n  ✓ lint: 41 s\n  ✘ browser tests: 12 min 34 s");
    expect(firstLines(undefined)).toEqual([]);
  });
});

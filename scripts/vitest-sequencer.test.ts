import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LONGEST_FIRST } from "./vitest-sequencer.ts";

describe("the unit suites' order", () => {
  it("names only test files that exist, each once", () => {
    const root = path.resolve(import.meta.dirname, "..");
    for (const file of LONGEST_FIRST) expect(existsSync(path.join(root, file)), file).toBe(true);
    expect(new Set(LONGEST_FIRST).size).toBe(LONGEST_FIRST.length);
  });
});

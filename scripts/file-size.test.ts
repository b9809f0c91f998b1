// The 500-line rule (issue 35) over the tracked source, and the rule's own checks.
import { describe, expect, it } from "vitest";
import { FILE_LINES_MAX, lineCount, longFilesWithoutReason, trackedSourceFiles } from "./file-size.ts";

const long = (lines: number, top = "") => `${top}${"const x = 1;\n".repeat(lines - (top ? top.split("\n").length - 1 : 0))}`;

describe("the 500-line rule", () => {
  it("names each file over the limit with no reason at its top, and its line count", () => {
    const files = trackedSourceFiles();
    expect(files.some((f) => f.path.startsWith("server/") && f.path.endsWith(".test.ts"))).toBe(true);
    const offenders = longFilesWithoutReason(files);
    expect(
      offenders.map((f) => `${f.path}: ${f.lines} lines`),
      `split these by responsibility, or write "// Over ${FILE_LINES_MAX} lines: <why>" in their first 5 lines`,
    ).toEqual([]);
  });

  it("accepts a long file only with the reason in its first 5 lines", () => {
    const files = [
      { path: "a.ts", text: long(501) },
      { path: "b.ts", text: long(501, "// Over 500 lines: a table is easier to audit whole.\n") },
      { path: "c.ts", text: long(501, "// Over 500 lines for now: a promise is not a reason.\n") },
      { path: "d.ts", text: long(501, "import x from 'y';\n\n\n\n\n// Over 500 lines: too far down to be seen.\n") },
      { path: "e.ts", text: long(501, "// Over 500 lines:\n") },
      { path: "f.ts", text: long(500) },
      { path: "g.tsx", text: long(620) },
    ];
    expect(longFilesWithoutReason(files)).toEqual([
      { path: "g.tsx", lines: 620 },
      { path: "a.ts", lines: 501 },
      { path: "c.ts", lines: 501 },
      { path: "d.ts", lines: 501 },
      { path: "e.ts", lines: 501 },
    ]);
  });

  it("counts lines as wc -l does", () => {
    expect(lineCount("")).toBe(0);
    expect(lineCount("a\nb\n")).toBe(2);
    expect(lineCount("a\nb")).toBe(2);
  });
});

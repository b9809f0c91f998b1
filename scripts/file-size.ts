// Issue 35's file-size rule: no source file over 500 lines without the reason
// written at its top, so a long file is a choice someone explained, not drift.
// scripts/file-size.test.ts runs it over every tracked .ts/.tsx file.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const FILE_LINES_MAX = 500;
/** The folders whose code the rule covers, tests included. */
export const RULE_FOLDERS = ["app", "server", "scripts", "tests"] as const;
/** The reason's comment, in a file's first lines: `// Over 500 lines: a table is easier to audit whole.` */
export const REASON_LINES = 5;
const REASON = /^\/\/ Over 500 lines: \S/;


export interface LongFile {
  path: string;
  lines: number;
}

/** Lines as `wc -l` counts them: a last line without its newline still counts. */
export function lineCount(text: string): number {
  if (text === "") return 0;
  const parts = text.split("\n");
  return text.endsWith("\n") ? parts.length - 1 : parts.length;
}

/** Whether one of the file's first lines gives the reason it is long. */
export function hasReason(text: string): boolean {
  return text.split("\n", REASON_LINES).some((line) => REASON.test(line.trim()));
}

/** The files over the limit that give no reason at their top, longest first. */
export function longFilesWithoutReason(files: { path: string; text: string }[]): LongFile[] {
  return files
    .map((f) => ({ path: f.path, lines: lineCount(f.text), reason: hasReason(f.text) }))
    .filter((f) => f.lines > FILE_LINES_MAX && !f.reason)
    .map(({ path: p, lines }) => ({ path: p, lines }))
    .sort((a, b) => b.lines - a.lines || a.path.localeCompare(b.path));
}

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Every tracked .ts and .tsx file under the rule's folders, with its text. */
export function trackedSourceFiles(root = repoRoot): { path: string; text: string }[] {
  const listed = execFileSync("git", ["ls-files", "-z", "--", ...RULE_FOLDERS], { cwd: root, encoding: "utf8" });
  return listed
    .split("\0")
    .filter((p) => /\.tsx?$/.test(p))
    .map((p) => ({ path: p, text: readFileSync(path.join(root, p), "utf8") }));
}

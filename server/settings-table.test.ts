// docs/configuration.md's table of settings kept in step with the code (issue
// 35), as the scheduled jobs' table is (server/modules/jobs/schedule.test.ts):
// every environment variable the shop's code reads has a row, and every row
// names a variable some code reads.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "./app.ts";
import { CONFIG_SCHEMA_VARIABLES } from "./config.ts";

/** The variables a source file reads: `env.NAME`, `env["NAME"]`, and the flags config.ts reads by name. */
export function variablesRead(source: string): string[] {
  const found = [
    ...source.matchAll(/\benv\.([A-Z][A-Z0-9_]*)\b/g),
    ...source.matchAll(/\benv\[["']([A-Z][A-Z0-9_]*)["']\]/g),
    ...source.matchAll(/\bparseFlag\(\s*"([A-Z][A-Z0-9_]*)"/g),
  ].map((m) => m[1]!);
  return [...new Set(found)];
}

/** The names in the first cell of each row of the settings table (one or more, in back-quotes). */
export function tableVariables(markdown: string): string[] {
  return [...markdown.matchAll(/^\| ((?:`[A-Z][A-Z0-9_]*`(?:, )?)+) \|/gm)].flatMap((m) => [...m[1]!.matchAll(/`([A-Z0-9_]+)`/g)].map((n) => n[1]!));
}

function sources(dir: string, keep: (file: string) => boolean): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(projectRoot, dir), { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && /\.tsx?$/.test(entry.name) && keep(file)) found.push(file);
  }
  return found;
}

const readAll = (files: string[]) => new Set(files.flatMap((file) => variablesRead(readFileSync(file, "utf8"))));

/** What the shop itself reads: its configuration's schema and every server file but the tests. */
const shopReads = new Set([...CONFIG_SCHEMA_VARIABLES, ...readAll(sources("server", (file) => !file.endsWith(".test.ts")))]);
/** What any code reads, the tests and tools included (the table's rows marked "Tests only" are read there). */
const anyCodeReads = new Set([
  ...shopReads,
  ...readAll([...sources("server", () => true), ...sources("scripts", () => true), ...sources("tests", () => true), ...sources("app", () => true), path.join(projectRoot, "playwright.config.ts")]),
]);
const table = tableVariables(readFileSync(path.join(projectRoot, "docs/configuration.md"), "utf8"));

describe("docs/configuration.md's settings", () => {
  it("reads names from code and from the table as they are written", () => {
    expect(variablesRead('const a = env.DATA_DIR; process.env["SMTP_URL"]; parseFlag("SEED_DEMO", env.SEED_DEMO, true, w); env.lower;').sort()).toEqual(["DATA_DIR", "SEED_DEMO", "SMTP_URL"]);
    expect(tableVariables("| Variable | Meaning |\n|---|---|\n| `PORT` | Port. |\n| `S3_BUCKET`, `S3_REGION` | Bucket. |\n| not a row |")).toEqual(["PORT", "S3_BUCKET", "S3_REGION"]);
  });

  it("has a row for every variable the shop reads", () => {
    expect(table.length).toBeGreaterThan(40);
    expect([...shopReads].filter((name) => !table.includes(name)).sort()).toEqual([]);
  });

  it("names only variables some code reads, each once", () => {
    expect(table.filter((name) => !anyCodeReads.has(name))).toEqual([]);
    expect(table.filter((name, i) => table.indexOf(name) !== i)).toEqual([]);
  });
});

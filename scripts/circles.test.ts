// No import circles (issue 35, ADR 0059): dependency-cruiser's `no-circular`
// rule from .dependency-cruiser.cjs, run through its API over the shop's code,
// as `npm run circles` runs it from the command line. Type-only imports count
// (tsPreCompilationDeps): a circle through a type ties two modules as surely.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { cruise, type ICruiseResult } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Each circle among the modules under `paths` (relative to `baseDir`), as `a.ts → b.ts → a.ts`. */
async function importCircles(paths: string[], baseDir = root): Promise<string[]> {
  const options = await extractDepcruiseOptions(path.join(root, ".dependency-cruiser.cjs"));
  const tsConfig = extractTSConfig(path.join(root, "tsconfig.json"));
  const { output } = await cruise(paths, { ...options, baseDir }, {}, { tsConfig });
  const result = output as ICruiseResult;
  return result.summary.violations.filter((v) => v.rule.name === "no-circular").map((v) => [v.from, ...(v.cycle ?? []).map((c) => c.name)].join(" → "));
}

describe("import circles", () => {
  it("there are none in app/, server/, scripts/ or tests/", async () => {
    const circles = await importCircles(["app", "server", "scripts", "tests"]);
    // The message names each circle: move what its modules share into a module of their own.
    expect(circles, `Import circles:\n${circles.join("\n")}`).toEqual([]);
    // A thousand modules parsed by the TypeScript compiler: seconds on an idle machine, more on a busy one.
  }, 120_000);

  const dir = mkdtempSync(path.join(tmpdir(), "tc-circles-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("a circle added on purpose is found, through a type-only import too", async () => {
    mkdirSync(path.join(dir, "lib"));
    writeFileSync(path.join(dir, "page.tsx"), `import { useThing } from "./lib/use-thing.ts";\nexport interface PageData { name: string }\nexport function Page() { return useThing().name; }\n`);
    writeFileSync(path.join(dir, "lib", "use-thing.ts"), `import type { PageData } from "../page.tsx";\nexport function useThing(): PageData { return { name: "x" }; }\n`);
    writeFileSync(path.join(dir, "alone.ts"), `export const alone = 1;\n`);
    const circles = await importCircles(["."], dir);
    expect(circles).toEqual(["lib/use-thing.ts → page.tsx → lib/use-thing.ts"]);
  });
});

import { defineConfig } from "vitest/config";
import LongestFirst from "./scripts/vitest-sequencer.ts";

export default defineConfig({
  resolve: {
    // The server imports `#app-context` through package.json "imports"; Vite resolves it too.
  },
  test: {
    include: ["server/**/*.test.ts", "app/**/*.test.ts", "app/**/*.test.tsx", "scripts/**/*.test.ts"],
    environment: "node",
    // The production build, for the tests that read it (scripts/vitest-build.ts),
    // and the migrated and seeded databases each file's own is copied from.
    globalSetup: ["scripts/vitest-build.ts", "scripts/vitest-databases.ts"],
    // `npm test` asks for a JSON report beside the usual output, to end a failed run with what failed (scripts/test.ts).
    reporters: process.env.TEST_REPORT_FILE ? ["default", "json"] : ["default"],
    outputFile: process.env.TEST_REPORT_FILE ? { json: process.env.TEST_REPORT_FILE } : undefined,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file builds its own database; two at a time suits a 2-core machine.
    maxWorkers: 2,
    // A worker keeps the modules it has loaded from one file to the next: loading
    // the app's module graph afresh per file was a quarter of the suites' time.
    // No test changes module state it does not put back (fake timers are reset
    // after each test, nothing is mocked by module); each file still has its
    // own database and its own app.
    isolate: false,
    // The long files first, so that neither worker ends the run alone (scripts/vitest-sequencer.ts).
    sequence: { sequencer: LongestFirst },
  },
});

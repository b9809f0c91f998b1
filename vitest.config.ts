import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // The server imports `#app-context` through package.json "imports"; Vite resolves it too.
  },
  test: {
    include: ["server/**/*.test.ts", "app/**/*.test.ts", "scripts/**/*.test.ts"],
    environment: "node",
    // The production build, for the tests that read it (scripts/vitest-build.ts).
    globalSetup: ["scripts/vitest-build.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file builds its own database; two at a time suits a 2-core machine.
    maxWorkers: 2,
  },
});

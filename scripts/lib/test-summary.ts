// The end of a failed `npm test` (issue 35): which tests failed and the first
// lines of each one's error, read from the JSON the test runners write beside
// their usual output (vitest's json reporter, Playwright's), so a failed CI run
// can be read from its last lines alone. A stage with no report (the type
// check, lint) ends with the last lines of its own output instead.

/** One failed test: where it is, its name, and the first lines of its error. */
export interface Failure {
  where: string;
  name: string;
  error: string[];
}

/** How many of an error's lines are shown: the message and where it was thrown, not the whole stack. */
export const ERROR_LINES = 4;

// eslint-disable-next-line no-control-regex -- the runners colour their messages; the summary is plain text.
const ANSI = /\u001b\[[0-9;]*m/g;

/** An error's first meaningful lines, without colours or blank lines. */
export function firstLines(message: string | undefined, count = ERROR_LINES): string[] {
  return (message ?? "")
    .replace(ANSI, "")
    .split("\n")
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== "")
    .slice(0, count);
}

const relative = (file: string, root: string) => (file.startsWith(`${root}/`) ? file.slice(root.length + 1) : file);

interface VitestReport {
  testResults?: {
    name: string;
    status?: string;
    message?: string;
    assertionResults?: { fullName?: string; title?: string; status: string; failureMessages?: string[] }[];
  }[];
}

/** vitest's json reporter: each failed test, and each file that failed before its tests ran (a syntax error, a failed hook). */
export function vitestFailures(report: VitestReport, root: string): Failure[] {
  const failures: Failure[] = [];
  for (const file of report.testResults ?? []) {
    const where = relative(file.name, root);
    const failed = (file.assertionResults ?? []).filter((t) => t.status === "failed");
    for (const t of failed) failures.push({ where, name: t.fullName ?? t.title ?? "(unnamed)", error: firstLines(t.failureMessages?.[0]) });
    if (failed.length === 0 && file.status === "failed") failures.push({ where, name: "(the file itself)", error: firstLines(file.message) });
  }
  return failures;
}

interface PlaywrightSuite {
  title: string;
  file?: string;
  specs?: { title: string; file: string; line: number; tests: { status: string; results: { status: string; error?: { message?: string } }[] }[] }[];
  suites?: PlaywrightSuite[];
}
interface PlaywrightReport {
  suites?: PlaywrightSuite[];
  errors?: { message?: string }[];
}

/** Playwright's json reporter: each test not as expected, named by its describe blocks and title, and errors outside any test (global set-up). */
export function playwrightFailures(report: PlaywrightReport): Failure[] {
  const failures: Failure[] = [];
  const walk = (suite: PlaywrightSuite, titles: string[]) => {
    const here = suite.file && suite.title === suite.file ? titles : [...titles, suite.title];
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        if (test.status !== "unexpected") continue;
        const failed = test.results.find((r) => r.status !== "passed" && r.status !== "skipped");
        failures.push({ where: `${spec.file}:${spec.line}`, name: [...here, spec.title].filter(Boolean).join(" › "), error: firstLines(failed?.error?.message ?? failed?.status) });
      }
    }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  for (const e of report.errors ?? []) failures.push({ where: "(outside any test)", name: "error", error: firstLines(e.message) });
  return failures;
}

/** The summary's lines: each failure's place and name, then its first error lines indented under it. */
export function formatFailures(stage: string, failures: Failure[]): string[] {
  if (failures.length === 0) return [];
  return [`✘ ${stage}: ${failures.length} failed`, ...failures.flatMap((f) => [`  ${f.where} › ${f.name}`, ...f.error.map((l) => `      ${l}`)])];
}

/** Each stage's time, for the end of every run (the README's CI section quotes them). */
export function formatTimes(times: { name: string; seconds: number; ok: boolean }[]): string {
  const minutes = (s: number) => (s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`);
  return ["Stage times:", ...times.map((t) => `  ${t.ok ? "✓" : "✘"} ${t.name}: ${minutes(t.seconds)}`)].join("\n");
}

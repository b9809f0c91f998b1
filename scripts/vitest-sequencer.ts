// The order the unit and API suites' files start in. Vitest starts the files
// that took longest last time first, but on a fresh clone (CI) it has no last
// time and starts the largest files first: the files below, small but each
// a minute or more of processes, sharp and fuzzing, then started last, and one
// of the two workers waited alone at the end of the run for a minute and more.
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** The files that take longest, longest first (from `npm test`'s report on a fresh clone). */
export const LONGEST_FIRST = [
  "scripts/shop.test.ts",
  "server/modules/backups/restore.test.ts",
  "server/first-start.test.ts",
  "scripts/shop-import.test.ts",
  "server/admin-access.test.ts",
  "server/test/hostile-input.test.ts",
  "server/db/seed/demo-photos.test.ts",
  "server/db/client.test.ts",
  "server/db/seed/demo-start.test.ts",
  "server/modules/jobs/schedule.test.ts",
];

const root = path.resolve(import.meta.dirname, "..");

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const at = LONGEST_FIRST.indexOf(path.relative(root, spec.moduleId));
      return at === -1 ? LONGEST_FIRST.length : at;
    };
    // A stable sort: the rest keep the order Vitest gave them.
    return (await super.sort(files)).toSorted((a, b) => rank(a) - rank(b));
  }
}

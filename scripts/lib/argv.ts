/** The value after `name` on the command line (`--runs 5` → "5"), or undefined when not given. */
export function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

// Every relative link in the README and the pages under docs/ (issue 35's
// split of the README) leads to a file that exists and, when it names an
// anchor in a Markdown file, to a heading there.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "./lib/shop-server.ts";

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens; a repeated one gets -1, -2… */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const heading = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (!heading) continue;
    const base = heading[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** The `[text](target)` links outside code blocks and code spans. */
export function markdownLinks(markdown: string): string[] {
  const links: string[] = [];
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    if (fenced) continue;
    const text = line.replace(/`[^`]*`/g, "``");
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) links.push(m[1]!);
  }
  return links;
}

const pages = ["README.md", ...readdirSync(path.join(projectRoot, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

describe("the documentation's links", () => {
  it("finds the anchors GitHub makes", () => {
    expect([...headingAnchors("# A `b` c\n## Returns and the right to cancel\n## The back office's API\n## Scripts\n## Scripts\n```\n# not a heading\n```")]).toEqual([
      "a-b-c",
      "returns-and-the-right-to-cancel",
      "the-back-offices-api",
      "scripts",
      "scripts-1",
    ]);
    expect(markdownLinks("see [a](docs/a.md#x) and `[b](c.md)`, [web](https://example.com)\n```\n[d](e.md)\n```")).toEqual(["docs/a.md#x", "https://example.com"]);
  });

  it.each(pages)("%s: every relative link leads to a file, and every anchor to a heading", (page) => {
    const from = path.join(projectRoot, page);
    const text = readFileSync(from, "utf8");
    const broken: string[] = [];
    for (const link of markdownLinks(text)) {
      if (/^[a-z]+:/i.test(link)) continue;
      const [file, anchor] = link.split("#") as [string, string | undefined];
      const target = file === "" ? from : path.resolve(path.dirname(from), decodeURIComponent(file));
      if (!existsSync(target)) {
        broken.push(`${link}: no such file`);
        continue;
      }
      if (anchor && target.endsWith(".md") && statSync(target).isFile() && !headingAnchors(readFileSync(target, "utf8")).has(anchor)) broken.push(`${link}: no such heading`);
    }
    expect(broken).toEqual([]);
  });
});
